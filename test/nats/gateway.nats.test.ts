/**
 * The gateway of the distributed service end to end on one NATS server:
 * HTTP in, commands to two table workers over NATS, the log in JetStream,
 * seat tokens in KV, views built in the gateway; a table's chat and
 * rematch shared by two gateways (their notices over NATS, the rematch and
 * the chat counts in the gateways' KV bucket).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NatsConnection } from '@nats-io/nats-core';
import pino from 'pino';
import { verifyRecord } from '../../machines/record/verify.js';
import { openKvSeatTokens } from '../../services/tokens/kvSeatTokens.js';
import type { EventStore } from '../../services/eventstore/eventStore.js';
import { openJetStreamEventStore } from '../../services/eventstore/jetstream/index.js';
import { createDistributedGateway } from '../../services/gateway/distributed.js';
import type { Gateway } from '../../services/gateway/gateway.js';
import { startLocalNats, type LocalNats } from '../../drivers/localNats.js';
import type { NatsRole } from '../../services/nats/security/roles.js';
import { startTableWorker, type TableWorker } from '../../services/worker/tableWorker.js';
import type { RemoteTables } from '../../services/bus/remoteTables.js';
import { SocketClient } from '../../drivers/socketClient.js';
import { waitFor } from '../../drivers/polling.js';
import type { Message } from '../../drivers/httpClient.js';
import { deploymentNames } from '../../services/bus/deploymentNames.js';
import type { ProjectionCheckpoints } from '../../services/projections/checkpoints.js';
import { openNatsCheckpoints } from '../../services/projections/natsCheckpoints.js';
import { NOTICES_KEPT_MS } from '../../services/gateway/notices/noticeBoard.js';
import { openNatsNoticeBoard } from '../../services/gateway/notices/natsNotices.js';
import { newToken } from '../../services/tokens/seatTokens.js';
import { playSeat, type SeatPlay } from '../seatPlayer.js';
import { bearer, httpBaseOf, listen } from '../../drivers/embeddedService.js';

const ADMIN = { authorization: 'Bearer admin-for-distributed-tests' };

describe('the distributed gateway over table workers', () => {
  let nats: LocalNats;
  const connections: NatsConnection[] = [];
  const stores: EventStore[] = [];
  const workers: TableWorker[] = [];
  let app: Gateway;
  let tables: RemoteTables;
  /** A second gateway over the same workers and log, as a deployment with several gateways has. */
  let otherApp: Gateway;
  let otherTables: RemoteTables;
  const sockets: SocketClient[] = [];
  let url: Promise<string> | undefined;
  let otherUrl: Promise<string> | undefined;
  const base = () => (url ??= listen(app));
  const otherBase = () => (otherUrl ??= listen(otherApp));

  async function startGateway(
    options: { projectionCheckpoints?: ProjectionCheckpoints } = {},
  ): Promise<{ app: Gateway; tables: RemoteTables }> {
    const { nc, store } = await connectWithStore('gateway');
    const tokens = await openKvSeatTokens(nc);
    // As `npm run start:gateway` opens it: the notice board the gateways share.
    const noticeBoard = await openNatsNoticeBoard(nc, { bucket: deploymentNames().buckets.tableNotices, keepMs: NOTICES_KEPT_MS });
    const started = createDistributedGateway({
      ...options,
      nc,
      store,
      tokens,
      noticeBoard,
      logger: pino({ level: 'silent' }),
      adminToken: 'admin-for-distributed-tests',
      webRoot: '/nonexistent',
    });
    await started.app.ready();
    return started;
  }

  async function connectWithStore(role: NatsRole): Promise<{ nc: NatsConnection; store: EventStore }> {
    const nc = await nats.connect(role);
    const store = await openJetStreamEventStore({ connection: nc, createMissing: role !== 'gateway' });
    connections.push(nc);
    stores.push(store);
    return { nc, store };
  }

  beforeAll(async () => {
    nats = await startLocalNats(1);
    for (const workerId of ['w-one', 'w-two'])
      workers.push(await startTableWorker({ ...(await connectWithStore('worker')), workerId, botDelayMs: 0 }));
    ({ app, tables } = await startGateway());
    ({ app: otherApp, tables: otherTables } = await startGateway());
  });

  afterAll(async () => {
    await Promise.allSettled(sockets.map((socket) => socket.close()));
    for (const gateway of [app, otherApp]) await gateway?.close();
    for (const remote of [tables, otherTables]) await remote?.close();
    await Promise.allSettled(workers.map((worker) => worker.stop()));
    await Promise.allSettled(stores.map((store) => store.close()));
    await Promise.allSettled(connections.map((nc) => nc.close()));
    await nats?.stop();
  });

  it("plays a bots' game to the end through the API, and its record verifies", async () => {
    const created = await app.inject({
      method: 'POST',
      url: '/api/tables',
      payload: { game: 'sevenSuitors', options: { end: 'hands:2' }, bots: [0, 1, 2, 3] },
    });
    expect(created.statusCode, created.body).toBe(201);
    const { tableId } = created.json();
    const entry = await waitFor(
      async () =>
        (await app.inject({ method: 'GET', url: '/api/tables' }))
          .json()
          .tables.find((table: { tableId: string; finished: boolean }) => table.tableId === tableId && table.finished),
      'the game to finish',
      { timeoutMs: 30_000, everyMs: 100 },
    );
    expect(entry.finished).toBe(true);
    const record = await app.inject({ method: 'GET', url: `/api/tables/${tableId}/record`, headers: ADMIN });
    expect(record.statusCode, record.body).toBe(200);
    expect(verifyRecord(record.json()).problems).toEqual([]);
    expect(['w-one', 'w-two']).toContain(tables.ownerOf(tableId));
  });

  it("shows the operator's page which worker holds each table in play, read from the owners bucket", async () => {
    const created = await app.inject({ method: 'POST', url: '/api/tables', payload: { game: 'antiCupid', bots: [1, 2, 3, 4] } });
    const { tableId } = created.json();
    const report = await waitFor(
      async () => {
        const answer = (await app.inject({ method: 'GET', url: '/api/admin/fleet', headers: ADMIN })).json();
        return answer.tables?.listed?.some((table: { tableId: string }) => table.tableId === tableId) ? answer : undefined;
      },
      'the table on the operator page',
      { timeoutMs: 30_000, everyMs: 200 },
    );
    expect(report.owner).toBe('workers');
    const listed = report.tables.listed.find((table: { tableId: string }) => table.tableId === tableId);
    expect(listed).toMatchObject({ owner: tables.ownerOf(tableId), waitingOn: 'people' });
    expect(['w-one', 'w-two']).toContain(listed.owner);
    const held = report.workers.find((worker: { worker: string }) => worker.worker === listed.owner);
    expect(held.listedTables).toBeGreaterThanOrEqual(1);
    // Each worker says of itself what it holds (services/worker/workerStatus.nats.test.ts shows more).
    expect(report.workers.map((worker: { worker: string }) => worker.worker)).toEqual(['w-one', 'w-two']);
    expect(report.missing).toEqual([]);
  });

  it("keeps the fleet overlay's checkpoint in the projections bucket, as a gateway may, and a gateway starts from it", async () => {
    await app.inject({ method: 'POST', url: '/api/tables', payload: { game: 'sevenSuitors', bots: [1, 2, 3] } });
    const bucket = deploymentNames().buckets.projections;
    const checkpoints = await openNatsCheckpoints((await connectWithStore('gateway')).nc, { bucket });
    const first = await startGateway({ projectionCheckpoints: checkpoints });
    const fleet = (await first.app.inject({ method: 'GET', url: '/api/fleet' })).json();
    expect(fleet.lag).toBe(0);
    // A gateway stopping saves the overlay with its positions.
    await first.app.close();
    await first.tables.close();
    const saved = await checkpoints.load('fleet-2');
    const tableIds = (await tables.listTables()).map((table) => table.tableId);
    expect(Object.keys(saved?.positions ?? {}).sort()).toEqual(tableIds.sort());
    const next = await startGateway({ projectionCheckpoints: checkpoints });
    const again = (await next.app.inject({ method: 'GET', url: '/api/fleet' })).json();
    expect(again.games.map((game: { game: string; tables: number }) => [game.game, game.tables])).toEqual(
      fleet.games.map((game: { game: string; tables: number }) => [game.game, game.tables]),
    );
    await next.app.close();
    await next.tables.close();
  });

  it('seats a person with a token every gateway knows, and shows the seat its own cards only', async () => {
    const created = await app.inject({ method: 'POST', url: '/api/tables', payload: { game: 'sevenSuitors', bots: [1, 2, 3] } });
    const { tableId } = created.json();
    const joined = await app.inject({ method: 'POST', url: `/api/tables/${tableId}/seats/0`, payload: { name: 'Tester' } });
    expect(joined.statusCode, joined.body).toBe(201);
    const { token } = joined.json();
    const elsewhere = await openKvSeatTokens((await connectWithStore('gateway')).nc);
    expect(await elsewhere.resolve(token)).toEqual({ tableId, seat: 0 });
    const mine = (
      await app.inject({ method: 'GET', url: `/api/tables/${tableId}/view`, headers: { authorization: `Bearer ${token}` } })
    ).json();
    const spectator = (await app.inject({ method: 'GET', url: `/api/tables/${tableId}/view` })).json();
    expect(mine.view.viewer).toBe(0);
    expect(mine.view.hand.cards.length).toBeGreaterThan(0);
    expect(spectator.view.hand.cards).toBeNull();
    const refused = await app.inject({
      method: 'POST',
      url: `/api/tables/${tableId}/commands`,
      headers: { authorization: `Bearer ${token}` },
      payload: { type: 'card.played', card: '9-9' },
    });
    expect(refused.statusCode).toBeGreaterThanOrEqual(400);
    expect(refused.statusCode).toBeLessThan(500);
  });

  it("takes a seat's contribution to the next deal through a worker, into the log, and refuses a late one there", async () => {
    const created = await app.inject({ method: 'POST', url: '/api/tables', payload: { game: 'sevenSuitors', bots: [1, 2, 3] } });
    const { tableId } = created.json();
    const { token } = (await app.inject({ method: 'POST', url: `/api/tables/${tableId}/seats/0`, payload: { name: 'Tester' } })).json();
    const headers = { authorization: `Bearer ${token}` };
    const { view } = (await app.inject({ method: 'GET', url: `/api/tables/${tableId}/view`, headers })).json();
    const contribution = 'feed'.padEnd(64, '7');
    const send = (hand: number) =>
      app.inject({
        method: 'POST',
        url: `/api/tables/${tableId}/commands`,
        headers,
        payload: { type: 'deal.contributed', hand, contribution },
      });
    const accepted = await send(view.nextDeal.index);
    expect(accepted.statusCode, accepted.body).toBe(200);
    const late = await send(view.nextDeal.index - 1);
    expect(late.statusCode).toBe(409);
    expect(late.json().message).toMatch(/^too late/);
    const log = (await app.inject({ method: 'GET', url: `/api/tables/${tableId}/log`, headers: ADMIN })).json();
    const contributed = (log.events ?? log).filter((event: { type: string }) => event.type === 'deal.contributed');
    expect(contributed).toHaveLength(1);
    expect(contributed[0].data).toMatchObject({ hand: view.nextDeal.index, seat: 0, contribution });
  });

  it("sends a gateway's sockets the moves made through another gateway, in order, to the end of the game", async () => {
    const { tableId } = (
      await app.inject({
        method: 'POST',
        url: '/api/tables',
        payload: { game: 'sevenSuitors', options: { end: 'hands:1' }, bots: [1, 2, 3] },
      })
    ).json();
    const { token } = (await app.inject({ method: 'POST', url: `/api/tables/${tableId}/seats/0`, payload: { name: 'Elsewhere' } })).json();
    // Seat 0 and a spectator watch through the other gateway; the bots move through the first one.
    const base = await otherBase();
    const seat = await SocketClient.open(`${base}/api/tables/${tableId}/socket?token=${encodeURIComponent(token)}`);
    const spectator = await SocketClient.open(`${base}/api/tables/${tableId}/socket`);
    sockets.push(seat, spectator);
    for (let since = 0; ; ) {
      const { view } = await seat.next(
        (message: Message) =>
          message.type === 'view' &&
          message.version >= since &&
          (message.view.outcome?.finished === true || message.view.awaiting.some((a: Message) => a.seat === 0)),
        'seat 0 awaited, or the end',
      );
      if (view.outcome?.finished === true) break;
      // Seat 0 moves through the first gateway too, so every change reaches the sockets from elsewhere.
      const command =
        view.phase === 'passing'
          ? { type: 'cards.passed', passes: view.hand.passTo.map((to: number, i: number) => ({ to, card: view.hand.cards[i] })) }
          : { type: 'card.played', card: view.hand.legalCards[0] };
      const accepted = await app.inject({
        method: 'POST',
        url: `/api/tables/${tableId}/commands`,
        payload: command,
        headers: { authorization: `Bearer ${token}` },
      });
      expect(accepted.statusCode, accepted.body).toBe(200);
      since = accepted.json().version;
      await seat.next((message: Message) => message.type === 'view' && message.version >= since, 'the view of its own move');
    }
    const finalVersion = (await app.inject({ method: 'GET', url: `/api/tables/${tableId}/log`, headers: ADMIN })).json().events.length;
    await spectator.next((message: Message) => message.type === 'view' && message.version === finalVersion, 'the spectator to see the end');
    for (const socket of [seat, spectator]) {
      const versions = socket.views.map((message: Message) => message.version);
      expect(versions).toEqual([...versions].sort((a, b) => a - b));
      expect(new Set(versions).size).toBe(versions.length);
    }
  });

  it("closes a seat's sockets on every gateway when the seat is left through one of them, before the next player's view", async () => {
    const { tableId } = (
      await app.inject({ method: 'POST', url: '/api/tables', payload: { game: 'sevenSuitors', bots: [1, 2, 3] } })
    ).json();
    const { token } = (await app.inject({ method: 'POST', url: `/api/tables/${tableId}/seats/0`, payload: { name: 'Leaving' } })).json();
    const base = await otherBase();
    const elsewhere = await SocketClient.open(`${base}/api/tables/${tableId}/socket?token=${encodeURIComponent(token)}`);
    sockets.push(elsewhere);
    const before = await elsewhere.next((message: Message) => message.type === 'view', 'the first view');
    const left = await app.inject({
      method: 'DELETE',
      url: `/api/tables/${tableId}/seats/0`,
      headers: { authorization: `Bearer ${token}` },
    });
    expect(left.statusCode, left.body).toBe(200);
    const joined = await app.inject({ method: 'POST', url: `/api/tables/${tableId}/seats/0`, payload: { name: 'Next' } });
    expect(joined.statusCode, joined.body).toBe(201);
    await waitFor(() => elsewhere.closed, 'the old socket to be closed');
    expect(elsewhere.closed!.code).toBe(4001);
    // Nothing the next player sees of seat 0 reached the old socket.
    const nextCards: string[] = (
      await app.inject({ method: 'GET', url: `/api/tables/${tableId}/view`, headers: { authorization: `Bearer ${joined.json().token}` } })
    ).json().view.hand.cards;
    for (const message of elsewhere.views) expect(message.view.seats[0].occupant?.name).toBe('Leaving');
    expect(before.view.hand.cards.length).toBeGreaterThan(0);
    expect(nextCards.length).toBeGreaterThan(0);
  });

  const socketTo = async (at: string, tableId: string, token?: string) => {
    const socket = await SocketClient.open(`${at}/api/tables/${tableId}/socket${token === undefined ? '' : `?token=${token}`}`);
    sockets.push(socket);
    await socket.next((message: Message) => message.type === 'view', 'the first view');
    return socket;
  };

  it('tells Bob on B what Alice says on A, limits her chat wherever she sends it, and rematches them at one table', async () => {
    const a = { app, tables, base: await base() };
    const b = { app: otherApp, base: await otherBase() };
    const { tableId } = (
      await a.app.inject({
        method: 'POST',
        url: '/api/tables',
        payload: { game: 'sevenSuitors', options: { end: 'hands:1' }, bots: [2, 3] },
      })
    ).json();
    const alice = (await a.app.inject({ method: 'POST', url: `/api/tables/${tableId}/seats/0`, payload: { name: 'Alice' } })).json().token;
    const bob = (await b.app.inject({ method: 'POST', url: `/api/tables/${tableId}/seats/1`, payload: { name: 'Bob' } })).json().token;
    const bobsSocket = await socketTo(b.base, tableId, bob);
    const alicesSocket = await socketTo(a.base, tableId, alice);
    // Someone at another table, on Bob's gateway: told nothing of this one.
    const other = (await b.app.inject({ method: 'POST', url: '/api/tables', payload: { game: 'sevenSuitors', bots: [1, 2, 3] } })).json();
    const elsewhere = await socketTo(b.base, other.tableId);

    const say = (gateway: Gateway, phrase: string) =>
      gateway.inject({ method: 'POST', url: `/api/tables/${tableId}/chat`, headers: bearer(alice), payload: { phrase } });
    expect((await say(a.app, 'goodLuck')).statusCode).toBe(204);
    expect(await bobsSocket.next((message: Message) => message.type === 'chat', "Alice's chat on Bob's gateway")).toEqual({
      type: 'chat',
      seat: 0,
      phrase: 'goodLuck',
    });
    // Six a minute per seat, counted across the gateways: three through A and two through B are five more.
    for (const gateway of [a.app, b.app, a.app, b.app, a.app]) expect((await say(gateway, 'hello')).statusCode).toBe(204);
    const seventh = await say(b.app, 'wow');
    expect(seventh.statusCode, seventh.body).toBe(429);
    await waitFor(() => bobsSocket.messages.filter((message: Message) => message.type === 'chat').length === 6, 'six chats reach Bob');
    await waitFor(() => alicesSocket.messages.filter((message: Message) => message.type === 'chat').length === 6, 'six chats reach Alice');
    expect(elsewhere.messages.filter((message: Message) => message.type === 'chat')).toEqual([]);

    // The game to its end: Alice plays through A, Bob through B.
    let over = false;
    const play: SeatPlay = { acknowledged: [], refused: [] };
    const playing = [
      playSeat(httpBaseOf(a.base), { tableId, seat: 0, token: alice }, play, () => over),
      playSeat(httpBaseOf(b.base), { tableId, seat: 1, token: bob }, play, () => over),
    ];
    await waitFor(async () => (await tables.snapshot(tableId)).snapshot.context.outcome?.finished === true, 'the game to end', {
      timeoutMs: 60_000,
      everyMs: 200,
    });
    over = true;
    await Promise.all(playing);

    const before = new Set((await a.tables.listTables()).map((table) => table.tableId));
    const aliceNext = newToken();
    const bobNext = newToken();
    const proposed = await a.app.inject({
      method: 'POST',
      url: `/api/tables/${tableId}/rematch`,
      headers: bearer(alice),
      payload: { token: aliceNext },
    });
    expect(proposed.statusCode, proposed.body).toBe(201);
    const told = await bobsSocket.next(
      (message: Message) => message.type === 'rematch' && message.rematch.status === 'open',
      "Alice's proposal on Bob's gateway",
    );
    expect(told.rematch.seats).toEqual([
      { seat: 0, name: 'Alice', answer: 'proposed' },
      { seat: 1, name: 'Bob', answer: 'waiting' },
    ]);
    const answered = await b.app.inject({
      method: 'POST',
      url: `/api/tables/${tableId}/rematch/answer`,
      headers: bearer(bob),
      payload: { accept: true, token: bobNext },
    });
    expect(answered.statusCode, answered.body).toBe(200);
    const { rematch } = answered.json();
    expect(rematch).toMatchObject({ status: 'started' });
    const started = await alicesSocket.next(
      (message: Message) => message.type === 'rematch' && message.rematch.status === 'started',
      "the started rematch on Alice's gateway",
    );
    expect(started.rematch.rematchTableId).toBe(rematch.rematchTableId);
    expect((await a.app.inject({ method: 'GET', url: `/api/tables/${tableId}/rematch` })).json().rematch).toEqual(rematch);

    // One new table: Alice and Bob in their seats, each by the token they made, usable through either gateway.
    const seats = (
      await b.app.inject({ method: 'GET', url: `/api/tables/${rematch.rematchTableId}/view`, headers: bearer(aliceNext) })
    ).json();
    expect(seats.view.viewer).toBe(0);
    expect(seats.view.seats.map((seat: { occupant: { name: string; bot: boolean } }) => seat.occupant)).toEqual([
      { name: 'Alice', bot: false },
      { name: 'Bob', bot: false },
      expect.objectContaining({ bot: true }),
      expect.objectContaining({ bot: true }),
    ]);
    const bobsView = (
      await a.app.inject({ method: 'GET', url: `/api/tables/${rematch.rematchTableId}/view`, headers: bearer(bobNext) })
    ).json();
    expect(bobsView.view.viewer).toBe(1);
    const made = (await a.tables.listTables()).filter((table) => !before.has(table.tableId));
    expect(made.map((table) => table.tableId)).toEqual([rematch.rematchTableId]);
  });
});
