/** The CLI works on the embedded service's event store (--db, else SUITORS_DB, else ./data/suitors.db). */
import { existsSync } from 'node:fs';
import { databasePath } from '../settings.js';
import { openSqliteEventStore } from '../eventstore/sqliteEventStore.js';
import type { EventStore } from '../eventstore/eventStore.js';
import { TableHost } from '../host/tableHost.js';
import { optionalStringFlag, UsageError, type ParsedArgs } from './args.js';

/** Runs `work` on a host over the store; `mayCreate` lets a command start a new store file. */
export async function withHost<T>(
  args: ParsedArgs,
  work: (host: TableHost, store: EventStore) => Promise<T>,
  mayCreate = false,
): Promise<T> {
  const path = databasePath(optionalStringFlag(args, 'db'));
  if (!existsSync(path) && !mayCreate) {
    throw new UsageError(`no event store at ${path}; start the service first, or name one with --db FILE`);
  }
  const store = openSqliteEventStore(path);
  const host = new TableHost({ store });
  try {
    return await work(host, store);
  } finally {
    await host.close();
    await store.close();
  }
}
