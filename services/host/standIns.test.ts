import { describe, expect, it } from 'vitest';
import { standInFor, standInName } from './standIns.js';

describe('stand-in names', () => {
  it('are cut to 40 characters, never through a surrogate pair', () => {
    const name = `${'a'.repeat(31)}\u{1F600}`;
    expect(standInName(name)).toBe(`Bot for ${name}`);
    expect(standInName(`${'a'.repeat(31)}\u{1F600}\u{1F600}`)).toBe(`Bot for ${name}`);
    expect(standInName('Bot for Ada')).toBe('Bot for Ada');
  });

  it('name a person, never a bot: a bot or a stand-in is not wrapped in another "Bot for"', () => {
    expect(standInFor({ name: 'Ada', bot: false }, 2)).toBe('Bot for Ada');
    expect(standInFor({ name: 'Heuristic bot 1', bot: true }, 1)).toBe('Bot for seat 1');
    expect(standInFor({ name: 'Bot for Ada', bot: true }, 2)).toBe('Bot for Ada');
    expect(standInFor(null, 3)).toBe('Bot for seat 3');
  });
});
