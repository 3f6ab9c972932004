/**
 * The service's own bots choose with a source no watcher can reproduce
 * (issue 12): a choice that were a function of what a watcher knows (the
 * table id, its version, the seat's view) would repeat for the same table
 * at the same version, and tell of the hand it was made from.
 */
import { describe, expect, it } from 'vitest';
import { inPhase, newTable, playUntil } from '../../test/kit/table.js';
import { createRng } from '../../machines/cards/shuffle.js';
import type { PlayerCommand } from '../../machines/table/events.js';
import type { TableSnapshot } from '../../machines/table/snapshot.js';
import { createBotRunner } from './botRunner.js';
import { secureRng } from './secureRng.js';

function passingTable(): TableSnapshot {
  const table = newTable('sevenSuitors', { bots: [1] });
  playUntil(table, createRng('secure-bots'), inPhase('passing'));
  return table.getSnapshot();
}

describe('the bots’ randomness', () => {
  it('differs between two looks at the same table, version and seat: the move is not a function of what a watcher knows', async () => {
    const snapshot = passingTable();
    const moves: PlayerCommand[] = [];
    for (let look = 0; look < 8; look++) {
      let moved = () => {};
      const submitted = new Promise<void>((resolve) => (moved = resolve));
      const runner = createBotRunner({
        snapshot: async () => ({ version: 9, snapshot }),
        submit: async (_, move) => {
          moves.push(move);
          moved();
        },
      });
      runner.tableChanged('t-same', snapshot, () => 'random');
      await submitted;
      await runner.close();
    }
    expect(moves).toHaveLength(8);
    // A random pass of 14 cards: eight alike by chance is about one in 10^20.
    expect(new Set(moves.map((move) => JSON.stringify(move))).size).toBeGreaterThan(1);
  });

  it('draws whole numbers below any bound, each equally often', () => {
    const counts = [0, 0, 0, 0, 0, 0, 0];
    for (let i = 0; i < 7_000; i++) counts[secureRng.below(7)]++;
    // Pearson's chi-squared on 6 degrees of freedom: 40 is far past the one-in-a-million point.
    const statistic = counts.reduce((sum, count) => sum + (count - 1000) ** 2 / 1000, 0);
    expect(statistic).toBeLessThan(40);
    for (let i = 0; i < 1000; i++) {
      const drawn = secureRng.next();
      expect(drawn >= 0 && drawn < 1).toBe(true);
    }
  });
});
