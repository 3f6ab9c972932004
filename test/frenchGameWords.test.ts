/**
 * The French of each game's own words (its name, what ends it, its rules in
 * short) comes from the game's rules object, as its English does, so a game
 * added with its French words needs no edit of the client's catalogue.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { GAME_NAMES, rulesOf } from '../machines/games/rules/index.js';
import { frGame } from '../services/gateway/web/src/i18n/frGame.js';
import { optionsOf } from './kit/table.js';

/** What a table's view says of its rules, as machines/view.ts words it. */
const viewOf = (game: (typeof GAME_NAMES)[number], options = optionsOf(game)) => ({
  game,
  options,
  endWords: rulesOf(game).words.end(options),
  rulesSummary: rulesOf(game).words.summary,
});

describe("the games' words in French", () => {
  it("are each game's own, from its rules object, for every game and the options it is played with", () => {
    for (const game of GAME_NAMES) {
      const french = rulesOf(game).words.translations.fr;
      expect(french, game).toBeDefined();
      expect(frGame.titles[game]).toBe(french!.title);
      expect(frGame.end(viewOf(game))).toBe(french!.end(optionsOf(game)));
      expect(frGame.summary(viewOf(game))).toEqual(french!.summary);
    }
    expect(frGame.end(viewOf('sevenSuitors', optionsOf('sevenSuitors', { end: 'hands:1' })))).toBe(
      '1 donne, puis le plus de couleurs marquées',
    );
  });

  it('leave a table of other rules than the current ones in its own English words, rather than word rules it does not play by', () => {
    const older = { ...viewOf('traitorOfLove'), endWords: 'the hand after which someone has more than 12 points' };
    expect(frGame.end(older)).toBe('the hand after which someone has more than 12 points');
    expect(frGame.summary(older)).toEqual(rulesOf('traitorOfLove').words.summary);
  });

  it('name no game in the catalogue: adding one needs no edit there', () => {
    const catalogue = readFileSync(new URL('../services/gateway/web/src/i18n/frGame.ts', import.meta.url), 'utf8');
    for (const game of GAME_NAMES) expect(catalogue, game).not.toContain(`'${game}'`);
  });
});
