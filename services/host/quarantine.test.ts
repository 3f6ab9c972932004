/**
 * A table whose log holds an event the machine refuses (forged here by
 * appending to the store behind the host's back) is quarantined, not a
 * stream of failures: a typed refusal naming the event, the verdict kept so
 * the log is not folded again on every command, the operator told once; and
 * a repair voids exactly the refused events and lets the table play on.
 */
import { describe, expect, it } from 'vitest';
import { createRng, type Rng } from '../../machines/cards/shuffle.js';
import { recordFromEvents } from '../../machines/record/record.js';
import { verifyRecord } from '../../machines/record/verify.js';
import { phaseOf, type TableSnapshot } from '../../machines/table/snapshot.js';
import { nextBotMove, playBotTurns } from '../../drivers/botTurns.js';
import { openLocalStorage } from '../storage/storage.js';
import { isVersionConflict, type EventStore, type NewEvent } from '../eventstore/eventStore.js';
import { isTableRefusal } from './errors.js';
import { isTableQuarantined, type TableQuarantined } from './quarantine.js';
import { replayLog } from './replay.js';
import { TableHost } from './tableHost.js';
import { isMachineEvent, TABLE_REPAIRED, tableCreatedOf, toTableEvent } from './tableLog.js';
import { withSchema } from './upcasters.js';

const BOTS = Array.from({ length: 4 }, (_, seat) => ({ name: `Bot ${seat}`, bot: true }));

/** The store, counting its reads of logs: a quarantined table must not be folded again on every command. */
function countingReads(store: EventStore): { store: EventStore; reads: () => number } {
  let reads = 0;
  return {
    store: {
      ...store,
      read: (tableId, afterVersion) => {
        reads++;
        return store.read(tableId, afterVersion);
      },
    },
    reads: () => reads,
  };
}

/** A table of four bots, played by `rng` into its first hand's trick play, a trick or more in. */
async function tableInPlay(host: TableHost, seed: string, rng: Rng): Promise<{ tableId: string; snapshot: TableSnapshot }> {
  const { tableId } = await host.createTable({ game: 'sevenSuitors', players: BOTS, seed, options: { end: 'hands:1' } });
  for (;;) {
    const { snapshot } = await host.snapshot(tableId);
    if (phaseOf(snapshot) === 'trickPlay' && snapshot.context.hand!.tricks.length >= 1) return { tableId, snapshot };
    await host.submit(tableId, nextBotMove(snapshot, rng)!);
  }
}

/** A card played out of turn: by the seat after the one to play, one it holds. */
function playedOutOfTurn(snapshot: TableSnapshot): NewEvent {
  const hand = snapshot.context.hand!;
  const seat = (hand.turn! + 1) % snapshot.context.seatCount;
  return withSchema({ type: 'card.played', at: new Date().toISOString(), data: { seat, card: hand.holdings[seat][0] } });
}

/** Appends `events` to the table's log behind any host's back (a bug, or a forged append); returns the seq of the first. */
async function forge(store: EventStore, tableId: string, events: readonly NewEvent[]): Promise<number> {
  const version = await store.version(tableId);
  await store.append(tableId, events, version);
  return version + 1;
}

async function refusalOf(work: Promise<unknown>): Promise<TableQuarantined> {
  const error = await work.then(
    () => null,
    (refused: unknown) => refused,
  );
  if (!isTableQuarantined(error)) throw new Error(`expected a quarantine, got ${String(error)}`);
  return error;
}

