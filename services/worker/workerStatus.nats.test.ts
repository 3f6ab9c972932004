/**
 * Every worker on the operator's page, on a real secured nats-server: two
 * table workers, each its own process, put their status (memory, lag,
 * commands/s, the tables they hold) in the worker-status bucket, and a
 * distributed gateway lists both on GET /api/admin/fleet with their tables;
 * a worker stopped is gone from it at once. That a gateway may not write a
 * worker's status is test/nats/permissions.nats.test.ts's. Without
 * nats-server this fails (startLocalNats says what to install); it is never
 * skipped.
 */
import type { NatsConnection } from '@nats-io/nats-core';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalNats, type LocalNats } from '../../drivers/localNats.js';
import { waitFor } from '../../drivers/polling.js';
import { startWorkerProcess, type WorkerProcess } from '../../drivers/workerProcess.js';
import type { RemoteTables } from '../bus/remoteTables.js';
import type { EventStore } from '../eventstore/eventStore.js';
import { openJetStreamEventStore } from '../eventstore/jetstream/index.js';
import { createDistributedGateway } from '../gateway/distributed.js';
import type { Gateway } from '../gateway/gateway.js';
import type { OperatorReport } from '../gateway/operatorReport.js';
import { openKvSeatTokens } from '../tokens/kvSeatTokens.js';

const ADMIN_TOKEN = 'admin-for-worker-status';

let nats: LocalNats;
const workers: WorkerProcess[] = [];
let nc: NatsConnection;
let store: EventStore;
let app: Gateway;
let tables: RemoteTables;

beforeAll(async () => {
  nats = await startLocalNats(1);
  for (const workerId of ['w-status-a', 'w-status-b']) {
    workers.push(await startWorkerProcess({ natsEnv: nats.env('worker'), workerId, botDelayMs: 0, leaseTtlMs: 2000 }));
  }
  nc = await nats.connect('gateway');
  store = await openJetStreamEventStore({ connection: nc, createMissing: false });
  ({ app, tables } = createDistributedGateway({
    nc,
    store,
    tokens: await openKvSeatTokens(nc),
    logger: pino({ level: 'silent' }),
    adminToken: ADMIN_TOKEN,
    webRoot: '/nonexistent',
  }));
  await app.ready();
}, 90_000);

afterAll(async () => {
  await app?.close();
  await tables?.close();
  await store?.close();
  await nc?.close();
  await Promise.allSettled(workers.map((worker) => worker.stop()));
  await nats?.stop();
});

async function operatorReport(): Promise<OperatorReport> {
  const answer = await app.inject({ method: 'GET', url: '/api/admin/fleet', headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
  expect(answer.statusCode, answer.body).toBe(200);
  return answer.json();
}

describe("the workers on the operator's page", () => {
  it('lists both workers with their figures and the tables each holds, and drops one that stops', async () => {
    const created: string[] = [];
    // Seat 0 waits for a person, so each table stays with the worker that holds it.
    for (let i = 0; i < 6; i++) {
      const answer = await app.inject({ method: 'POST', url: '/api/tables', payload: { game: 'sevenSuitors', bots: [1, 2, 3] } });
      expect(answer.statusCode, answer.body).toBe(201);
      created.push(answer.json().tableId);
    }
    // The workers share the tables out (rebalancing), and each puts what it holds every 2 s.
    const report = await waitFor(
      async () => {
        const answer = await operatorReport();
        const held = answer.workers.flatMap((worker) => worker.status?.tables ?? []);
        const both = answer.workers.every((worker) => (worker.status?.tablesHeld ?? 0) > 0);
        return answer.workers.length === 2 && both && created.every((tableId) => held.includes(tableId)) && answer;
      },
      'both workers to say which tables they hold',
      { timeoutMs: 30_000, everyMs: 200 },
    );
    expect(report.workers.map((worker) => worker.worker)).toEqual(['w-status-a', 'w-status-b']);
    expect(report.missing).toEqual([]);
    for (const { worker, status, listedTables } of report.workers) {
      expect(status).not.toBeNull();
      expect(status!.tablesHeld).toBe(status!.tables.length);
      expect(status!.rssBytes).toBeGreaterThan(status!.heapUsedBytes);
      expect(status!.heardSecondsAgo).toBeLessThanOrEqual(6);
      // The page's table list and the worker's own word agree on who holds what.
      const claimed = report.tables.listed.filter((table) => table.owner === worker).map((table) => table.tableId);
      expect(listedTables).toBe(claimed.length);
      expect([...status!.tables].sort()).toEqual(expect.arrayContaining(claimed.filter((tableId) => created.includes(tableId))));
    }
    // Each table is held by one worker.
    const held = report.workers.flatMap((worker) => worker.status!.tables);
    expect(new Set(held).size).toBe(held.length);

    await workers[0].stop();
    const after = await waitFor(
      async () => {
        const answer = await operatorReport();
        return answer.workers.every((worker) => worker.worker !== 'w-status-a') && answer;
      },
      'the stopped worker to leave the page',
      { timeoutMs: 15_000, everyMs: 200 },
    );
    // It handed its tables on as it stopped: the other says it holds them all.
    await waitFor(
      async () => {
        const [survivor] = (await operatorReport()).workers;
        return created.every((tableId) => survivor?.status?.tables.includes(tableId));
      },
      'the other worker to hold every table',
      { timeoutMs: 15_000, everyMs: 200 },
    );
    expect(after.workers.map((worker) => worker.worker)).toEqual(['w-status-b']);
  }, 90_000);
});
