/** The rules of a player name (issue 26, item 5), each with the rule a refusal names. */
import { describe, expect, it } from 'vitest';
import { checkPlayerName, PLAYER_NAME_MAX, readsAsBotName, tableBotName } from './playerNames.js';

const ruleOf = (name: string) => {
  const checked = checkPlayerName(name, 'body.name');
  return 'rule' in checked ? checked.rule : null;
};

describe('player names', () => {
  it.each([
    ['Ada\u202Eevol', 'bidi'],
    ['\u2067Ada\u2069', 'bidi'],
    ['Ada\u200F', 'bidi'],
    ['\u200B\u200C\u200D', 'invisible'],
    ['\u3164', 'invisible'],
    [' \u00A0\u2060 ', 'invisible'],
    ['Ada\u0000', 'control'],
    ['Ada\u0007', 'control'],
    ['Ada\nLovelace', 'control'],
    ['Ada\tL', 'control'],
    ['Ada\u2028L', 'control'],
    ['Ada\u0085', 'control'],
    ['Ada\uD800', 'unpaired'],
    ['\uDC00Ada', 'unpaired'],
    ['Heuristic bot 1', 'botName'],
    ['random  BOT 3', 'botName'],
    ['Ｈeuristic bot 1', 'botName'],
    ['Bot for Ada', 'botName'],
    ['a'.repeat(PLAYER_NAME_MAX + 1), 'length'],
  ])('refuses %j: %s', (name, rule) => {
    expect(ruleOf(name)).toBe(rule);
  });

  it('says which rule was broken, in words', () => {
    expect(checkPlayerName('Ada\u202Eevol', 'body.name')).toEqual({
      rule: 'bidi',
      message: 'body.name may not hold bidirectional formatting characters (it holds U+202E), which turn the text shown around them',
    });
  });

  it('keeps a name in NFC with what is invisible around it trimmed, and the joiners inside it', () => {
    expect(checkPlayerName('  Jose\u0301 \u200B', 'name')).toEqual({ name: 'Jos\u00E9' });
    expect(checkPlayerName('\u{1F469}\u200D\u{1F52C} Ada', 'name')).toEqual({ name: '\u{1F469}\u200D\u{1F52C} Ada' });
    expect(checkPlayerName('\u0645\u06CC\u200C\u0631\u0648\u062F', 'name')).toEqual({ name: '\u0645\u06CC\u200C\u0631\u0648\u062F' });
    // Counted in characters, not UTF-16 units: 40 emoji are 80 units.
    expect(checkPlayerName('\u{1F600}'.repeat(PLAYER_NAME_MAX), 'name')).toEqual({ name: '\u{1F600}'.repeat(PLAYER_NAME_MAX) });
    expect(checkPlayerName('Bottom', 'name')).toEqual({ name: 'Bottom' });
    expect(checkPlayerName('Robot 1', 'name')).toEqual({ name: 'Robot 1' });
  });

  it('knows every name a bot is given as a bot name', () => {
    for (const seat of [0, 5])
      for (const kind of ['heuristic', 'random'] as const) expect(readsAsBotName(tableBotName(kind, seat))).toBe(true);
  });
});
