/** How a process traces its commands: SUITORS_TRACING and SUITORS_TRACING_URL (services/settings.ts lists both). */
import { SETTINGS, type TracingExport } from '../settings.js';
import type { Environment } from '../settingReaders.js';

export interface TracingSettings {
  /** Where spans go: off (none are made), stdout or otlp. */
  readonly export: TracingExport;
  /** Where otlp sends them; undefined: the OTLP exporter's own default. */
  readonly url: string | undefined;
}

export function tracingSettingsFrom(env: Environment = process.env): TracingSettings {
  return {
    export: (SETTINGS.SUITORS_TRACING.read(env) as TracingExport | undefined) ?? 'off',
    url: SETTINGS.SUITORS_TRACING_URL.read(env),
  };
}
