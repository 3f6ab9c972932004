/**
 * The projection runner on the three stores: in memory, on a SQLite file
 * (its checkpoints in the same file, on their own connection) and on a real
 * nats-server (checkpoints in a KV bucket). Without nats-server the NATS
 * suite fails (startLocalNats says what to install); it is never skipped.
 */
import type { NatsConnection } from '@nats-io/nats-core';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { startLocalNats, type LocalNats } from '../../drivers/localNats.js';
import { openJetStreamEventStore } from '../eventstore/jetstream/index.js';
import { createMemoryEventStore } from '../eventstore/memoryEventStore.js';
import { openSqliteEventStore } from '../eventstore/sqliteEventStore.js';
import { createMemoryCheckpoints } from './checkpoints.js';
import { openNatsCheckpoints } from './natsCheckpoints.js';
import { describeProjectionRunner } from './runner.contract.js';
import { openSqliteCheckpoints } from './sqliteCheckpoints.js';

describeProjectionRunner('memory', async () => {
  const store = createMemoryEventStore();
  const checkpoints = createMemoryCheckpoints();
  return { store, checkpoints, close: () => store.close() };
});

describeProjectionRunner('sqlite', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'projections-'));
  const file = join(dir, 'service.db');
  const store = openSqliteEventStore(file);
  const checkpoints = openSqliteCheckpoints(file);
  return {
    store,
    checkpoints,
    async close() {
      await checkpoints.close();
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
});

let nats: LocalNats;
let admin: NatsConnection;
let fresh = 0;

beforeAll(async () => {
  nats = await startLocalNats(1);
  admin = await nats.connect('admin');
});

afterAll(async () => {
  await admin?.close();
  await nats?.stop();
});

describeProjectionRunner('jetstream', async () => {
  fresh++;
  const store = await openJetStreamEventStore({
    connectOptions: nats.connectOptions('admin'),
    streamName: `P${fresh}`,
    prefix: `p${fresh}.tables`,
  });
  const checkpoints = await openNatsCheckpoints(admin, { bucket: `P${fresh}-projections` });
  return { store, checkpoints, close: () => store.close() };
});
