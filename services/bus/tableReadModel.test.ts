import { describe, expect, it } from 'vitest';
import { createRng } from '../../machines/cards/shuffle.js';
import { viewFor } from '../../machines/view.js';
import { playBotTurns } from '../../drivers/botTurns.js';
import { createMemoryEventStore } from '../eventstore/memoryEventStore.js';
import type { StoredEvent } from '../eventstore/eventStore.js';
import { isTableRefusal } from '../host/errors.js';
import { foldLog } from '../host/replay.js';
import { TableHost } from '../host/tableHost.js';
import { TableReadModel } from './tableReadModel.js';

const BOTS = Array.from({ length: 4 }, (_, seat) => ({ name: `Bot ${seat}`, bot: true }));

/** A finished game's log, written by a host the read model knows nothing of. */
async function finishedGame() {
  const store = createMemoryEventStore();
  const host = new TableHost({ store });
  const { tableId } = await host.createTable({ game: 'sevenSuitors', players: BOTS, seed: 'read-model' });
  await playBotTurns(host, tableId, createRng('read-model'));
  await host.close();
  return { store, tableId, log: await store.read(tableId) };
}

describe("a gateway's read model", () => {
  it('applies each event once and in order, whether it comes twice, late, or after a gap', async () => {
    const { store, tableId, log } = await finishedGame();
    const model = new TableReadModel(store);
    const heard: number[] = [];
    model.subscribe((id, event) => id === tableId && heard.push(event.seq));
    await model.offer(tableId, log.slice(0, 6)); // a new table: followed without a read
    expect(model.versionOf(tableId)).toBe(6);
    await model.offer(tableId, log.slice(3, 8)); // partly known
    await model.offer(tableId, log.slice(6, 8)); // all known
    await model.offer(tableId, log.slice(20, 21)); // a gap: read from the log up to the end
    await model.offer(tableId, log.slice(10, 12)); // late
    expect(model.versionOf(tableId)).toBe(log.length);
    expect(heard).toEqual(log.map((event) => event.seq));
    const { actor } = foldLog(tableId, log);
    expect(viewFor((await model.snapshot(tableId)).snapshot, 2)).toEqual(viewFor(actor.getSnapshot(), 2));
    await model.close();
  });

  it('loads a table on first read, passes on events of tables it does not follow, and forgets idle ones', async () => {
    const { store, tableId, log } = await finishedGame();
    const model = new TableReadModel(store);
    const passedOn: StoredEvent[] = [];
    model.subscribe((_, event) => passedOn.push(event));
    await model.offer(tableId, log.slice(9, 10));
    expect(model.follows(tableId)).toBe(false);
    expect(passedOn.map((event) => event.seq)).toEqual([10]);
    expect((await model.snapshot(tableId)).version).toBe(log.length);
    expect(model.forgetIdle(60_000)).toEqual([]);
    expect(model.forgetIdle(0)).toEqual([tableId]);
    expect(model.follows(tableId)).toBe(false);
    const refusal = await model.snapshot('t-nothing').catch((error: unknown) => error);
    expect(isTableRefusal(refusal) && refusal.kind).toBe('unknownTable');
    await model.close();
  });
});
