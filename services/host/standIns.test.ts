import { describe, expect, it } from 'vitest';
import { standInName } from './standIns.js';

describe('stand-in names', () => {
  it('are cut to 40 characters, never through a surrogate pair', () => {
    const name = `${'a'.repeat(31)}\u{1F600}`;
    expect(standInName(name)).toBe(`Bot for ${name}`);
    expect(standInName(`${'a'.repeat(31)}\u{1F600}\u{1F600}`)).toBe(`Bot for ${name}`);
    expect(standInName('Bot for Ada')).toBe('Bot for Ada');
  });
});
