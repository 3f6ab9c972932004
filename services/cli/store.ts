/**
 * The store the CLI's table commands work on: the embedded service's SQLite
 * file (--db, else SUITORS_DB, else ./data/suitors.db), or, with NATS_URL
 * set, the distributed service's JetStream log, connected as the identity
 * NATS_CREDS names (the operator's admin key: docs/distributed.md,
 * "Securing NATS").
 */
import { existsSync } from 'node:fs';
import { natsSettingsFrom, databasePath, type NatsSettings } from '../settings.js';
import { openSqliteEventStore } from '../eventstore/sqliteEventStore.js';
import { openJetStreamEventStore } from '../eventstore/jetstream/index.js';
import type { EventStore } from '../eventstore/eventStore.js';
import { TableHost } from '../host/tableHost.js';
import { connectAs } from '../nats/connection.js';
import { optionalStringFlag, UsageError, type ParsedArgs } from './args.js';

/** Runs `work` on a host over the store; `mayCreate` lets a command start a new store file. */
export async function withHost<T>(
  args: ParsedArgs,
  work: (host: TableHost, store: EventStore) => Promise<T>,
  mayCreate = false,
): Promise<T> {
  const nats = natsSettingsFrom();
  if (nats !== null) {
    if (args.flags.has('db')) throw new UsageError('--db names an SQLite file, and NATS_URL is set: unset one of them');
    return withJetStreamHost(nats, work);
  }
  const path = databasePath(optionalStringFlag(args, 'db'));
  if (!existsSync(path) && !mayCreate) {
    throw new UsageError(`no event store at ${path}; start the service first, or name one with --db FILE`);
  }
  const store = openSqliteEventStore(path);
  return withHostOn(store, work);
}

async function withJetStreamHost<T>(nats: NatsSettings, work: (host: TableHost, store: EventStore) => Promise<T>): Promise<T> {
  const nc = await connectAs(nats, 'admin', { waitForServers: false });
  try {
    const { streamName, prefix } = nats;
    const store = await openJetStreamEventStore({ connection: nc, streamName, prefix, createMissing: false, openTimeoutMs: 5000 });
    return await withHostOn(store, work);
  } finally {
    await nc.close();
  }
}

async function withHostOn<T>(store: EventStore, work: (host: TableHost, store: EventStore) => Promise<T>): Promise<T> {
  const host = new TableHost({ store });
  try {
    return await work(host, store);
  } finally {
    await host.close();
    await store.close();
  }
}
