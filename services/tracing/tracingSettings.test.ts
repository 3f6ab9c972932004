import { describe, expect, it } from 'vitest';
import { SettingError } from '../settingReaders.js';
import { tracingSettingsFrom } from './tracingSettings.js';

describe('SUITORS_TRACING and SUITORS_TRACING_URL', () => {
  it("are off by default, and otlp's URL is the exporter's own unless one is set", () => {
    expect(tracingSettingsFrom({})).toEqual({ export: 'off', url: undefined });
    expect(tracingSettingsFrom({ SUITORS_TRACING: '', SUITORS_TRACING_URL: '' })).toEqual({ export: 'off', url: undefined });
    expect(tracingSettingsFrom({ SUITORS_TRACING: 'stdout' })).toEqual({ export: 'stdout', url: undefined });
    expect(tracingSettingsFrom({ SUITORS_TRACING: 'otlp', SUITORS_TRACING_URL: 'http://collector:4318/v1/traces' })).toEqual({
      export: 'otlp',
      url: 'http://collector:4318/v1/traces',
    });
  });

  it.each([
    ['SUITORS_TRACING', 'on', 'SUITORS_TRACING must be one of off, stdout, otlp, not "on"'],
    ['SUITORS_TRACING_URL', 'collector:4318', 'SUITORS_TRACING_URL must be an http:// or https:// URL, not "collector:4318"'],
  ])('%s=%j stops the process, naming the variable', (variable, value, message) => {
    let refusal: unknown;
    try {
      tracingSettingsFrom({ [variable]: value });
    } catch (error) {
      refusal = error;
    }
    expect(refusal).toBeInstanceOf(SettingError);
    expect(refusal).toMatchObject({ variable, message });
  });
});
