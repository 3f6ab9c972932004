/**
 * A rolling deploy on a real 3-node NATS cluster (docs/operations.md,
 * "Distributed"): while all-bot tables play, workers of the new release
 * start beside the old ones, and the old ones are drained (SIGTERM) one at
 * a time. Every table plays on, no log has a gap or a move it refuses, and
 * no table stands still for long. Prints the figures: tables moved, the
 * longest pause of any table, how long each drain took. (Both releases here
 * are this code; rollingUpgrade.nats.test.ts deploys a release with other rules
 * and another event schema.)
 */
import { describe, expect, it } from 'vitest';
import { foldLog } from '../../services/host/replay.js';
import { waitFor } from '../../drivers/polling.js';
import { natsClusterForTests } from './cluster.js';
import { longestPause } from './pauses.js';

const LEASE_TTL_MS = 3000;
const BOT_DELAY_MS = 40;
const TABLES = 6;

describe('a rolling deploy of table workers', () => {
  const cluster = natsClusterForTests({ leaseTtlMs: LEASE_TTL_MS, botDelayMs: BOT_DELAY_MS, workerPrefix: 'w' });
  const startWorker = (workerId: string) => cluster.startWorker({ workerId });

  it('moves every table to the new workers with no lost or refused move and a short pause', async () => {
    const old = [await startWorker('w-old-1'), await startWorker('w-old-2')];
    const { store } = cluster;
    const gateway = await cluster.openGateway();
    const { tables } = gateway;
    const players = Array.from({ length: 6 }, (_, seat) => ({ name: `Bot ${seat}`, bot: true }));
    const tableIds: string[] = [];
    for (let each = 0; each < TABLES; each++) tableIds.push((await tables.createTable({ game: 'traitorOfLove', players })).tableId);
    await waitFor(
      async () => (await Promise.all(tableIds.map((tableId) => store.version(tableId)))).every((version) => version >= 20),
      'every table to be playing',
      { timeoutMs: 30_000, everyMs: 100 },
    );

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
    await waitFor(
      async () => {
        const versions = await Promise.all(tableIds.map((tableId) => store.version(tableId)));
        return versions.every((version, index) => version >= versionsAtDrain[index] + 10 || version === 0);
      },
      'every table to play on after the drain',
      { timeoutMs: 30_000, everyMs: 100 },
    );

    const logs = await Promise.all(tableIds.map((tableId) => store.read(tableId)));
    const pauses = logs.map((log) => longestPause(log, drainStarted));
    for (const [index, log] of logs.entries()) {
      expect(log.map((event) => event.seq)).toEqual(log.map((_, i) => i + 1));
      foldLog(tableIds[index], log).actor.stop();
    }
    const refused = [...old, ...fresh].flatMap((worker) =>
      worker.output.filter((line) => /could not move by itself|could not take up|refused/.test(line)),
    );
    console.log(
      `rolling drain: ${TABLES} tables moved from 2 workers to 2; drains took ${drains.join(' and ')} ms (${drained - drainStarted} ms with the new workers' start); ` +
        `longest pause of a table ${Math.max(...pauses)} ms (bot delay ${BOT_DELAY_MS} ms, lease TTL ${LEASE_TTL_MS} ms); moves refused or failed ${refused.length}`,
    );
    expect(refused).toEqual([]);
    // Below the 0.75 × TTL after which a dead worker's tables are taken: no table waited for a lease to run out.
    expect(Math.max(...pauses)).toBeLessThan(0.75 * LEASE_TTL_MS);
    await gateway.close();
  }, 120_000);
});
