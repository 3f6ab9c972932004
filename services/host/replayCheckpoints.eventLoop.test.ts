/**
 * A replay never holds the event loop for a whole log (issue 13): the first
 * replay of a long table, which folds it all to lay the checkpoints, lets
 * other work run between two checkpoints.
 */
import { describe, expect, it } from 'vitest';
import { parseOptions } from '../../machines/table/options.js';
import { openLocalStorage } from '../storage/storage.js';
import { simulateGame } from '../simulator/simulate.js';
import { ReplayCheckpoints } from './replayCheckpoints.js';
import { TableHost } from './tableHost.js';

describe('the first replay of a long table', () => {
  it('lets the event loop turn between two checkpoints of its fold, and gives the table the log folds to', async () => {
    const store = openLocalStorage({ kind: 'memory' }).store;
    const host = new TableHost({ store });
    const parsed = parseOptions('sevenSuitors', { end: 'hands:3' });
    if (!parsed.ok) throw new Error(parsed.errors.join('; '));
    const { record } = simulateGame({ game: 'sevenSuitors', options: parsed.options, seed: 'long-replay' });
    const { tableId, version } = await host.importRecord(record);
    expect(version).toBeGreaterThan(150);

    const every = 10;
    const replays = new ReplayCheckpoints(store, { every });
    // The memory store answers within the same turn of the loop: any turn counted here is one the fold gave up.
    let turns = 0;
    let done = false;
    const turn = () => {
      if (done) return;
      turns++;
      setImmediate(turn);
    };
    setImmediate(turn);
    const replayed = await replays.replayAt(tableId, version);
    done = true;
    expect(turns).toBeGreaterThanOrEqual(Math.floor(version / every) - 1);
    expect(replayed.snapshot.context).toEqual((await host.snapshot(tableId)).snapshot.context);
    await host.close();
  });
});
