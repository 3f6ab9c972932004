import { describe, expect, it } from 'vitest';
import type { NatsConnection } from '@nats-io/nats-core';
import { createRng } from '../../machines/cards/shuffle.js';
import { phaseOf } from '../../machines/table/snapshot.js';
import { awaitedActions } from '../../machines/table/refusal.js';
import { randomMove } from '../../machines/bots/randomBot.js';
import { toNewEvent } from '../host/tableLog.js';
import { viewFor } from '../../machines/view.js';
import { waitFor } from '../../drivers/polling.js';
import { createRemoteTable, gameOf, nextRemoteMove, playRemotely, remoteHolder, submitRemoteMove } from '../../drivers/remotePlay.js';
import { openLocalStorage } from '../storage/storage.js';
import { isVersionConflict, type EventStore } from '../eventstore/eventStore.js';
import { isTableRefusal } from '../host/errors.js';
import { foldLog } from '../host/replay.js';
import { retireFinishedGames } from '../host/retirement.js';
import { decodeReply, encode, errorOfReply, isTableUnavailable } from '../bus/protocol.js';
import { RemoteTables } from '../bus/remoteTables.js';
import { tableSubjects } from '../bus/subjects.js';

const subjects = tableSubjects();
import { workersOverNatsForTests } from '../../test/kit/workersOverNats.js';
import { openLeaseBuckets } from './leaseBuckets.js';

const TTL_MS = 1500;

