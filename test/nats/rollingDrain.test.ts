/**
 * A rolling deploy on a real 3-node NATS cluster (docs/operations.md,
 * "Distributed"): while all-bot tables play, workers of the new release
 * start beside the old ones, and the old ones are drained (SIGTERM) one at
 * a time. Every table plays on, no log has a gap or a move it refuses, and
 * no table stands still for long. Prints the figures: tables moved, the
 * longest pause of any table, how long each drain took. (Both releases here
 * are this code: a worker of another fingerprint is not yet started by the
 * test; docs/operations.md says what such a deploy needs.)
 */
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventStore, StoredEvent } from '../../services/eventstore/eventStore.js';
import { openJetStreamEventStore } from '../../services/eventstore/jetstream/index.js';
import { RemoteTables } from '../../services/bus/remoteTables.js';
import { foldLog } from '../../services/host/replay.js';
import { startLocalNats, type LocalNats } from '../../services/nats/localNats.js';
import { startWorkerProcess, type WorkerProcess } from '../../services/worker/workerProcess.js';
import { waitFor } from '../../drivers/polling.js';

const LEASE_TTL_MS = 3000;
const BOT_DELAY_MS = 40;
const TABLES = 6;

describe('a rolling deploy of table workers', () => {
  let nats: LocalNats;
  let nc: NatsConnection;
  let store: EventStore;
  const workers: WorkerProcess[] = [];

  const startWorker = async (workerId: string) => {
    const worker = await startWorkerProcess({ natsUrl: nats.urls, workerId, replicas: 3, leaseTtlMs: LEASE_TTL_MS, botDelayMs: BOT_DELAY_MS });
    workers.push(worker);
    return worker;
  };

  beforeAll(async () => {
    nats = await startLocalNats(3);
    nc = await connect({ servers: nats.urls.split(','), maxReconnectAttempts: -1, reconnectTimeWait: 250 });
    store = await openJetStreamEventStore({ connection: nc, replicas: 3 });
  }, 60_000);

  afterAll(async () => {
    await Promise.allSettled(workers.map((worker) => worker.kill()));
    await store?.close();
    await nc?.close();
    await nats?.stop();
  });

  it('moves every table to the new workers with no lost or refused move and a short pause', async () => {
    const old = [await startWorker('w-old-1'), await startWorker('w-old-2')];
    const tables = new RemoteTables({ nc, store, requestTimeoutMs: LEASE_TTL_MS, retryForMs: 20_000 });
    const players = Array.from({ length: 6 }, (_, seat) => ({ name: `Bot ${seat}`, bot: true }));
    const tableIds: string[] = [];
    for (let each = 0; each < TABLES; each++) tableIds.push((await tables.createTable({ game: 'traitorOfLove', players })).tableId);
    await waitFor(async () => (await Promise.all(tableIds.map((tableId) => store.version(tableId)))).every((version) => version >= 20), 'every table to be playing', { timeoutMs: 30_000, everyMs: 100 });

    const drainStarted = Date.now();
    const fresh = [await startWorker('w-new-1'), await startWorker('w-new-2')];
    const drains: number[] = [];
    for (const worker of old) {
      const started = Date.now();
      await worker.stop();
      drains.push(Date.now() - started);
    }
    const drained = Date.now();
    const versionsAtDrain = await Promise.all(tableIds.map((tableId) => store.version(tableId)));
    // Every table plays on at a new worker: each moves at least 10 events past where the drain left it.
    await waitFor(async () => {
      const versions = await Promise.all(tableIds.map((tableId) => store.version(tableId)));
      return versions.every((version, index) => version >= versionsAtDrain[index] + 10 || version === 0);
    }, 'every table to play on after the drain', { timeoutMs: 30_000, everyMs: 100 });

    const logs = await Promise.all(tableIds.map((tableId) => store.read(tableId)));
    const pauses = logs.map((log) => longestPause(log, drainStarted));
    for (const [index, log] of logs.entries()) {
      expect(log.map((event) => event.seq)).toEqual(log.map((_, i) => i + 1));
      foldLog(tableIds[index], log).actor.stop();
    }
    const refused = [...old, ...fresh].flatMap((worker) => worker.output.filter((line) => /could not move by itself|could not take up|refused/.test(line)));
    console.log(
      `rolling drain: ${TABLES} tables moved from 2 workers to 2; drains took ${drains.join(' and ')} ms (${drained - drainStarted} ms with the new workers' start); ` +
        `longest pause of a table ${Math.max(...pauses)} ms (bot delay ${BOT_DELAY_MS} ms, lease TTL ${LEASE_TTL_MS} ms); moves refused or failed ${refused.length}`,
    );
    expect(refused).toEqual([]);
    // Below the 0.75 × TTL after which a dead worker's tables are taken: no table waited for a lease to run out.
    expect(Math.max(...pauses)).toBeLessThan(0.75 * LEASE_TTL_MS);
    await tables.close();
  }, 120_000);
});

/** The longest time between two events of a log from `since` on (ms). */
function longestPause(log: readonly StoredEvent[], since: number): number {
  let longest = 0;
  for (let index = 1; index < log.length; index++) {
    const at = Date.parse(log[index].at);
    if (at < since) continue;
    longest = Math.max(longest, at - Date.parse(log[index - 1].at));
  }
  return longest;
}
