/**
 * The gateway of the distributed service end to end on one NATS server:
 * HTTP in, commands to two table workers over NATS, the log in JetStream,
 * seat tokens in KV, views built in the gateway.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect } from '@nats-io/transport-node';
import type { NatsConnection } from '@nats-io/nats-core';
import pino from 'pino';
import { verifyRecord } from '../../machines/record/verify.js';
import { openKvSeatTokens } from '../../services/bus/kvSeatTokens.js';
import type { EventStore } from '../../services/eventstore/eventStore.js';
import { openJetStreamEventStore } from '../../services/eventstore/jetstreamEventStore.js';
import { createDistributedGateway } from '../../services/gateway/distributed.js';
import type { Gateway } from '../../services/gateway/gateway.js';
import { startLocalNats, type LocalNats } from '../../services/nats/localNats.js';
import { startTableWorker, type TableWorker } from '../../services/worker/tableWorker.js';
import type { RemoteTables } from '../../services/bus/remoteTables.js';

const ADMIN = { authorization: 'Bearer admin-for-distributed-tests' };

describe('the distributed gateway over table workers', () => {
  let nats: LocalNats;
  const connections: NatsConnection[] = [];
  const stores: EventStore[] = [];
  const workers: TableWorker[] = [];
  let app: Gateway;
  let tables: RemoteTables;

  async function connectWithStore(): Promise<{ nc: NatsConnection; store: EventStore }> {
    const nc = await connect({ servers: nats.urls, noAsyncTraces: true });
    const store = await openJetStreamEventStore({ connection: nc });
    connections.push(nc);
    stores.push(store);
    return { nc, store };
  }

  beforeAll(async () => {
    nats = await startLocalNats(1);
    for (const workerId of ['w-one', 'w-two']) workers.push(await startTableWorker({ ...(await connectWithStore()), workerId }));
    const { nc, store } = await connectWithStore();
    const tokens = await openKvSeatTokens(nc);
    ({ app, tables } = createDistributedGateway({
      nc,
      store,
      tokens,
      logger: pino({ level: 'silent' }),
      botDelayMs: 0,
      adminToken: 'admin-for-distributed-tests',
      webRoot: '/nonexistent',
    }));
    await app.ready();
  });

  afterAll(async () => {
    await app?.close();
    await tables?.close();
    await Promise.allSettled(workers.map((worker) => worker.stop()));
    await Promise.allSettled(stores.map((store) => store.close()));
    await Promise.allSettled(connections.map((nc) => nc.close()));
    await nats?.stop();
  });

  it("plays a bots' game to the end through the API, and its record verifies", async () => {
    const created = await app.inject({ method: 'POST', url: '/api/tables', payload: { game: 'sevenSuitors', options: { end: 'hands:2' }, bots: [0, 1, 2, 3] } });
    expect(created.statusCode, created.body).toBe(201);
    const { tableId } = created.json();
    const deadline = Date.now() + 30_000;
    let entry: { finished: boolean } | undefined;
    while (!entry?.finished && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      entry = (await app.inject({ method: 'GET', url: '/api/tables' })).json().tables.find((table: { tableId: string }) => table.tableId === tableId);
    }
    expect(entry?.finished).toBe(true);
    const record = await app.inject({ method: 'GET', url: `/api/tables/${tableId}/record`, headers: ADMIN });
    expect(record.statusCode, record.body).toBe(200);
    expect(verifyRecord(record.json()).problems).toEqual([]);
    expect(['w-one', 'w-two']).toContain(tables.ownerOf(tableId));
  });

  it('seats a person with a token every gateway knows, and shows the seat its own cards only', async () => {
    const created = await app.inject({ method: 'POST', url: '/api/tables', payload: { game: 'sevenSuitors', bots: [1, 2, 3] } });
    const { tableId } = created.json();
    const joined = await app.inject({ method: 'POST', url: `/api/tables/${tableId}/seats/0`, payload: { name: 'Tester' } });
    expect(joined.statusCode, joined.body).toBe(201);
    const { token } = joined.json();
    const elsewhere = await openKvSeatTokens(connections[0]);
    expect(await elsewhere.resolve(token)).toEqual({ tableId, seat: 0 });
    const mine = (await app.inject({ method: 'GET', url: `/api/tables/${tableId}/view`, headers: { authorization: `Bearer ${token}` } })).json();
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
});
