/**
 * The caps on what one import may cost (issue 13): hands, and the entries
 * (deals, passes, plays, accusations) counted before the record is verified.
 */
import { describe, expect, it } from 'vitest';
import { parseOptions, type GameName } from '../../../machines/table/options.js';
import { simulateGame } from '../../simulator/simulate.js';
import { MAX_IMPORT_ENTRIES, MAX_IMPORT_HANDS, prepareImport } from './prepareImport.js';

function finishedGame(game: GameName, options: Record<string, string>) {
  const parsed = parseOptions(game, options);
  if (!parsed.ok) throw new Error(parsed.errors.join('; '));
  return simulateGame({ game, options: parsed.options, seed: `caps-${game}` }).record;
}

const entriesOf = (hand: { passes: readonly unknown[]; plays: readonly unknown[]; accusations: readonly unknown[] | null }) =>
  1 + hand.passes.length + hand.plays.length + (hand.accusations?.length ?? 0);

describe('the import caps', () => {
  it('refuse a record stuffed with entries before verifying it, naming the count and the cap', () => {
    const record = finishedGame('sevenSuitors', { end: 'hands:1' });
    expect(prepareImport(record).ok).toBe(true);
    const hand = record.hands[0];
    const stuffed = { ...record, hands: [{ ...hand, plays: Array.from({ length: MAX_IMPORT_ENTRIES }, () => hand.plays[0]) }] };
    expect(prepareImport(stuffed)).toEqual({
      ok: false,
      message: `the record holds ${MAX_IMPORT_ENTRIES + 1 + hand.passes.length} deals, passes, plays and accusations; at most ${MAX_IMPORT_ENTRIES} can be imported`,
    });
  });

  it('never refuse a real game within the hands cap: a hand of any game, passing and accusing, holds fewer than 100 entries', () => {
    expect(MAX_IMPORT_ENTRIES).toBe(100 * MAX_IMPORT_HANDS);
    const games: [GameName, Record<string, string>][] = [
      ['sevenSuitors', { specials: 'powers', end: 'hands:3' }],
      ['antiCupid', { specials: 'powers', passing: 'oneEach' }],
      ['traitorOfLove', { specials: 'powers' }],
    ];
    for (const [game, options] of games) {
      const record = finishedGame(game, options);
      expect(record.result.finished, game).toBe(true);
      for (const hand of record.hands) expect(entriesOf(hand), game).toBeLessThan(100);
      expect(prepareImport(record).ok, game).toBe(true);
    }
  });
});
