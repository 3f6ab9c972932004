/**
 * A fork never holds the event loop for the folds it needs (issue 26): the
 * original up to the fork point and the new table through it are folded on
 * the fork worker, while the loop goes on turning; the table it makes is
 * the one the fork asked for.
 */
import { describe, expect, it } from 'vitest';
import { parseOptions } from '../../machines/table/options.js';
import { openLocalStorage } from '../storage/storage.js';
import { simulateGame } from '../simulator/simulate.js';
import { TableHost } from './tableHost.js';

describe('a fork of a long game', () => {
  it('folds off the event loop, which turns meanwhile, and starts the new table where the original stood', async () => {
    const store = openLocalStorage({ kind: 'memory' }).store;
    const host = new TableHost({ store });
    const parsed = parseOptions('sevenSuitors', { end: 'hands:3' });
    if (!parsed.ok) throw new Error(parsed.errors.join('; '));
    const { record } = simulateGame({ game: 'sevenSuitors', options: parsed.options, seed: 'long-fork' });
    const { tableId, version } = await host.importRecord(record);
    const at = version - 30;
    // Laid first, so that the replays of the fork fold from a checkpoint within one turn, as on a busy service.
    await host.replayAt(tableId, at);
    await host.replayAt(tableId);

    // The memory store answers within the same turn of the loop: a turn counted here is one the fork gave up.
    let turns = 0;
    let done = false;
    const turn = () => {
      if (done) return;
      turns++;
      setImmediate(turn);
    };
    setImmediate(turn);
    const forked = await host.forkTable(tableId, { at });
    done = true;
    expect(turns).toBeGreaterThan(20);

    const original = (await host.replayAt(tableId, at)).snapshot.context;
    const { context } = (await host.snapshot(forked.tableId)).snapshot;
    expect(context.handResults).toEqual(original.handResults);
    expect(original.hand?.holdings.flat().length).toBeGreaterThan(0);
    expect(context.hand?.holdings).toEqual(original.hand?.holdings);
    expect(context.hand?.tricks).toEqual(original.hand?.tricks);
    expect(context.occupants.map((occupant) => occupant?.bot)).toEqual([true, true, true, true]);
    await host.close();
  });
});
