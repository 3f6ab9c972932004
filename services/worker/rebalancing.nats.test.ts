/**
 * Tables shared among workers (rebalancing.ts) on a real nats-server: a
 * worker that joins is handed its share between moves, with every command
 * served once and the bots and turn clocks going on at the new owner; a
 * worker that stops spreads its tables over the others. The workers run in
 * this process over one in-memory log, each with its own NATS connection.
 */
import { describe, expect, it } from 'vitest';
import { sleep, waitFor } from '../../drivers/polling.js';
import { createRemoteTable, gameOf, nextRemoteMove, playRemotely, remoteHolder, submitRemoteMove } from '../../drivers/remotePlay.js';
import { createRng } from '../../machines/cards/shuffle.js';
import { GAMES } from '../../machines/table/options.js';
import type { RemoteTables } from '../bus/remoteTables.js';
import type { EventStore, StoredEvent } from '../eventstore/eventStore.js';
import { foldLog } from '../host/replay.js';
import { openLocalStorage } from '../storage/storage.js';
import type { TableWorker } from './tableWorker.js';
import { workersOverNatsForTests } from '../../test/kit/workersOverNats.js';
import { createWorkerMetrics, type WorkerMetrics } from './workerMetrics.js';

const TTL_MS = 1500;
const BOT_DELAY_MS = 30;
/** Between a player's commands: the load generator's pace, not a wait for a condition. */
const THINK_MS = 20;

/** An append a worker made, in the order of everything the test saw happen. */
interface Append {
  readonly order: number;
  readonly workerId: string;
  readonly tableId: string;
  readonly types: readonly string[];
}