describe('a table whose log the machine refuses', () => {
  it('is quarantined: every command and read refused naming the event, the log unchanged, folded once, the operator told once', async () => {
    const memory = openLocalStorage({ kind: 'memory' }).store;
    const writer = new TableHost({ store: memory });
    const rng = createRng('quarantine');
    const { tableId, snapshot } = await tableInPlay(writer, 'quarantine', rng);
    const other = await writer.createTable({ game: 'antiCupid', players: [...BOTS, { name: 'Bot 4', bot: true }], seed: 'other' });
    await writer.close();
    const bad = await forge(memory, tableId, [playedOutOfTurn(snapshot)]);

    const { store, reads } = countingReads(memory);
    const told: TableQuarantined[] = [];
    const host = new TableHost({ store, onQuarantined: (verdict) => told.push(verdict) });
    const first = await refusalOf(host.submit(tableId, nextBotMove(snapshot, rng)));
    expect(first).toMatchObject({ kind: 'quarantined', tableId, seq: bad, eventType: 'card.played', game: 'sevenSuitors' });
    expect(first.reason).toMatch(/^it is seat \d's turn/);
    expect(first.message).toContain(`logged event ${bad} (card.played) is refused on replay`);
    expect(first.message).toContain('repair');
    const readsAfterTheFirst = reads();
    for (let i = 0; i < 5; i++) {
      await refusalOf(host.submit(tableId, nextBotMove(snapshot, rng)));
      await refusalOf(host.snapshot(tableId));
    }
    expect(reads()).toBe(readsAfterTheFirst);
    expect(told.map((verdict) => verdict.seq)).toEqual([bad]);
    expect(await memory.version(tableId)).toBe(bad);

    expect(host.quarantinedTables()).toEqual([first.quarantine]);
    const listed = (await host.listTables()).find((table) => table.tableId === tableId);
    expect(listed?.status).toMatchObject({ game: 'sevenSuitors', phase: 'quarantined', quarantine: { seq: bad, reason: first.reason } });
    // Other tables play on.
    expect(await playBotTurns(host, other.tableId, createRng('other'))).toBeGreaterThan(0);
    await host.close();
  });

  it('is quarantined by an event of a type no machine takes, read through a snapshot and the events after it', async () => {
    const store = openLocalStorage({ kind: 'memory' }).store;
    const host = new TableHost({ store, onQuarantined: () => undefined });
    const { tableId } = await tableInPlay(host, 'unknown-type', createRng('unknown-type'));
    await host.passivate(tableId); // a snapshot as of now: the forged event comes after it
    const bad = await forge(store, tableId, [{ type: 'game.finished', at: new Date().toISOString(), data: { winner: 0 } }]);
    const refused = await refusalOf(host.snapshot(tableId));
    expect(refused).toMatchObject({ seq: bad, eventType: 'game.finished', reason: 'no machine takes an event of type "game.finished"' });
    await host.close();
  });

  it('is quarantined by an event no release could read (a schema never written), which a repair voids like any refused one', async () => {
    const store = openLocalStorage({ kind: 'memory' }).store;
    const host = new TableHost({ store, onQuarantined: () => undefined });
    const rng = createRng('bad-schema');
    const { tableId, snapshot } = await tableInPlay(host, 'bad-schema', rng);
    const { type, ...data } = nextBotMove(snapshot, rng)!;
    const bad = await forge(store, tableId, [{ type, at: new Date().toISOString(), data: { ...data, schema: 'two' } }]);
    await host.passivate(tableId);
    const refused = await refusalOf(host.snapshot(tableId));
    expect(refused).toMatchObject({ seq: bad, eventType: type, reason: expect.stringContaining('is in event schema "two"') });
    expect((await host.repair(tableId)).voided).toEqual([bad]);
    expect(await playBotTurns(host, tableId, rng)).toBeGreaterThan(0);
    await host.close();
  });

  it('is repaired by voiding exactly the refused events, to the end of the log; it then plays on and its record verifies', async () => {
    const store = openLocalStorage({ kind: 'memory' }).store;
    const told: number[] = [];
    const host = new TableHost({ store, onQuarantined: (verdict) => told.push(verdict.seq) });
    const rng = createRng('repair');
    const { tableId, snapshot } = await tableInPlay(host, 'repair', rng);
    // Refused, then a move the machine takes (the seat to play, a card it may play), then refused again.
    const valid = nextBotMove(snapshot, rng)!;
    const { type, ...data } = valid;
    const first = await forge(store, tableId, [
      playedOutOfTurn(snapshot),
      withSchema({ type, at: new Date().toISOString(), data }),
      withSchema({ type: 'card.played', at: new Date().toISOString(), data: { seat: valid.seat, card: 'not a card' } }),
    ]);
    await host.passivate(tableId);
    await refusalOf(host.snapshot(tableId));
    expect(host.quarantinedTables()).toHaveLength(1);

    const repaired = await host.repair(tableId);
    expect(repaired.voided).toEqual([first, first + 2]);
    expect(repaired.reasons).toHaveLength(2);
    expect(repaired.events[0]).toMatchObject({ seq: first + 3, type: TABLE_REPAIRED, data: { voided: [first, first + 2] } });
    expect(host.quarantinedTables()).toEqual([]);
    expect((await host.snapshot(tableId)).version).toBe(first + 3);

    await playBotTurns(host, tableId, rng);
    const log = await store.read(tableId);
    expect(log.filter((event) => event.seq >= first && event.seq <= first + 2).map((event) => event.seq)).toEqual([
      first,
      first + 1,
      first + 2,
    ]);
    expect(replayLog(tableId, log).snapshot.context.outcome?.finished).toBe(true);
    const record = await host.exportRecord(tableId);
    expect(verifyRecord(JSON.parse(JSON.stringify(record)))).toMatchObject({ ok: true, problems: [] });
    const voided = new Set(repaired.voided);
    const withoutTheVoided = log.filter((event) => isMachineEvent(event) && !voided.has(event.seq)).map(toTableEvent);
    expect(record).toEqual(recordFromEvents(tableCreatedOf(log[0], tableId), withoutTheVoided));
    expect(told).toEqual([first]);

    const again = await host.repair(tableId).catch((error: unknown) => error);
    expect(isTableRefusal(again) && again.kind).toBe('notQuarantined');
    expect(await store.version(tableId)).toBe(log.length);
    await host.close();
  });

  it('replays at, between and after the refused and the repair events, and is played on from any of them once over', async () => {
    const store = openLocalStorage({ kind: 'memory' }).store;
    const host = new TableHost({ store, onQuarantined: () => undefined });
    const rng = createRng('replays');
    const { tableId, snapshot } = await tableInPlay(host, 'replays', rng);
    const bad = await forge(store, tableId, [playedOutOfTurn(snapshot)]);
    await host.passivate(tableId);
    const { version: repairedAt } = await host.repair(tableId);
    await playBotTurns(host, tableId, rng);
    const log = await store.read(tableId);
    const beforeBad = replayLog(tableId, log, bad - 1).snapshot;
    for (const at of [bad - 1, bad, repairedAt, repairedAt + 1, log.length]) {
      const replayed = await host.replayAt(tableId, at);
      expect(replayed.version).toBe(at);
      expect(replayed.snapshot.context).toEqual(replayLog(tableId, log, at).snapshot.context);
    }
    // The voided event changes nothing: the table right after it is the table right before it.
    expect((await host.replayAt(tableId, bad)).snapshot.context).toEqual(beforeBad.context);
    const forked = await host.forkTable(tableId, { at: repairedAt + 1 });
    expect(await playBotTurns(host, forked.tableId, rng)).toBeGreaterThan(0);
    await host.close();
  });

  it('is repaired only at the version it was read at: a writer that appends first has the repair refused, nothing written', async () => {
    const memory = openLocalStorage({ kind: 'memory' }).store;
    const writer = new TableHost({ store: memory });
    const { tableId, snapshot } = await tableInPlay(writer, 'race', createRng('race'));
    await writer.close();
    await forge(memory, tableId, [playedOutOfTurn(snapshot)]);
    const racing: EventStore = {
      ...memory,
      // Another writer lands its event just before the repair's append.
      append: async (id, events, expectedVersion, status) => {
        await forge(memory, id, [playedOutOfTurn(snapshot)]);
        return memory.append(id, events, expectedVersion, status);
      },
    };
    const host = new TableHost({ store: racing, onQuarantined: () => undefined });
    const version = await memory.version(tableId);
    expect(isVersionConflict(await host.repair(tableId).catch((error: unknown) => error))).toBe(true);
    expect((await memory.read(tableId)).map((event) => event.type)).not.toContain(TABLE_REPAIRED);
    expect(await memory.version(tableId)).toBe(version + 1);
    await host.close();
  });
});