describe('table workers over NATS (one server, a shared in-memory log)', () => {
  const cluster = workersOverNatsForTests();
  const { workers } = cluster;
  let store: EventStore;
  let tables: RemoteTables;
  /** The gateway's connection (RemoteTables'): what sends commands to the workers. */
  let gatewayNc: NatsConnection;

  async function setUp(workerIds = ['w-a', 'w-b']): Promise<void> {
    store = openLocalStorage({ kind: 'memory' }).store;
    // Tables stay where they are served first: what moves them is rebalancing.nats.test.ts's.
    for (const workerId of workerIds) await cluster.startWorker({ store, workerId, leaseTtlMs: TTL_MS, rebalancePerSecond: 0 });
    ({ tables, nc: gatewayNc } = await cluster.openTables(store));
  }

  it('plays bot games of all three games to the end through two workers, each table served by one of them', async () => {
    await setUp();
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) {
      const game = gameOf(i);
      ids.push((await createRemoteTable(tables, { game })).tableId);
    }
    const servedBy = new Map<string, Set<string>>();
    await Promise.all(
      ids.map((tableId) =>
        playRemotely(tables, tableId, {
          onAccepted: () => servedBy.set(tableId, (servedBy.get(tableId) ?? new Set()).add(tables.ownerOf(tableId)!)),
        }),
      ),
    );
    for (const tableId of ids) {
      const log = await store.read(tableId);
      expect(log.map((event) => event.seq)).toEqual(log.map((_, i) => i + 1));
      const { actor } = foldLog(tableId, log);
      expect(phaseOf(actor.getSnapshot())).toBe('gameOver');
      // The gateway's copy is the log's: every seat's view is the view of the log.
      const { version, snapshot } = await tables.snapshot(tableId);
      expect(version).toBe(log.length);
      for (const viewer of [0, 1, 'spectator'] as const) {
        expect((await tables.view(tableId, viewer)).view).toEqual(viewFor(actor.getSnapshot(), viewer));
      }
      expect(phaseOf(snapshot)).toBe('gameOver');
      actor.stop();
      expect(servedBy.get(tableId)?.size).toBe(1);
    }
    const owners = new Set(ids.map((tableId) => tables.ownerOf(tableId)));
    expect([...owners].every((owner) => owner === 'w-a' || owner === 'w-b')).toBe(true);
    expect((await tables.exportRecord(ids[0])).result.finished).toBe(true);
  });

  it('plays on from an event of a finished game on whichever worker takes the request, and refuses an unfinished one', async () => {
    await setUp();
    const { tableId } = await createRemoteTable(tables, { game: 'sevenSuitors', options: { end: 'hands:1' } });
    await playRemotely(tables, tableId);
    const log = await store.read(tableId);
    const at = log.findIndex((event, index) => index > 20 && event.type === 'card.played') + 1;
    const forked = await tables.forkTable(tableId, { at });
    expect(forked.tableId).not.toBe(tableId);
    expect(['w-a', 'w-b']).toContain(tables.ownerOf(forked.tableId));
    const original = await tables.replayAt(tableId, at);
    const { snapshot } = await tables.snapshot(forked.tableId);
    expect(snapshot.context.hand).toEqual(original.snapshot.context.hand);
    expect((await store.read(forked.tableId))[0].data).toMatchObject({ settings: { forkedFrom: { tableId, at } } });
    const playing = await createRemoteTable(tables, { game: 'antiCupid' });
    const refused = await tables.forkTable(playing.tableId, { at: 2 }).catch((error: unknown) => error);
    expect(isTableRefusal(refused) && refused.kind).toBe('notNow');
  });

  it('answers a retired game over the bus: its record kept, its replay and fork refused as retired', async () => {
    await setUp();
    const { tableId } = await createRemoteTable(tables, { game: 'sevenSuitors', options: { end: 'hands:1' } });
    await playRemotely(tables, tableId);
    const record = await tables.exportRecord(tableId);
    const run = await retireFinishedGames(store, { olderThanDays: 1, now: new Date(Date.now() + 2 * 24 * 60 * 60 * 1000) });
    expect(run.retired).toBe(1);

    expect(await tables.exportRecord(tableId)).toEqual(record);
    // (Its view may still come from the copy this gateway followed it by, until the gateway lets it go: docs/operations.md.)
    for (const [index, attempt] of [() => tables.replayAt(tableId, 3), () => tables.forkTable(tableId, { at: 3 })].entries()) {
      const refused = await attempt().catch((error: unknown) => error);
      expect(isTableRefusal(refused) && refused.kind, `attempt ${index}`).toBe('retired');
    }
  });

  it('keeps the kinds of refusals, and the conflict, across the bus', async () => {
    await setUp();
    const { tableId } = await createRemoteTable(tables, { game: 'sevenSuitors' });
    const kindOf = async (promise: Promise<unknown>) =>
      promise.then(
        () => 'accepted',
        (error: unknown) => (isTableRefusal(error) ? `${error.kind}: ${error.message}` : `other: ${(error as Error).message}`),
      );
    const holder = remoteHolder(tableId, 0);
    expect(await kindOf(tables.submit('t-no-such-table', { type: 'card.played', seat: 0, card: '1-1' }, { holder }))).toBe(
      'unknownTable: there is no table "t-no-such-table"',
    );
    expect(await kindOf(tables.submit('not a table id', { type: 'card.played', seat: 0, card: '1-1' }, { holder }))).toMatch(
      /^unknownTable/,
    );
    expect(await kindOf(tables.submit(tableId, { type: 'card.played', seat: 0, card: '9-9' }, { holder }))).toBe(
      'malformed: "9-9" is not a card: suits are 1 to 7',
    );
    expect(await kindOf(tables.submit(tableId, { type: 'card.played', seat: 0, card: '1-1' }, { holder }))).toMatch(/^notNow: /);
    expect(await kindOf(tables.createTable({ game: 'chess' }))).toMatch(/^malformed: game must be/);
    expect(await kindOf(tables.importRecord({ game: 'sevenSuitors' }))).toMatch(/^invalidRecord: the record does not verify/);
    // A lease for a table that does not exist is given back at once.
    const { claims: kv } = await openLeaseBuckets(await cluster.connection('worker'), { ttlMs: TTL_MS });
    expect((await kv.get('t-no-such-table'))?.operation ?? 'none').not.toBe('PUT');
    expect(await store.version(tableId)).toBe(6);

    // A writer outside the owner moves the log on: one seat's pass, appended straight to the log.
    const { snapshot } = await tables.snapshot(tableId);
    const rng = createRng('conflict');
    const [first, second] = awaitedActions(snapshot).map(({ seat, action }) => randomMove(snapshot, seat, action, rng));
    await store.append(tableId, [toNewEvent(first, new Date().toISOString())], 6);
    // A sender that has not seen it meets the owner's stale copy: the append is refused as a conflict.
    const nc = gatewayNc;
    const blind = decodeReply(
      await nc.request(
        subjects.commandFor(tableId, tables.ownerOf(tableId)!),
        encode({ op: 'submit', tableId, args: [second, remoteHolder(tableId, second.seat)] }),
      ),
    );
    expect(blind).toMatchObject({ ok: false, kind: 'VersionConflict', tableId, expectedVersion: 6, actualVersion: 7 });
    expect(isVersionConflict(errorOfReply(blind as Exclude<typeof blind, { ok: true }>))).toBe(true);
    // The gateway has seen it (its copy follows the log), so the owner rebuilds and takes the same pass.
    expect(await submitRemoteMove(tables, tableId, second)).toMatchObject({ tableId, version: 8 });
  });

  it('refuses, whoever sends it, a seat command without its holder and a new table the gateway could not ask for', async () => {
    await setUp();
    const { tableId, version } = await createRemoteTable(tables, { game: 'sevenSuitors' });
    const { snapshot } = await tables.snapshot(tableId);
    const [{ seat, action }] = awaitedActions(snapshot);
    const move = randomMove(snapshot, seat, action, createRng('no holder'));
    // Sent straight to the worker, as a process with a gateway's credentials could: no holder, or the bots'.
    for (const args of [[move], [move, 'bot'], [move, 'not a hash']]) {
      const reply = decodeReply(await gatewayNc.request(subjects.command(tableId), encode({ op: 'submit', tableId, args } as never)));
      expect(reply).toMatchObject({ ok: false, kind: 'notHolder' });
      expect((reply as { message: string }).message).toMatch(/must carry the hash of the seat's token/);
    }
    const leave = { type: 'seat.left', seat };
    expect(await tables.submit(tableId, leave).catch((error: unknown) => (error as { kind?: string }).kind)).toBe('notHolder');
    const faceless = { type: 'seat.joined', seat: 0, player: { name: 'Nobody', bot: false } };
    expect(await tables.submit(tableId, faceless).catch((error: unknown) => (error as { kind?: string }).kind)).toBe('notHolder');
    expect(await store.version(tableId)).toBe(version);
    const refusedTable = (request: object) =>
      tables.createTable({ game: 'sevenSuitors', ...request }).then(
        () => 'accepted',
        (error: unknown) => `${(error as { kind?: string }).kind}: ${(error as Error).message}`,
      );
    expect(await refusedTable({ seed: 'chosen' })).toMatch(/^malformed: a new table may not fix its seed/);
    expect(await refusedTable({ cardsPerSeat: 2 })).toMatch(/^malformed: a new table may not choose/);
    expect(await refusedTable({ players: [{ name: 'Ada', bot: false }] })).toMatch(/^malformed: seat 0 is given to a person/);
    expect(await refusedTable({ settings: { turnSeconds: 1 } })).toMatch(/^malformed: settings.turnSeconds must be at least 5/);
    expect(await refusedTable({ settings: { forkedFrom: { tableId, at: 2 } } })).toMatch(/^malformed: a new table's settings are/);
    expect(await refusedTable({ options: { padding: 'x'.repeat(20_000) } })).toMatch(
      /^malformed: a new table's request is at most 16384 bytes/,
    );
    expect(await refusedTable({ players: [{ name: 'Bot', bot: true }], settings: { turnSeconds: 30 } })).toBe('accepted');
  });

  it('forwards a command that reaches a worker not owning the table to the owner', async () => {
    await setUp();
    const { tableId } = await createRemoteTable(tables, { game: 'antiCupid' });
    const owner = tables.ownerOf(tableId)!;
    const other = owner === 'w-a' ? 'w-b' : 'w-a';
    const nc = gatewayNc;
    const { snapshot, version: snapshotVersion } = await tables.snapshot(tableId);
    const move = nextRemoteMove(snapshot, createRng('forward'))!;
    const reply = decodeReply(
      await nc.request(
        subjects.commandFor(tableId, other),
        encode({ op: 'submit', tableId, args: [move, remoteHolder(tableId, move.seat)] }),
      ),
    );
    expect(reply).toMatchObject({ ok: true, worker: owner, result: { tableId, version: snapshotVersion + 1 } });
    // Undirected, through the queue group: whoever gets it, the owner answers.
    for (let i = 0; i < 6; i++) {
      const answer = decodeReply(
        await nc.request(
          subjects.command(tableId),
          encode({ op: 'submit', tableId, args: [{ type: 'card.played', seat: 9, card: '1-1' }, remoteHolder(tableId, 9)] }),
        ),
      );
      expect(answer).toMatchObject({ ok: false, worker: owner, kind: 'notHolder' });
    }
    expect(workers.find((worker) => worker.workerId === other)!.ownedTables()).not.toContain(tableId);
  });

  it('tells the gateway of every event, once and in log order, after its copy of the table took it', async () => {
    await setUp();
    const { tableId } = await createRemoteTable(tables, { game: 'traitorOfLove' });
    const heard: number[] = [];
    const lagging: number[] = [];
    tables.subscribe((id, event) => {
      if (id !== tableId) return;
      heard.push(event.seq);
      void tables.snapshot(tableId).then(({ version }) => version < event.seq && lagging.push(event.seq));
    });
    await playRemotely(tables, tableId, { stop: () => heard.length >= 40 });
    const log = await store.read(tableId);
    // The listener came after the table was made: it hears every event from then on.
    expect(heard).toEqual(log.map((event) => event.seq).slice(heard[0] - 1));
    expect(lagging).toEqual([]);
  });

  it('stops serving a table whose lease it lost; the new owner answers for it', async () => {
    await setUp();
    const { tableId } = await createRemoteTable(tables, { game: 'sevenSuitors' });
    const owner = tables.ownerOf(tableId)!;
    const other = owner === 'w-a' ? 'w-b' : 'w-a';
    const { claims: kv } = await openLeaseBuckets(await cluster.connection('worker'), { ttlMs: TTL_MS });
    // The claim vanishes under its owner (an operator removed it), and the other worker takes the table.
    await kv.delete(tableId);
    const nc = gatewayNc;
    const bogus = encode({ op: 'submit', tableId, args: [{ type: 'card.played', seat: 9, card: '1-1' }, remoteHolder(tableId, 9)] });
    expect(decodeReply(await nc.request(subjects.commandFor(tableId, other), bogus))).toMatchObject({ worker: other });
    // The old owner sees its claim change and stops serving the table: it forwards to the new owner.
    const oldOwner = workers.find((worker) => worker.workerId === owner)!;
    await waitFor(() => !oldOwner.ownedTables().includes(tableId), 'the old owner to stop serving the table');
    expect(oldOwner.ownedTables()).not.toContain(tableId);
    expect(decodeReply(await nc.request(subjects.commandFor(tableId, owner), bogus))).toMatchObject({ worker: other });
    await playRemotely(tables, tableId);
    expect(tables.ownerOf(tableId)).toBe(other);
  });

  it("hands a stopped worker's tables to the other at once, and says so when no worker runs", async () => {
    await setUp();
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) ids.push((await createRemoteTable(tables, { game: 'sevenSuitors' })).tableId);
    const [first, second] = workers;
    await first.stop();
    const started = Date.now();
    await Promise.all(ids.map((tableId) => playRemotely(tables, tableId, { stop: () => tables.ownerOf(tableId) === second.workerId })));
    expect(Date.now() - started).toBeLessThan(TTL_MS); // released, not expired
    await second.stop();
    const lonely = new RemoteTables({ nc: gatewayNc, store, retryForMs: 300 });
    const error = await lonely
      .submit(ids[0], { type: 'card.played', seat: 0, card: '1-1' }, { holder: remoteHolder(ids[0], 0) })
      .catch((caught: unknown) => caught);
    expect(isTableUnavailable(error)).toBe(true);
    expect((error as Error).message).toMatch(/no worker could take the submit for 300 ms: no worker is listening on tables\..*\.cmd/);
    await lonely.close();
  });
});