describe('tables shared among workers (one server, a shared in-memory log)', () => {
  const cluster = workersOverNatsForTests();
  const { workers } = cluster;
  let store: EventStore;
  let tables: RemoteTables;
  /** Everything the test saw happen, numbered in order: appends and the workers' log lines. */
  let order = 0;
  let appends: Append[] = [];
  /** The workers' log lines, for a failure to show. */
  let lines: string[] = [];
  let handOffs: Array<{ order: number; from: string; tableId: string; to: string }> = [];

  /** The shared log as one worker sees it: each append it makes is noted with who made it. */
  function storeOf(workerId: string): EventStore {
    const own: EventStore = Object.create(store);
    own.append = async (tableId, events, expectedVersion, status) => {
      const version = await store.append(tableId, events, expectedVersion, status);
      appends.push({ order: order++, workerId, tableId, types: events.map((event) => event.type) });
      return version;
    };
    return own;
  }

  async function startWorker(workerId: string, rebalancePerSecond: number, metrics?: WorkerMetrics): Promise<TableWorker> {
    return cluster.startWorker({
      metrics,
      store: storeOf(workerId),
      workerId,
      leaseTtlMs: TTL_MS,
      botDelayMs: BOT_DELAY_MS,
      rebalancePerSecond,
      limits: { minTurnSeconds: 1 },
      log: (line) => {
        lines.push(line);
        const handed = /^(\S+) handed (\S+) to (\S+)$/.exec(line);
        if (handed !== null) handOffs.push({ order: order++, from: handed[1], tableId: handed[2], to: handed[3] });
      },
    });
  }

  async function setUp(): Promise<void> {
    store = openLocalStorage({ kind: 'memory' }).store;
    appends = [];
    handOffs = [];
    lines = [];
    ({ tables } = await cluster.openTables(store));
  }

  /** Every event of each log acknowledged once, at its place: nothing lost, nothing played twice, no gap. */
  async function expectLogsAreTheAcks(acknowledged: Map<string, Map<number, StoredEvent>>): Promise<void> {
    for (const [tableId, acks] of acknowledged) {
      const log = await store.read(tableId);
      expect(
        log.map((event) => event.seq),
        tableId,
      ).toEqual(log.map((_, i) => i + 1));
      expect(
        [...acks.keys()].sort((a, b) => a - b),
        `${tableId}: every event acknowledged once`,
      ).toEqual(log.map((event) => event.seq));
      for (const event of log) expect(acks.get(event.seq), `${tableId} event ${event.seq}`).toMatchObject({ type: event.type });
      foldLog(tableId, log).actor.stop();
    }
  }

  it('hands a joining worker its share between moves, with every command in the log once', async () => {
    await setUp();
    const [aMetrics, bMetrics] = [createWorkerMetrics({ processMetrics: false }), createWorkerMetrics({ processMetrics: false })];
    const a = await startWorker('w-a', 2, aMetrics);
    const acknowledged = new Map<string, Map<number, StoredEvent>>();
    const servedBy = new Map<string, string[]>();
    const keep = (tableId: string, events: readonly StoredEvent[]) => {
      const kept = acknowledged.get(tableId) ?? new Map<number, StoredEvent>();
      for (const event of events) {
        expect(kept.has(event.seq), `${tableId} event ${event.seq} acknowledged twice`).toBe(false);
        kept.set(event.seq, event);
      }
      acknowledged.set(tableId, kept);
      const owners = servedBy.get(tableId) ?? [];
      if (owners.at(-1) !== tables.ownerOf(tableId)) owners.push(tables.ownerOf(tableId)!);
      servedBy.set(tableId, owners);
    };
    const ids: string[] = [];
    for (let i = 0; i < 8; i++) {
      // Long games: none may end before its table has moved and played on.
      const request = { game: 'sevenSuitors', options: { end: 'hands:99' } } as const;
      ids.push((await createRemoteTable(tables, request, (accepted) => keep(accepted.tableId, accepted.events))).tableId);
    }
    expect(a.ownedTables().sort()).toEqual([...ids].sort());

    let playing = true;
    const troubles: string[] = [];
    // At a quick human pace.
    const games = ids.map(async (tableId) => {
      const rng = createRng(`rebalance ${tableId}`);
      while (playing) {
        const move = nextRemoteMove((await tables.snapshot(tableId)).snapshot, rng);
        if (move === null) throw new Error(`the game at ${tableId} ended before the test did`);
        await submitRemoteMove(tables, tableId, move).then(
          (accepted) => keep(tableId, accepted.events),
          (error: Error) => troubles.push(`${tableId}: ${error.message}`),
        );
        await sleep(THINK_MS);
      }
    });
    const b = await startWorker('w-b', 2, bMetrics);
    // Two a second at most: the share of 4 comes over in rounds, not at once.
    await waitFor(() => b.ownedTables().length >= 2 && b.ownedTables().length < 4, 'w-b to hold part of its share', { timeoutMs: 10_000 });
    await waitFor(() => a.ownedTables().length === 4 && b.ownedTables().length === 4, 'each worker to hold 4 tables', {
      timeoutMs: 15_000,
    });
    const moved = ids.filter((tableId) => b.ownedTables().includes(tableId));
    // Played on at the new owner: every moved table has commands answered by w-b.
    await waitFor(() => moved.every((tableId) => servedBy.get(tableId)?.at(-1) === 'w-b'), 'commands served by w-b at each moved table');
    playing = false;
    await Promise.all(games);

    expect(troubles).toEqual([]);
    const handOffsCounted = async (metrics: WorkerMetrics, direction: string) =>
      (await metrics.registry.getSingleMetric('suitors_worker_hand_offs_total')!.get()).values.find(
        (value) => value.labels.direction === direction,
      )?.value;
    expect([await handOffsCounted(aMetrics, 'out'), await handOffsCounted(bMetrics, 'in')]).toEqual([4, 4]);
    expect(handOffs.map(({ tableId }) => tableId).sort()).toEqual([...moved].sort());
    for (const tableId of ids) expect(servedBy.get(tableId), tableId).toEqual(moved.includes(tableId) ? ['w-a', 'w-b'] : ['w-a']);
    await expectLogsAreTheAcks(acknowledged);
  }, 60_000);

  /** A table whose bots play and whose clock runs out for Ada, seated but away: every move is the owner's. */
  async function tableOfBotsAndAnAbsentee(index: number): Promise<string> {
    const game = gameOf(index);
    const players = Array.from({ length: GAMES[game].seats }, (_, seat) => (seat === 0 ? null : { name: `Bot ${seat}`, bot: true }));
    const { tableId } = await tables.createTable({ game, players, settings: { turnSeconds: 1 } });
    await tables.submit(tableId, { type: 'seat.joined', seat: 0, player: { name: 'Ada', bot: false }, holder: remoteHolder(tableId, 0) });
    return tableId;
  }

  it("moves a table's bots and turn clock with its lease: the new owner makes its moves, the old one none", async () => {
    await setUp();
    const a = await startWorker('w-a', 50);
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) ids.push(await tableOfBotsAndAnAbsentee(i));
    const timedOutAt = async (tableId: string) => (await store.read(tableId)).filter((event) => event.type === 'turn.timedOut').length;
    await waitFor(async () => (await Promise.all(ids.map(timedOutAt))).every((count) => count >= 1), 'a timeout at every table', {
      everyMs: 50,
    });
    const b = await startWorker('w-b', 50);
    await waitFor(() => a.ownedTables().length === 2 && b.ownedTables().length === 2, 'each worker to hold 2 tables', {
      timeoutMs: 15_000,
    });
    const moved = ids.filter((tableId) => b.ownedTables().includes(tableId));
    // w-a logs a hand-off once its claim is written, which w-b's watch may show it first.
    await waitFor(() => moved.every((tableId) => handOffs.some((handOff) => handOff.tableId === tableId)), "w-a's hand-offs logged");
    const handedAt = new Map(handOffs.map(({ tableId, order: at }) => [tableId, at]));
    const byB = (tableId: string, type: string) =>
      appends.filter((append) => append.tableId === tableId && append.workerId === 'w-b' && append.types.includes(type)).length;
    // Ada's clock runs out again at each moved table, and the bots play on, at w-b.
    await waitFor(
      () => moved.every((tableId) => byB(tableId, 'turn.timedOut') >= 2 && byB(tableId, 'card.played') >= 2),
      'w-b to play on',
      {
        timeoutMs: 20_000,
        everyMs: 50,
      },
    );
    await Promise.all(workers.map((worker) => worker.stop()));

    for (const tableId of moved) {
      const afterHandOff = appends.filter((append) => append.tableId === tableId && append.order > handedAt.get(tableId)!);
      expect(afterHandOff.length).toBeGreaterThan(0);
      expect(new Set(afterHandOff.map((append) => append.workerId)), tableId).toEqual(new Set(['w-b']));
    }
    for (const tableId of ids) {
      const log = await store.read(tableId);
      expect(log.map((event) => event.seq)).toEqual(log.map((_, i) => i + 1));
      // Each timeout follows the event it timed out, once: no two owners recorded the same one.
      const timeouts = log.filter((event) => event.type === 'turn.timedOut').map((event) => event.seq);
      expect(new Set(timeouts).size).toBe(timeouts.length);
      // Every event of the log is one some worker appended, once.
      const appended = appends.filter((append) => append.tableId === tableId).reduce((sum, append) => sum + append.types.length, 0);
      expect(appended, tableId).toBe(log.length);
      foldLog(tableId, log).actor.stop();
    }
  }, 60_000);

  it("spreads a stopped worker's tables over the two others, not onto one", async () => {
    await setUp();
    // No rebalancing while all three run: what moves, moves at the stop.
    const a = await startWorker('w-a', 0);
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) ids.push((await createRemoteTable(tables, { game: gameOf(i) })).tableId);
    for (let i = 0; i < 6; i++) ids.push(await tableOfBotsAndAnAbsentee(i));
    expect(a.ownedTables()).toHaveLength(12);
    const [b, c] = [await startWorker('w-b', 0), await startWorker('w-c', 0)];
    expect([b.ownedTables(), c.ownedTables()]).toEqual([[], []]);
    await a.stop(); // what SIGTERM does (main.ts)
    await waitFor(() => b.ownedTables().length + c.ownedTables().length === 12, 'every table to be held again', { timeoutMs: 10_000 });
    expect([b.ownedTables().length, c.ownedTables().length], lines.join('\n')).toEqual([6, 6]);
    const holderOf = (tableId: string) => (b.ownedTables().includes(tableId) ? 'w-b' : 'w-c');
    // And served there: a command at each person's table is answered by its new owner...
    for (const tableId of ids.slice(0, 6)) {
      let acks = 0;
      await playRemotely(tables, tableId, { stop: () => acks > 0, onAccepted: () => acks++ });
      expect(tables.ownerOf(tableId)).toBe(holderOf(tableId));
    }
    // ...and the bots and clocks play on there.
    const playedBy = (tableId: string) => appends.filter((append) => append.tableId === tableId && append.workerId === holderOf(tableId));
    await waitFor(() => ids.slice(6).every((tableId) => playedBy(tableId).length >= 2), 'the bots to play on at w-b and w-c', {
      timeoutMs: 20_000,
      everyMs: 50,
    });
  }, 60_000);
});
