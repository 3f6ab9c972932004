/**
 * The lab over a service's finished games keeps what one request costs
 * bounded: no more records read per request than its limit, none while its
 * figures are fresh, and no more games kept than the most it folds.
 */
import { describe, expect, it } from 'vitest';
import type { GameRecord } from '../../machines/record/record.js';
import { simulateGame } from '../simulator/simulate.js';
import { FinishedGamesLab, type FinishedGamesSource } from './finishedGames.js';

const RECORDS: GameRecord[] = Array.from(
  { length: 12 },
  (_, i) => simulateGame({ game: 'sevenSuitors', options: { end: 'hands:1', specials: 'off' }, seed: `finished-${i}` }).record,
);

function countingSource(finished: () => number): FinishedGamesSource & { reads: string[]; listings: number } {
  const reads: string[] = [];
  const source = {
    reads,
    listings: 0,
    async newest(most: number) {
      source.listings++;
      const all = Array.from({ length: finished() }, (_, i) => `t-${finished() - 1 - i}`);
      return { tableIds: all.slice(0, most), finishedInAll: all.length };
    },
    async record(tableId: string) {
      reads.push(tableId);
      if (tableId === 't-11') throw new Error('the log of t-11 cannot be read');
      return RECORDS[Number(tableId.slice(2))];
    },
  };
  return source;
}

describe('the lab over finished games', () => {
  it('reads at most newPerRequest new records per request, none while fresh, and folds at most mostGames', async () => {
    let finished = 10;
    let now = 0;
    const source = countingSource(() => finished);
    const lab = new FinishedGamesLab(source, { mostGames: 8, newPerRequest: 3, freshMs: 1_000 }, () => now);

    const first = await lab.stats();
    expect(source.reads).toEqual(['t-9', 't-8', 't-7']);
    expect(first.sections[0].count).toBe(3);
    expect(first.source).toBe(
      'the newest 3 of this service’s 10 finished games (5 more finished games are folded in on the next requests)',
    );

    const [again, atOnce] = await Promise.all([lab.stats(), lab.stats()]);
    expect(again).toBe(first);
    expect(atOnce).toBe(first);
    expect(source.listings).toBe(1);

    now = 1_000;
    expect((await lab.stats()).sections[0].count).toBe(6);
    now = 2_000;
    expect((await lab.stats()).sections[0].count).toBe(8);
    expect(source.reads).toHaveLength(8);

    // Two more finish: the two oldest drop out; the newest, whose record fails, is named and not asked for again.
    finished = 12;
    now = 3_000;
    const later = await lab.stats();
    expect(later.sections[0].count).toBe(7);
    expect(later.skipped).toEqual([{ file: 'table t-11', problem: 'the log of t-11 cannot be read' }]);
    now = 4_000;
    await lab.stats();
    expect(source.reads.filter((tableId) => tableId === 't-11')).toHaveLength(1);
  });
});
