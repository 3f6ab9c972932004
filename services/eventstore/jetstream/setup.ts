/**
 * Opening: the stream and the snapshots bucket are created when missing and
 * accepted when there, so several processes may open at once; a stream of
 * that name capturing other subjects is refused.
 */
import {
  DiscardPolicy,
  jetstreamManager,
  RetentionPolicy,
  StorageType,
  type JetStreamManager,
  type StreamConfig,
} from '@nats-io/jetstream';
import { Kvm, type KV } from '@nats-io/kv';
import { nanos, type ConnectionOptions, type NatsConnection } from '@nats-io/nats-core';
import { connectBatched } from '../../nats/turnBatchedConnect.js';
import { isStreamNameInUse, isStreamNotFound } from '../../nats/natsErrors.js';
import type { JetStreamLayout } from './layout.js';
import type { JetStreamEventStoreOptions } from './options.js';

/** Long enough that a publish retried through a leader election is still recognised as a duplicate. */
const DUPLICATE_WINDOW_MS = 2 * 60_000;
/** How long opening waits between attempts while JetStream is not ready. */
const OPEN_RETRY_MS = 500;

/** What is there is not what this store needs: trying again will not help. */
class ConfigurationError extends Error {}

export interface OpenedStream {
  readonly jsm: JetStreamManager;
  readonly snapshots: KV;
  readonly maxPayload: number;
  /** The stream's last sequence at open: where a subscriber's feed starts until the store sees more. */
  readonly lastSeq: number;
  /** Whether the stream may be purged by subject, as retiring a table needs (streams made before retirement deny it). */
  readonly mayPurge: boolean;
}

export function connectToServers(
  servers: JetStreamEventStoreOptions['servers'],
  connectOptions: ConnectionOptions = {},
): Promise<NatsConnection> {
  return connectBatched({
    name: 'suitors-eventstore',
    maxReconnectAttempts: -1,
    reconnectTimeWait: 250,
    // nats.js would otherwise build an Error, with its stack trace, for every request.
    noAsyncTraces: true,
    ...connectOptions,
    servers: servers === undefined && connectOptions.servers !== undefined ? connectOptions.servers : serverList(servers),
  });
}

function serverList(servers: JetStreamEventStoreOptions['servers']): string[] {
  const list = typeof servers === 'string' ? servers.split(',') : [...(servers ?? ['nats://127.0.0.1:4222'])];
  const trimmed = list.map((server) => server.trim()).filter((server) => server !== '');
  if (trimmed.length === 0) throw new TypeError('openJetStreamEventStore needs at least one server URL');
  return trimmed;
}

/**
 * The stream and the snapshots bucket, retried while JetStream is not ready
 * (a cluster electing its leader), or, with `createMissing` false, until
 * another process has made them.
 */
export function openStreamAndBucket(
  nc: NatsConnection,
  layout: JetStreamLayout,
  options: { readonly replicas: number; readonly timeoutMs: number; readonly createMissing: boolean },
): Promise<OpenedStream> {
  const { replicas, createMissing } = options;
  return withRetries(options.timeoutMs, async () => {
    const jsm = await jetstreamManager(nc);
    const streamInfo = createMissing ? await ensureStream(jsm, layout, replicas) : await existingStream(jsm, layout);
    const maxPayload = nc.info?.max_payload ?? 1024 * 1024;
    const kvm = new Kvm(nc);
    // allow_direct off: reads go to the bucket's leader, so a process reads what it has just written.
    const snapshots = createMissing
      ? await kvm.create(layout.snapshotsBucket, {
          replicas,
          history: 1,
          allow_direct: false,
          storage: StorageType.File,
          maxValueSize: maxPayload,
        })
      : await existingBucket(jsm, kvm, layout.snapshotsBucket);
    return { jsm, snapshots, maxPayload, lastSeq: streamInfo.state.last_seq, mayPurge: streamInfo.config.deny_purge !== true };
  });
}

/** The stream as another process made it, checked as ensureStream checks it. */
async function existingStream(jsm: JetStreamManager, layout: JetStreamLayout) {
  const info = await jsm.streams.info(layout.streamName);
  checkSubjects(info.config.subjects, layout);
  return info;
}

async function existingBucket(jsm: JetStreamManager, kvm: Kvm, bucket: string): Promise<KV> {
  // Throws "stream not found" until a worker has made it; open() alone would not look.
  await jsm.streams.info(`KV_${bucket}`);
  return kvm.open(bucket);
}

/** Runs `attempt` until it succeeds, a ConfigurationError is thrown, or `timeoutMs` has passed. */
async function withRetries<T>(timeoutMs: number, attempt: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await attempt();
    } catch (error) {
      if (error instanceof ConfigurationError || Date.now() >= deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, OPEN_RETRY_MS));
    }
  }
}

function checkSubjects(subjects: readonly string[] | undefined, layout: JetStreamLayout): void {
  if (!(subjects ?? []).includes(layout.filter)) {
    throw new ConfigurationError(
      `stream ${layout.streamName} exists but captures ${JSON.stringify(subjects)}, not ${layout.filter}; choose another streamName or prefix`,
    );
  }
}

/** Creates the stream, or checks the one there captures our subjects. Safe to race with other processes. */
async function ensureStream(jsm: JetStreamManager, layout: JetStreamLayout, replicas: number) {
  const config: Partial<StreamConfig> & { name: string } = {
    name: layout.streamName,
    description: 'Suitors table event logs: one subject per table, one message per append',
    subjects: [layout.filter],
    retention: RetentionPolicy.Limits,
    storage: StorageType.File,
    num_replicas: replicas,
    max_msgs: -1,
    max_bytes: -1,
    max_age: 0,
    max_msgs_per_subject: -1,
    // Should an operator ever set a limit, appends fail rather than old events silently disappearing.
    discard: DiscardPolicy.New,
    duplicate_window: nanos(DUPLICATE_WINDOW_MS),
    // The log is append-only: no single message is deleted. A retired table's subject alone is purged, down to the
    // tombstone that keeps its record (retirements.ts); reads of any other table meet nothing missing.
    deny_delete: true,
    deny_purge: false,
    // Reads fetch messages by sequence with direct gets, answered by any current replica (checked against the leader).
    allow_direct: true,
  };
  let info;
  try {
    info = await jsm.streams.info(layout.streamName);
  } catch (error) {
    if (!isStreamNotFound(error)) throw error;
    try {
      info = await jsm.streams.add(config);
    } catch (addError) {
      // Created meanwhile by another process with another configuration: look at what is there.
      if (!isStreamNameInUse(addError)) throw addError;
      info = await jsm.streams.info(layout.streamName);
    }
  }
  checkSubjects(info.config.subjects, layout);
  if (info.config.allow_direct !== true) {
    // A stream created before reads used direct gets: turn them on (idempotent; several processes may race here).
    try {
      info = await jsm.streams.update(layout.streamName, { ...info.config, allow_direct: true });
    } catch {
      // Reads then go to the leader, as before.
    }
  }
  return info;
}
