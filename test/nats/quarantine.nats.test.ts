/**
 * A forged event in the JetStream log, on a secured NATS: a gateway's key
 * cannot write one, so it is appended with the admin key, as a bug would
 * write it. Its table is then quarantined with the documented answer while
 * the other tables play on, and the operator's `npx suitors repair`, run
 * against NATS with the admin key, brings it back.
 */
import { spawnSync } from 'node:child_process';
import type { NatsConnection } from '@nats-io/nats-core';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalNats, type LocalNats } from '../../drivers/localNats.js';
import { waitFor } from '../../drivers/polling.js';
import { openKvSeatTokens } from '../../services/tokens/kvSeatTokens.js';
import type { EventStore } from '../../services/eventstore/eventStore.js';
import { openJetStreamEventStore } from '../../services/eventstore/jetstream/index.js';
import { createDistributedGateway } from '../../services/gateway/distributed.js';
import type { Gateway } from '../../services/gateway/gateway.js';
import { startTableWorker, type TableWorker } from '../../services/worker/tableWorker.js';

const BOTS = { game: 'sevenSuitors', options: { end: 'hands:1' }, bots: [0, 1, 2, 3] };

describe('a forged event in the JetStream log', () => {
  let nats: LocalNats;
  const connections: NatsConnection[] = [];
  const stores: EventStore[] = [];
  let worker: TableWorker;
  let app: Gateway;
  let admin: EventStore;

  async function storeOf(role: 'worker' | 'gateway' | 'admin'): Promise<{ nc: NatsConnection; store: EventStore }> {
    const nc = await nats.connect(role);
    const store = await openJetStreamEventStore({ connection: nc, createMissing: role === 'worker' });
    connections.push(nc);
    stores.push(store);
    return { nc, store };
  }

  beforeAll(async () => {
    nats = await startLocalNats(1);
    worker = await startTableWorker({ ...(await storeOf('worker')), workerId: 'w-quarantine', botDelayMs: 20 });
    const gateway = await storeOf('gateway');
    ({ app } = createDistributedGateway({
      ...gateway,
      tokens: await openKvSeatTokens(gateway.nc),
      logger: pino({ level: 'silent' }),
      webRoot: '/nonexistent',
      // A shed request is a 503 too: on a loaded test machine it must not pass for the quarantine's.
      limits: { loadShedding: { maxEventLoopDelayMs: 60_000, sampleMs: 500, retryAfterSeconds: 1 } },
    }));
    admin = (await storeOf('admin')).store;
  });

  afterAll(async () => {
    await app?.close();
    await worker?.stop();
    await Promise.allSettled(stores.map((store) => store.close()));
    await Promise.allSettled(connections.map((nc) => nc.close()));
    await nats?.stop();
  });

  it('quarantines its table with the documented answer, other tables play on, and the CLI repair over NATS brings it back', async () => {
    const forgedAt = (await app.inject({ method: 'POST', url: '/api/tables', payload: { ...BOTS, bots: [1, 2, 3] } })).json().tableId;
    const seat = await app.inject({ method: 'POST', url: `/api/tables/${forgedAt}/seats/0`, payload: { name: 'Ada' } });
    expect(seat.statusCode, seat.body).toBe(201);
    // The bots pass; then the table waits for Ada, so nothing else writes while the event is forged.
    const waiting = await waitFor(
      async () => {
        const { version, view } = (await app.inject({ method: 'GET', url: `/api/tables/${forgedAt}/view` })).json();
        return view?.awaiting?.length === 1 && version;
      },
      'the bots to pass',
      { everyMs: 50 },
    );
    expect(await admin.version(forgedAt)).toBe(waiting);
    await admin.append(forgedAt, [{ type: 'game.finished', at: new Date().toISOString(), data: { winners: [1] } }], waiting);
    const forged = waiting + 1;

    const quarantined = await waitFor(
      async () => {
        const answer = await app.inject({ method: 'GET', url: `/api/tables/${forgedAt}/view` });
        return answer.statusCode === 503 && answer;
      },
      'the table to be quarantined',
      { everyMs: 50 },
    );
    expect(quarantined.json()).toMatchObject({ error: 'quarantined', tableId: forgedAt, seq: forged, eventType: 'game.finished' });
    expect(quarantined.json().reason).toMatch(/game\.finished/);
    // The lobby lists the store's tables at most once a second: within one, the table shows as quarantined, its game known.
    const entry = await waitFor(
      async () => {
        const { tables = [] } = (await app.inject({ method: 'GET', url: '/api/tables' })).json();
        const listed = tables.find((table: { tableId: string }) => table.tableId === forgedAt);
        return listed?.phase === 'quarantined' && listed;
      },
      'the lobby to show the table quarantined',
      { everyMs: 100 },
    );
    expect(entry).toMatchObject({ game: 'sevenSuitors', quarantine: { seq: forged } });

    // Another table plays its bots' game to the end meanwhile.
    const other = (await app.inject({ method: 'POST', url: '/api/tables', payload: BOTS })).json().tableId;
    await waitFor(
      async () => (await app.inject({ method: 'GET', url: `/api/tables/${other}/view` })).json().view?.phase === 'gameOver',
      'the other table to finish',
      { timeoutMs: 30_000, everyMs: 100 },
    );

    // The operator repairs it with the CLI, on NATS with the admin key: the gateway's key could not append the repair.
    const repair = spawnSync(process.execPath, ['--import', 'tsx', 'services/cli/bin.js', 'repair', forgedAt], {
      env: { ...process.env, ...nats.env('admin') },
      encoding: 'utf8',
    });
    expect(repair.status, repair.stderr).toBe(0);
    expect(repair.stdout).toContain(`table ${forgedAt} repaired: 1 event voided, now at version ${forged + 1}`);
    const log = await admin.read(forgedAt);
    expect(log[forged - 1].type).toBe('game.finished'); // still in the log, voided
    expect(log[forged]).toMatchObject({ type: 'table.repaired', data: { voided: [forged] } });
    const view = await waitFor(
      async () => {
        const answer = await app.inject({ method: 'GET', url: `/api/tables/${forgedAt}/view` });
        return answer.statusCode === 200 && (answer.json() as { view: { phase: string } });
      },
      'the repaired table to answer',
      { everyMs: 50 },
    );
    expect(view.view.phase).not.toBe('gameOver');
  }, 60_000);
});
