/**
 * The store the CLI's table commands work on, opened through the storage
 * root (services/storage): the embedded service's SQLite file (--db, else
 * SUITORS_DB, else ./data/suitors.db), or, with NATS_URL set (or
 * SUITORS_STORAGE=nats), the distributed service's JetStream log, connected
 * as the identity NATS_CREDS names (the operator's admin key:
 * docs/distributed.md, "Securing NATS").
 */
import type { EventStore } from '../eventstore/eventStore.js';
import { TableHost } from '../host/tableHost.js';
import { natsSettingsFrom } from '../settings.js';
import { SettingError } from '../settingReaders.js';
import { storageSettingsFrom } from '../storage/fromEnvironment.js';
import { MissingStorage, openStorage, type StorageSettings } from '../storage/storage.js';
import { optionalStringFlag, UsageError, type ParsedArgs } from './args.js';

interface HostOptions {
  /**
   * What a command does about an SQLite file that is not there: refuse (the default: a mistyped --db must not
   * start an empty store) or create it (import, whose table is the first of a new store).
   */
  readonly ifMissing?: 'create' | 'refuse';
}

/** Runs `work` on a host over the store, and closes both whatever happens. */
export async function withHost<T>(
  args: ParsedArgs,
  work: (host: TableHost, store: EventStore) => Promise<T>,
  { ifMissing = 'refuse' }: HostOptions = {},
): Promise<T> {
  const settings = storageFor(args);
  const storage = await openStorage(settings.kind === 'sqlite' ? { ...settings, ifMissing } : settings).catch((error: unknown) => {
    if (error instanceof MissingStorage) {
      throw new UsageError(`no event store at ${error.where}; start the service first, or name one with --db FILE`);
    }
    throw error;
  });
  const host = new TableHost({ store: storage.store });
  try {
    return await work(host, storage.store);
  } finally {
    await host.close();
    await storage.close();
  }
}

function storageFor(args: ParsedArgs): StorageSettings {
  const databaseFile = optionalStringFlag(args, 'db');
  let settings: StorageSettings;
  try {
    settings = storageSettingsFrom({
      fallback: natsSettingsFrom() === null ? 'sqlite' : 'nats',
      refused: { memory: 'a store in memory would be empty, and forgotten when the command ends; use sqlite or nats' },
      role: 'admin',
      ...(databaseFile === undefined ? {} : { databaseFile }),
    });
  } catch (error) {
    if (error instanceof SettingError) throw new UsageError(error.message);
    throw error;
  }
  if (settings.kind !== 'nats') return settings;
  if (databaseFile !== undefined) throw new UsageError('--db names an SQLite file, and NATS_URL is set: unset one of them');
  // The CLI reads and repairs logs that exist: it creates nothing on NATS, and answers at once when no stream is there.
  return { ...settings, createMissing: { eventStream: false, seatTokens: false }, openTimeoutMs: 5000 };
}
