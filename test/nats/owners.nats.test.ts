/**
 * Tables that drive themselves, on a real 3-node JetStream cluster: the
 * worker that owns a table plays its bots and runs its turn clock, so a
 * table needs no gateway to go on, and a table whose owner dies is taken up
 * by another worker without anyone sending it a command. The gateway here
 * is RemoteTables in the test process; the workers are child processes
 * (the cluster: ./cluster.ts).
 */
import { describe, expect, it } from 'vitest';
import { awaitedActions } from '../../machines/table/refusal.js';
import { openKvSeatTokens } from '../../services/tokens/kvSeatTokens.js';
import { createDistributedGateway } from '../../services/gateway/distributed.js';
import { hashToken, newToken } from '../../services/tokens/seatTokens.js';
import pino from 'pino';
import type { StoredEvent } from '../../services/eventstore/eventStore.js';
import { openJetStreamEventStore } from '../../services/eventstore/jetstream/index.js';
import { foldLog } from '../../services/host/replay.js';
import type { WorkerProcess } from '../../drivers/workerProcess.js';
import { waitFor } from '../../drivers/polling.js';
import { createRng } from '../../machines/cards/shuffle.js';
import { nextRemoteMove, remoteHolder, submitRemoteMove } from '../../drivers/remotePlay.js';
import { GAMES, type GameName } from '../../machines/table/options.js';
import type { CreateTableRequest, TableService } from '../../services/host/tableService.js';
import { EVENT_SCHEMA } from '../../services/host/upcasters.js';
import { natsClusterForTests } from './cluster.js';

const LEASE_TTL_MS = 2000;
const BOT_DELAY_MS = 150;

