import { describe, expect, it } from 'vitest';
import { createRng } from '../../machines/cards/shuffle.js';
import { viewFor } from '../../machines/view.js';
import { nextBotMove, playBotTurns } from '../../drivers/botTurns.js';
import { openLocalStorage } from '../storage/storage.js';
import type { EventStore, StoredEvent } from '../eventstore/eventStore.js';
import { isTableRefusal } from '../host/errors.js';
import { isTableQuarantined, type TableQuarantined } from '../host/quarantine.js';
import { foldLog } from '../host/replay.js';
import { TableHost } from '../host/tableHost.js';
import { TableReadModel } from './tableReadModel.js';

const BOTS = Array.from({ length: 4 }, (_, seat) => ({ name: `Bot ${seat}`, bot: true }));

/** A finished game's log, written by a host the read model knows nothing of. */
async function finishedGame() {
  const store = openLocalStorage({ kind: 'memory' }).store;
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

/** A table some moves into its first hand, with an event the machine refuses appended behind its host's back. */
async function tableWithARefusedEvent() {
  const store = openLocalStorage({ kind: 'memory' }).store;
  const host = new TableHost({ store, onQuarantined: () => undefined });
  const { tableId } = await host.createTable({ game: 'sevenSuitors', players: BOTS, seed: 'read-model-quarantine' });
  const rng = createRng('read-model-quarantine');
  for (let move = 0; move < 6; move++) await host.submit(tableId, nextBotMove((await host.snapshot(tableId)).snapshot, rng)!);
  const good = await store.read(tableId);
  // Seat 9 at a table of four: refused in any state.
  await store.append(tableId, [{ type: 'card.played', at: new Date().toISOString(), data: { seat: 9, card: '1-9' } }], good.length);
  return { store, host, tableId, good, bad: good.length + 1 };
}

function countingReads(store: EventStore): { store: EventStore; reads: () => number } {
  let reads = 0;
  const read: EventStore['read'] = (tableId, afterVersion) => {
    reads++;
    return store.read(tableId, afterVersion);
  };
  return { store: { ...store, read }, reads: () => reads };
}

describe("a gateway's read model of a quarantined table", () => {
  it('answers with the verdict without reading the log again, and folds the table again when its repair comes', async () => {
    const { store, host, tableId, bad } = await tableWithARefusedEvent();
    const counted = countingReads(store);
    const told: TableQuarantined[] = [];
    const model = new TableReadModel(counted.store, { onQuarantined: (verdict) => told.push(verdict) });
    const refused = await model.snapshot(tableId).catch((error: unknown) => error);
    expect(isTableQuarantined(refused) && refused.quarantine).toEqual({
      tableId,
      game: 'sevenSuitors',
      seq: bad,
      eventType: 'card.played',
      reason: 'seat must be a whole number from 0 to 3, not 9',
    });
    const reads = counted.reads();
    for (let i = 0; i < 3; i++) expect(isTableQuarantined(await model.snapshot(tableId).catch((error: unknown) => error))).toBe(true);
    expect(counted.reads()).toBe(reads);
    expect(model.quarantinedTables()).toHaveLength(1);
    expect(told).toHaveLength(1);

    const heard: number[] = [];
    model.subscribe((id, event) => id === tableId && heard.push(event.seq));
    const repaired = await host.repair(tableId);
    await model.offer(tableId, repaired.events); // as the feed brings it
    expect(model.quarantinedTables()).toEqual([]);
    expect(model.follows(tableId)).toBe(true);
    expect(heard).toEqual(repaired.events.map((event) => event.seq));
    const log = await store.read(tableId);
    const { version, snapshot } = await model.snapshot(tableId);
    expect(version).toBe(log.length);
    expect(viewFor(snapshot, 1)).toEqual(viewFor(foldLog(tableId, log).actor.getSnapshot(), 1));
    await playBotTurns(host, tableId, createRng('played on'));
    await model.catchUp(tableId);
    expect(model.versionOf(tableId)).toBe(await store.version(tableId));
    await host.close();
    await model.close();
  });

  it('stops following a table when an event it is offered is refused, and answers its next read with the verdict', async () => {
    const { store, host, tableId, good, bad } = await tableWithARefusedEvent();
    const told: TableQuarantined[] = [];
    const model = new TableReadModel(store, { onQuarantined: (verdict) => told.push(verdict) });
    await model.offer(tableId, good);
    expect(model.follows(tableId)).toBe(true);
    await model.offer(tableId, await store.read(tableId, good.length));
    expect(model.follows(tableId)).toBe(false);
    const refused = await model.snapshot(tableId).catch((error: unknown) => error);
    expect(isTableQuarantined(refused) && refused.seq).toBe(bad);
    expect(told.map((verdict) => verdict.seq)).toEqual([bad]);
    await host.close();
    await model.close();
  });
});
