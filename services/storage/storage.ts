/**
 * The one place storage is opened: the event store and the seat tokens a
 * process runs on, chosen by one setting (SUITORS_STORAGE;
 * fromEnvironment.ts reads it), opened together and closed together. The
 * embedded service, the CLI, the distributed gateway, the test service, the
 * SQLite benchmarks, the fuzzer and the tests open storage here, so a new
 * adapter is wired in once (README.md, "Adding an adapter").
 */
import { existsSync, statSync } from 'node:fs';
import type { NatsConnection } from '@nats-io/nats-core';
import type { EventStore } from '../eventstore/eventStore.js';
import { openJetStreamEventStore } from '../eventstore/jetstream/index.js';
import { createMemoryEventStore } from '../eventstore/memoryEventStore.js';
import { openSqliteEventStore, type GroupCommit } from '../eventstore/sqliteEventStore.js';
import { connectAs, type NatsAccess } from '../nats/connection.js';
import type { NatsRole } from '../nats/security/roles.js';
import type { StorageKind } from '../settings.js';
import { openKvSeatTokens } from '../tokens/kvSeatTokens.js';
import { createMemorySeatTokens } from '../tokens/memorySeatTokens.js';
import type { SeatTokens } from '../tokens/seatTokens.js';
import { openSqliteSeatTokens } from '../tokens/sqliteSeatTokens.js';

/** In this process only: nothing survives it (tests, throwaway services). */
interface MemoryStorageSettings {
  readonly kind: 'memory';
}

/** One SQLite file holding the event logs and the seat tokens: the embedded service's. */
interface SqliteStorageSettings {
  readonly kind: 'sqlite';
  readonly path: string;
  /** A file that is not there: made (the default), or refused with a MissingStorage that names it. */
  readonly ifMissing?: 'create' | 'refuse';
  /** The most the file may grow to, in bytes (SUITORS_DB_MAX_MB); undefined: the disk. */
  readonly maxBytes?: number;
  /** How long a write waits for another process's lock, in ms (default 5000). */
  readonly busyTimeoutMs?: number;
  /** Told of each group commit of the event store, for metrics. */
  readonly onCommit?: (commit: GroupCommit) => void;
}

/** The distributed service's: the JetStream event stream and the seat tokens' KV bucket of one deployment. */
interface NatsStorageSettings {
  readonly kind: 'nats';
  /** The deployment: its servers and this process's credentials, and the names it keeps its things under. */
  readonly nats: NatsAccess & { readonly streamName: string; readonly prefix: string; readonly replicas: number };
  /** Who this process is on NATS: what it connects as when no `connection` is given. */
  readonly role: NatsRole;
  /** An open connection to share: close() leaves it open. Without one, opening connects as `role` and close() ends it. */
  readonly connection?: NatsConnection;
  /**
   * What opening may create when it is missing (both by default). A gateway may not create the event stream (the
   * workers do); the CLI creates nothing (it reads and repairs logs that exist).
   */
  readonly createMissing?: { readonly eventStream?: boolean; readonly seatTokens?: boolean };
  /** How long opening the event stream waits for JetStream to be ready, in ms (the adapter's default: 30000). */
  readonly openTimeoutMs?: number;
}

type LocalStorageSettings = MemoryStorageSettings | SqliteStorageSettings;
export type StorageSettings = LocalStorageSettings | NatsStorageSettings;

export interface Storage {
  readonly kind: StorageKind;
  readonly store: EventStore;
  readonly tokens: SeatTokens;
  /** Where it is, for a log line: the file, the stream, or that it is in memory. */
  readonly where: string;
  /**
   * The bytes it holds on this machine's disk, now (SQLite: the file with its write-ahead log and shared-memory
   * index, which hold committed events until a checkpoint); none for memory, and for NATS, whose servers hold it.
   */
  readonly bytes?: () => number;
  /** How many tables are retired (SQLite; none for memory and NATS): suitors_tables_retired. */
  readonly retiredTables?: () => number;
  /** Closes the tokens, then the store (whose pending writes are committed first), then a connection it made. */
  close(): Promise<void>;
}

/** A storage that `ifMissing: 'refuse'` found not there: the CLI says so, rather than making an empty one. */
export class MissingStorage extends Error {
  constructor(readonly where: string) {
    super(`no event store at ${where}`);
    this.name = 'MissingStorage';
  }
}

/** Opens the storage `settings` name, whichever kind. */
export async function openStorage(settings: StorageSettings): Promise<Storage> {
  return settings.kind === 'nats' ? openNatsStorage(settings) : openLocalStorage(settings);
}

/** Opens memory or SQLite storage at once, for callers that cannot wait (a test service started synchronously). */
export function openLocalStorage(settings: LocalStorageSettings): Storage {
  if (settings.kind === 'memory') {
    return storageOf('memory', 'memory (nothing is kept)', createMemoryEventStore(), createMemorySeatTokens());
  }
  const { path, ifMissing = 'create', maxBytes, busyTimeoutMs, onCommit } = settings;
  if (ifMissing === 'refuse' && !existsSync(path)) throw new MissingStorage(path);
  const store = openSqliteEventStore(path, { maxBytes, busyTimeoutMs, onCommit });
  try {
    return {
      ...storageOf('sqlite', path, store, openSqliteSeatTokens(path, busyTimeoutMs)),
      bytes: () => sqliteBytes(path),
      retiredTables: () => store.retiredCount(),
    };
  } catch (error) {
    void store.close();
    throw error;
  }
}

async function openNatsStorage(settings: NatsStorageSettings): Promise<Storage> {
  const { nats, role, createMissing = {} } = settings;
  const { streamName, prefix, replicas } = nats;
  const connection = settings.connection ?? (await connectAs(nats, role, { waitForServers: false }));
  const ownConnection = settings.connection === undefined ? connection : null;
  try {
    const store = await openJetStreamEventStore({
      connection,
      streamName,
      prefix,
      replicas,
      createMissing: createMissing.eventStream ?? true,
      ...(settings.openTimeoutMs === undefined ? {} : { openTimeoutMs: settings.openTimeoutMs }),
    });
    const tokens = await openKvSeatTokens(connection, {
      replicas,
      namespace: streamName,
      createMissing: createMissing.seatTokens ?? true,
    }).catch(async (error: unknown) => {
      await store.close();
      throw error;
    });
    return storageOf('nats', `NATS JetStream stream ${streamName}`, store, tokens, async () => {
      await ownConnection?.close();
    });
  } catch (error) {
    await ownConnection?.close();
    throw error;
  }
}

function sqliteBytes(path: string): number {
  return [path, `${path}-wal`, `${path}-shm`].reduce((sum, file) => sum + (statSync(file, { throwIfNoEntry: false })?.size ?? 0), 0);
}

function storageOf(
  kind: StorageKind,
  where: string,
  store: EventStore,
  tokens: SeatTokens,
  afterClose: () => Promise<void> = async () => undefined,
): Storage {
  let closing: Promise<void> | null = null;
  return {
    kind,
    store,
    tokens,
    where,
    close() {
      closing ??= (async () => {
        await tokens.close();
        await store.close();
        await afterClose();
      })();
      return closing;
    },
  };
}