describe('tables that drive themselves, on a 3-node NATS cluster', () => {
  const cluster = natsClusterForTests({ leaseTtlMs: LEASE_TTL_MS, botDelayMs: BOT_DELAY_MS, workerPrefix: 'w-own', workers: 2 });
  const { workers } = cluster;
  const startWorker = () => cluster.startWorker();
  const openGateway = () => cluster.openGateway();

  /** Seat 0 left for a person, the rest bots the owner plays. */
  function personAndBots(seats: number) {
    return Array.from({ length: seats }, (_, seat) => (seat === 0 ? null : { name: `Bot ${seat}`, bot: true }));
  }

  /** A table with bots in every seat but 0, which a person takes with a token as a gateway seats them (the test plays it). */
  async function tableWithAda(tables: TableService, request: Omit<CreateTableRequest, 'players'>): Promise<string> {
    const { tableId } = await tables.createTable({ ...request, players: personAndBots(GAMES[request.game as GameName].seats) });
    const ada = { type: 'seat.joined', seat: 0, player: { name: 'Ada', bot: false }, holder: remoteHolder(tableId, 0) };
    await tables.submit(tableId, ada);
    return tableId;
  }

  function awaited(log: readonly StoredEvent[], tableId: string): number[] {
    const { actor } = foldLog(tableId, log);
    const seats = awaitedActions(actor.getSnapshot()).map(({ seat }) => seat);
    actor.stop();
    return seats;
  }

  /** Every timeout follows the event it timed out, once: no two owners recorded the same one. */
  function expectEachTimeoutOnce(log: readonly StoredEvent[]): StoredEvent[] {
    const timeouts = log.filter((event) => event.type === 'turn.timedOut');
    const after = timeouts.map((event) => `${event.seq - 1}:${(event.data as { seat: number }).seat}`);
    expect(new Set(after).size).toBe(after.length);
    return timeouts;
  }

  function failuresIn(worker: WorkerProcess): string[] {
    return worker.output.filter((line) => line.includes('could not move by itself') || line.includes('could not take up'));
  }

  it('plays the bots and runs the turn clock with no gateway running at all', async () => {
    const gateway = await openGateway();
    const tableId = await tableWithAda(gateway.tables, { game: 'sevenSuitors', options: { end: 'hands:1' }, settings: { turnSeconds: 2 } });
    // The bots pass by themselves; then only the person is awaited.
    await waitFor(
      async () => {
        const log = await cluster.store.read(tableId);
        return awaited(log, tableId).join() === '0' && log.some((event) => event.type === 'cards.passed');
      },
      'the bots to pass',
      { everyMs: 50 },
    );
    const { snapshot } = await gateway.tables.snapshot(tableId);
    const passed = await submitRemoteMove(gateway.tables, tableId, nextRemoteMove(snapshot, createRng('owners'))!);
    // The only gateway dies right after the person's move was acknowledged.
    await gateway.close();

    const log = await waitFor(
      async () => {
        const events = await cluster.store.read(tableId);
        return (
          events.some((event) => event.type === 'turn.timedOut') &&
          events.filter((event) => event.seq > passed.version && event.type === 'card.played').length >= 4 &&
          events
        );
      },
      'bot moves and a timeout with no gateway',
      { timeoutMs: 30_000, everyMs: 50 },
    );
    const timeouts = expectEachTimeoutOnce(log);
    expect(timeouts[0].data).toEqual({ seat: 0, schema: EVENT_SCHEMA });
    const before = log[timeouts[0].seq - 2];
    expect(Date.parse(timeouts[0].at) - Date.parse(before.at)).toBeGreaterThanOrEqual(2000);
    expect(workers.flatMap(failuresIn)).toEqual([]);
  }, 60_000);

  it("times a seat out exactly once when the table's owner is killed before the deadline, and the new owner plays its bots on", async () => {
    const gateway = await openGateway();
    const tableId = await tableWithAda(gateway.tables, { game: 'traitorOfLove', settings: { turnSeconds: 4 } });
    const waiting = await waitFor(
      async () => {
        const log = await cluster.store.read(tableId);
        return awaited(log, tableId).join() === '0' && log.filter((event) => event.type === 'cards.passed').length === 5 && log;
      },
      'the bots to pass',
      { everyMs: 50 },
    );
    const lastBefore = waiting.at(-1)!;
    const owner = workers.find((worker) => worker.workerId === gateway.tables.ownerOf(tableId))!;
    expect(owner).toBeDefined();
    await gateway.close();
    await owner.kill();
    await startWorker(); // back to two

    const log = await waitFor(
      async () => {
        const events = await cluster.store.read(tableId);
        return events.length > lastBefore.seq + 3 && events;
      },
      "the new owner's timeout and bot moves",
      { timeoutMs: 30_000, everyMs: 50 },
    );
    const timeouts = expectEachTimeoutOnce(log);
    expect(timeouts.filter((event) => event.seq === lastBefore.seq + 1)).toHaveLength(1);
    // Due 4 s after the last event: never early, though the new owner took the table up before then or after.
    expect(Date.parse(log[lastBefore.seq].at) - Date.parse(lastBefore.at)).toBeGreaterThanOrEqual(4000);
    expect(log.slice(lastBefore.seq + 2).some((event) => event.type === 'card.played')).toBe(true);
    expect(workers.filter((worker) => worker !== owner).flatMap(failuresIn)).toEqual([]);
  }, 60_000);

  it('plays bot tables to their end through two gateways and a restarted one, with no bot move refused or made twice', async () => {
    const first = await openGateway();
    let second = await openGateway();
    const ids: string[] = [];
    const bots = Array.from({ length: 4 }, (_, seat) => ({ name: `Bot ${seat}`, bot: true }));
    for (let i = 0; i < 6; i++) {
      const gateway = i % 2 === 0 ? first : second;
      ids.push((await gateway.tables.createTable({ game: 'sevenSuitors', options: { end: 'hands:1' }, players: bots })).tableId);
    }
    // The restart comes with every game under way.
    await waitFor(
      async () => {
        const logs = await Promise.all(ids.map((tableId) => cluster.store.read(tableId)));
        return logs.every((log) => log.some((event) => event.type === 'card.played'));
      },
      'a card played at every table',
      { timeoutMs: 30_000, everyMs: 50 },
    );
    await second.close();
    second = await openGateway();
    for (const tableId of ids) await second.tables.snapshot(tableId);
    await waitFor(
      async () => {
        const logs = await Promise.all(ids.map((tableId) => cluster.store.read(tableId)));
        return logs.every((log) => log.at(-1)?.type === 'hand.revealed' && awaited(log, 'finished').length === 0);
      },
      'every bot game to end',
      { timeoutMs: 45_000, everyMs: 100 },
    );
    for (const tableId of ids) {
      const log = await cluster.store.read(tableId);
      expect(log.map((event) => event.seq)).toEqual(log.map((_, i) => i + 1));
    }
    expect(workers.flatMap(failuresIn)).toEqual([]);
    await Promise.all([first.close(), second.close()]);
  }, 60_000);

  it('leaves no seat without a way in when a gateway dies between the seat event and its answer', async () => {
    const dying = await openGateway();
    const { tableId } = await dying.tables.createTable({ game: 'sevenSuitors', players: personAndBots(4) });
    // The client made its token and sent the join; the gateway logged the seat, then died before indexing or answering.
    const token = newToken();
    await dying.tables.submit(tableId, { type: 'seat.joined', seat: 0, player: { name: 'Ada', bot: false }, holder: hashToken(token) });
    await dying.close();

    const connection = await cluster.nats.connect('gateway');
    const gatewayStore = await openJetStreamEventStore({ connection, createMissing: false });
    const tokens = await openKvSeatTokens(connection, { replicas: 3 });
    const { app, tables } = createDistributedGateway({
      nc: connection,
      store: gatewayStore,
      tokens,
      logger: pino({ level: 'silent' }),
      webRoot: '/nonexistent',
    });
    try {
      // Its token already works at any gateway (the log names it)…
      const view = await app.inject({ method: 'GET', url: `/api/tables/${tableId}/view`, headers: { authorization: `Bearer ${token}` } });
      expect(view.statusCode, view.body).toBe(200);
      expect(view.json().view.viewer).toBe(0);
      // …and the join sent again answers with the seat, not "taken".
      const again = await app.inject({ method: 'POST', url: `/api/tables/${tableId}/seats/0`, payload: { name: 'Ada', token } });
      expect(again.statusCode, again.body).toBe(201);
      expect(again.json()).toMatchObject({ tableId, seat: 0, token });
      expect(
        (await cluster.store.read(tableId)).filter((event) => event.type === 'seat.joined' && (event.data as { seat: number }).seat === 0),
      ).toHaveLength(1);
    } finally {
      await app.close();
      await tables.close();
      await tokens.close();
      await gatewayStore.close();
      await connection.close();
    }
  }, 30_000);
});
