/**
 * The event store on NATS JetStream, for the distributed service: the same
 * interface and contract as the SQLite store, with the log replicated by
 * JetStream (R1 on one server, R3 on a cluster).
 *
 * Layout:
 * - one stream (default TABLE_EVENTS) capturing `<prefix>.*.events`, one
 *   subject per table (`tables.<table>.events`);
 * - ONE MESSAGE PER APPEND: an append of several events is a single message
 *   holding all of them, so it is stored whole or not at all (JetStream 2.9
 *   has no atomic batch publish). Headers carry the table's numbering:
 *   `Suitors-Seq` (seq of the message's first event), `Suitors-Version` (seq
 *   of its last, the table's version after it), `Suitors-Append` (the
 *   message's position among the table's messages) and `Suitors-Prev` (the
 *   stream sequence of the table's previous message: each table's messages
 *   form a chain a reader can walk back). The body is
 *   `{"events":[{type,at,data}...],"status":<the table's status after it>}`.
 * - optimistic concurrency by the server: every append is published with
 *   `Nats-Expected-Last-Subject-Sequence` = the STREAM sequence of the
 *   table's last message (0 for a new table). Versions (per table) and
 *   stream sequences (global) are different numbers; the store keeps the
 *   mapping as a "head" per table ({version, streamSeq}), learnt from its
 *   own acks or from the table's last message (`STREAM.MSG.GET last_by_subj`,
 *   answered by the stream leader). A stale expectation is refused by the
 *   server and becomes the typed VersionConflict.
 * - a unique `Nats-Msg-Id` per publish attempt-with-one-expectation, so the
 *   client's retries (timeouts, no responders during a leader election)
 *   are deduplicated by the server; a new expectation always gets a new id.
 * - a read asks the stream leader for the table's last message (STREAM.MSG.GET),
 *   so a process reads what any process has had acknowledged, then fetches
 *   the older messages by direct get (the stream has allow_direct), which
 *   any current replica answers rightly or "not found" (a replica behind:
 *   then the leader is asked): back along `Suitors-Prev` to the version
 *   asked for, which after a snapshot is a few messages; a longer read
 *   fetches anchors spread over the subject's range at once and walks back
 *   between them in parallel, checked to form the table's chain. No
 *   consumer (slow to create on R3 with 2.9, and misplaced after a node dies).
 * - KV bucket `<stream>-snapshots`: one value per table, newest kept.
 * - subscribe: an ordered consumer on the stream (one filter subject, as 2.9
 *   requires), so listeners hear what any process appended, once stored, in
 *   stream order; replaced by a new one when its node is lost.
 *
 * Appends to one table run one after another in call order (the second
 * needs the stream sequence the first is given); appends to different
 * tables are published without waiting for each other's acks.
 */
import { randomBytes } from 'node:crypto';
import {
  DiscardPolicy,
  JetStreamApiError,
  jetstream,
  jetstreamManager,
  RetentionPolicy,
  StorageType,
  type ConsumerMessages,
  type JetStreamClient,
  type JetStreamManager,
  type JsMsg,
  type StreamConfig,
} from '@nats-io/jetstream';
import { Kvm, type KV } from '@nats-io/kv';
import { headers as natsHeaders, nanos, type MsgHdrs, type NatsConnection } from '@nats-io/nats-core';
import { connect } from '@nats-io/transport-node';
import {
  VersionConflict,
  type EventStore,
  type NewEvent,
  type StoredEvent,
  type StoredSnapshot,
  type TableStatus,
  type TableSummary,
} from './eventStore.js';
import { NatsRequests } from '../nats/natsRequests.js';
import { retryWhileTransient } from '../nats/transientTrouble.js';
import { checkAppend, checkSnapshot, checkTableId, toJson } from './storeChecks.js';
import { createSubscribers, type ListenerErrorHandler } from './subscribers.js';

export interface JetStreamEventStoreOptions {
  /** Server URLs: a list, or one comma-separated string as NATS_URL holds them. Not used when `connection` is given. */
  readonly servers?: string | readonly string[];
  /** An open connection to share; close() then leaves it open. */
  readonly connection?: NatsConnection;
  /** Replicas of the stream and bucket when this store creates them: 1 on one server, 3 on a cluster (default 1). */
  readonly replicas?: number;
  /** The stream's name (default TABLE_EVENTS); the snapshots bucket is named after it. */
  readonly streamName?: string;
  /** Subject prefix: a table's subject is `<prefix>.<table>.events` (default `tables`). */
  readonly prefix?: string;
  /** How long one request (a publish waiting for its ack, a read) waits for an answer, in ms (default 5000). */
  readonly requestTimeoutMs?: number;
  /**
   * How long an operation keeps trying through timeouts, "no responders" and "temporarily unavailable" (a
   * reconnect, a stream leader election), in ms (default 30000). A publish is retried with its message id and
   * expectation unchanged, so the server stores it once.
   */
  readonly retryForMs?: number;
  /** Messages a read fetches one by one, walking back from the table's last, before it reads the rest forward in parallel (default 24). */
  readonly walkLimit?: number;
  /** @deprecated Ignored: long reads no longer use consumers (they use direct gets). */
  readonly consumerTimeoutMs?: number;
  /** How long open() keeps retrying while JetStream is not ready (a cluster electing its leader), in ms (default 30000). */
  readonly openTimeoutMs?: number;
  /** Called when a subscriber throws; the default writes to stderr. */
  readonly onListenerError?: ListenerErrorHandler;
  /** Called when the subscription feed keeps failing to start; the default writes to stderr. */
  readonly onBackgroundError?: (error: unknown, what: string) => void;
}

/** The names a store derives from its options, for tests and operators. */
export interface JetStreamLayout {
  readonly streamName: string;
  readonly prefix: string;
  /** The subjects the stream captures, `<prefix>.*.events`. */
  readonly filter: string;
  readonly snapshotsBucket: string;
}

export const HEADER_SEQ = 'Suitors-Seq';
export const HEADER_VERSION = 'Suitors-Version';
export const HEADER_APPEND = 'Suitors-Append';
export const HEADER_PREV = 'Suitors-Prev';

const DEFAULT_STREAM = 'TABLE_EVENTS';
const DEFAULT_PREFIX = 'tables';
/** Room left for headers when checking a body against the server's max_payload. */
const HEADER_ROOM = 1024;
const DUPLICATE_WINDOW_MS = 2 * 60_000;

export function jetstreamLayout(options: Pick<JetStreamEventStoreOptions, 'streamName' | 'prefix'> = {}): JetStreamLayout {
  const streamName = options.streamName ?? DEFAULT_STREAM;
  const prefix = options.prefix ?? DEFAULT_PREFIX;
  if (!/^[A-Za-z0-9_-]+$/.test(streamName)) {
    throw new TypeError(`streamName must be letters, digits, '_' or '-', not ${JSON.stringify(streamName)}`);
  }
  if (!/^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*$/.test(prefix)) {
    throw new TypeError(`prefix must be dot-separated tokens of letters, digits, '_' or '-', not ${JSON.stringify(prefix)}`);
  }
  return {
    streamName,
    prefix,
    filter: `${prefix}.*.events`,
    snapshotsBucket: `${streamName}-snapshots`,
  };
}

const PLAIN_TOKEN = /^[A-Za-z0-9_-]+$/;

/**
 * The subject token (and KV key) of a table: the id itself when it is made
 * of letters, digits, '_' and '-' (ids like `t-1a2b3c4d-5e6f` are), else
 * '=' and the base64url of its UTF-8 bytes, so every id maps to one token
 * and back ('=' never starts a plain id).
 */
export function tableToken(tableId: string): string {
  return PLAIN_TOKEN.test(tableId) ? tableId : `=${Buffer.from(tableId, 'utf8').toString('base64url')}`;
}

export function tableIdOfToken(token: string): string {
  return token.startsWith('=') ? Buffer.from(token.slice(1), 'base64url').toString('utf8') : token;
}

/** What the store knows of a table's last message. */
interface Head {
  readonly version: number;
  /** The stream sequence of the table's last message; 0 for a table without one. */
  readonly streamSeq: number;
  /** How many messages (appends) the table's subject holds. */
  readonly appends: number;
  /** The table's status after its last message, as JSON text. */
  readonly statusJson: string | null;
  /** The `at` of the table's last event; '' for none. */
  readonly lastEventAt: string;
}

const EMPTY_HEAD: Head = { version: 0, streamSeq: 0, appends: 0, statusJson: null, lastEventAt: '' };

interface DecodedAppend {
  /** This message's stream sequence. */
  readonly streamSeq: number;
  /** The stream sequence of the table's previous message; 0 for its first. */
  readonly prev: number;
  readonly first: number;
  readonly version: number;
  readonly appends: number;
  readonly events: readonly { readonly type: string; readonly at: string; readonly data: unknown }[];
  readonly status: TableStatus | null;
}

class ConfigurationError extends Error {}

export async function openJetStreamEventStore(options: JetStreamEventStoreOptions = {}): Promise<EventStore> {
  const layout = jetstreamLayout(options);
  const replicas = options.replicas ?? 1;
  if (!Number.isSafeInteger(replicas) || replicas < 1 || replicas > 5) {
    throw new RangeError(`replicas must be 1 to 5, not ${replicas}`);
  }
  const ownsConnection = options.connection === undefined;
  const nc = options.connection ?? (await connect({
    servers: serverList(options.servers),
    name: 'suitors-eventstore',
    maxReconnectAttempts: -1,
    reconnectTimeWait: 250,
    // nats.js would otherwise build an Error, with its stack trace, for every request.
    noAsyncTraces: true,
  }));
  try {
    const opened = await withRetries(options.openTimeoutMs ?? 30_000, async () => {
      const jsm = await jetstreamManager(nc);
      const streamInfo = await ensureStream(jsm, layout, replicas);
      const maxPayload = nc.info?.max_payload ?? 1024 * 1024;
      const kvm = new Kvm(nc);
      // allow_direct off: reads go to the bucket's leader, so a process reads what it has just written.
      const snapshots = await kvm.create(layout.snapshotsBucket, {
        replicas,
        history: 1,
        allow_direct: false,
        storage: StorageType.File,
        maxValueSize: maxPayload,
      });
      return { jsm, snapshots, maxPayload, lastSeq: streamInfo.state.last_seq };
    });
    return createStore(nc, ownsConnection, layout, options, opened);
  } catch (error) {
    if (ownsConnection) await nc.close().catch(() => undefined);
    throw error;
  }
}

function serverList(servers: JetStreamEventStoreOptions['servers']): string[] {
  const list = typeof servers === 'string' ? servers.split(',') : [...(servers ?? ['nats://127.0.0.1:4222'])];
  const trimmed = list.map((server) => server.trim()).filter((server) => server !== '');
  if (trimmed.length === 0) throw new TypeError('openJetStreamEventStore needs at least one server URL');
  return trimmed;
}

/** Runs `attempt` until it succeeds, a ConfigurationError is thrown, or `timeoutMs` has passed. */
async function withRetries<T>(timeoutMs: number, attempt: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await attempt();
    } catch (error) {
      if (error instanceof ConfigurationError || Date.now() >= deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
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
    // The log is append-only: no message is deleted and the stream is not purged (listTables counts messages).
    deny_delete: true,
    deny_purge: true,
    // Reads fetch messages by sequence with direct gets, answered by any current replica (checked against the leader).
    allow_direct: true,
  };
  let info;
  try {
    info = await jsm.streams.info(layout.streamName);
  } catch (error) {
    if (!(error instanceof JetStreamApiError && error.code === 10059)) throw error; // 10059: stream not found
    try {
      info = await jsm.streams.add(config);
    } catch (addError) {
      // 10058: created meanwhile by another process with another configuration; look at what is there.
      if (!(addError instanceof JetStreamApiError && addError.code === 10058)) throw addError;
      info = await jsm.streams.info(layout.streamName);
    }
  }
  if (!(info.config.subjects ?? []).includes(layout.filter)) {
    throw new ConfigurationError(
      `stream ${layout.streamName} exists but captures ${JSON.stringify(info.config.subjects)}, not ${layout.filter}; ` +
        'choose another streamName or prefix',
    );
  }
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

interface Opened {
  readonly jsm: JetStreamManager;
  readonly snapshots: KV;
  readonly maxPayload: number;
  readonly lastSeq: number;
}

function createStore(
  nc: NatsConnection,
  ownsConnection: boolean,
  layout: JetStreamLayout,
  options: JetStreamEventStoreOptions,
  { jsm, snapshots, maxPayload, lastSeq }: Opened,
): EventStore {
  const requestTimeoutMs = options.requestTimeoutMs ?? 5000;
  const js: JetStreamClient = jetstream(nc, { timeout: requestTimeoutMs });
  const requests = new NatsRequests(nc);
  const retryForMs = options.retryForMs ?? 30_000;
  const walkLimit = options.walkLimit ?? 24;
  const reportBackground =
    options.onBackgroundError ?? ((error: unknown, what: string) => console.error(`JetStream event store: ${what}:`, error));
  const subscribers = createSubscribers(options.onListenerError);
  const { streamName, prefix } = layout;
  const subjectOf = (tableId: string) => `${prefix}.${tableToken(tableId)}.events`;

  /** Message ids end with this store's random nonce and a counter: unique across processes without a random draw each. */
  const msgIdNonce = `${randomBytes(9).toString('base64url')}.`;
  let msgIdCount = 0;
  /** Heads learnt from our acks and from lookups; only ever moved forward. */
  const heads = new Map<string, Head>();
  /** The tail of each table's chain of appends (and snapshot saves) in call order. */
  const chains = new Map<string, Promise<unknown>>();
  /** Everything started and not yet settled, for close(). */
  const inflight = new Set<Promise<unknown>>();
  /** The highest stream sequence this store has seen (at open, in acks, lookups and the feed). */
  let highestSeq = lastSeq;
  /** The stream sequence of the message the feed is delivering, for each listener's starting point. */
  let deliveringSeq = 0;
  let feed: { stop(): Promise<void> } | undefined;
  let closed = false;

  function checkOpen(): void {
    if (closed) throw new Error(`the JetStream event store (stream ${streamName}) is closed`);
  }

  function track<T>(promise: Promise<T>): Promise<T> {
    inflight.add(promise);
    const forget = () => inflight.delete(promise);
    promise.then(forget, forget);
    return promise;
  }

  /**
   * js.publish with its expectations, awaited for the stream's ack, over this
   * store's own requests (nats.js's request() builds an Error per answer).
   */
  async function publishForAck(
    subject: string,
    payload: string | Uint8Array,
    expected: { lastSubjectSequence: number; msgID?: string },
    headers: MsgHdrs = natsHeaders(),
  ): Promise<{ seq: number; duplicate: boolean }> {
    headers.set('Nats-Expected-Last-Subject-Sequence', String(expected.lastSubjectSequence));
    if (expected.msgID !== undefined) headers.set('Nats-Msg-Id', expected.msgID);
    const answer = await requests.request(subject, payload, { timeoutMs: requestTimeoutMs, headers });
    const ack = answer.json<{ stream?: string; seq?: number; duplicate?: boolean; error?: { code: number; err_code: number; description: string } }>();
    if (ack.error !== undefined) throw new JetStreamApiError(ack.error);
    if (typeof ack.stream !== 'string' || ack.stream === '' || !Number.isSafeInteger(ack.seq)) {
      throw new Error(`publishing to ${subject} was answered with ${answer.string().slice(0, 200)}, not a stream's ack`);
    }
    return { seq: ack.seq!, duplicate: ack.duplicate === true };
  }

  /** Runs `request` until it is answered, retrying what a leader election or a reconnect causes for `retryForMs`. */
  function persist<T>(request: () => Promise<T>): Promise<T> {
    return retryWhileTransient(request, retryForMs, () => nc.isClosed());
  }

  function learn(tableId: string, head: Head): void {
    const known = heads.get(tableId);
    if (known === undefined || head.streamSeq > known.streamSeq) heads.set(tableId, head);
    if (head.streamSeq > highestSeq) highestSeq = head.streamSeq;
  }

  /** Runs `work` after everything already queued for the table, whatever became of it. */
  function enqueue<T>(tableId: string, work: () => Promise<T>): Promise<T> {
    const previous = chains.get(tableId);
    const run = previous === undefined ? work() : previous.then(work, work);
    const tail = run.then(
      () => undefined,
      () => undefined,
    );
    chains.set(tableId, tail);
    void tail.then(() => {
      if (chains.get(tableId) === tail) chains.delete(tableId);
    });
    return track(run);
  }

  /** The table's last message, from the stream leader. */
  async function lookup(tableId: string): Promise<{ head: Head; last: DecodedAppend | null }> {
    const message = await persist(() => jsm.streams.getMessage(streamName, { last_by_subj: subjectOf(tableId) }));
    if (message === null) return { head: EMPTY_HEAD, last: null };
    const last = decodeAppend(message.subject, message.seq, message.header, message.data);
    const head: Head = {
      version: last.version,
      streamSeq: message.seq,
      appends: last.appends,
      statusJson: last.status === null ? null : JSON.stringify(last.status),
      lastEventAt: last.events[last.events.length - 1]?.at ?? '',
    };
    learn(tableId, head);
    return { head, last };
  }

  async function appendNow(
    tableId: string,
    body: (statusJson: string | null) => Uint8Array,
    count: number,
    expectedVersion: number,
    statusJson: string | undefined,
    lastEventAt: string,
  ): Promise<number> {
    let head = heads.get(tableId);
    let fresh = false; // whether `head` was just read from the stream
    if (head === undefined) {
      // A table this store has not seen: expect it new when the caller does (the server says if it is not).
      if (expectedVersion === 0) head = EMPTY_HEAD;
      else [head, fresh] = [(await lookup(tableId)).head, true];
    }
    for (let attempt = 0; ; attempt++) {
      if (head.version !== expectedVersion) {
        // What we knew may be behind another writer: ask before refusing.
        if (!fresh) [head, fresh] = [(await lookup(tableId)).head, true];
        if (head.version !== expectedVersion) throw new VersionConflict(tableId, expectedVersion, head.version);
      }
      const effectiveStatus = statusJson ?? head.statusJson;
      const payload = body(effectiveStatus);
      const h = natsHeaders();
      h.set(HEADER_SEQ, String(expectedVersion + 1));
      h.set(HEADER_VERSION, String(expectedVersion + count));
      h.set(HEADER_APPEND, String(head.appends + 1));
      h.set(HEADER_PREV, String(head.streamSeq));
      // One id per (append, expectation): retries of this very publish are deduplicated by the server.
      const expected = {
        msgID: `${tableToken(tableId)}/${expectedVersion}/${head.streamSeq}/${msgIdNonce}${(++msgIdCount).toString(36)}`,
        lastSubjectSequence: head.streamSeq,
      };
      let ack;
      try {
        ack = await persist(() => publishForAck(subjectOf(tableId), payload, expected, h));
      } catch (error) {
        if (!isWrongLastSequence(error)) {
          // No answer even after the retries: the append may or may not be stored. Forget the head, so the
          // next append to this table asks the stream first.
          heads.delete(tableId);
          throw error;
        }
        // Another writer moved the table on since we last looked. If it is still where the caller expects (our
        // knowledge was stale, the caller's was not), try again with a fresh expectation and a fresh id.
        [head, fresh] = [(await lookup(tableId)).head, true];
        if (head.version !== expectedVersion || attempt >= 3) {
          throw new VersionConflict(tableId, expectedVersion, head.version === expectedVersion ? null : head.version);
        }
        continue;
      }
      const appended: Head = {
        version: expectedVersion + count,
        streamSeq: ack.seq,
        appends: head.appends + 1,
        statusJson: effectiveStatus,
        lastEventAt,
      };
      learn(tableId, appended);
      return appended.version;
    }
  }

  /**
   * Puts a KV value only if the key is still at `revision` (0: absent), as
   * KV.put({previousSeq}) does, but retried like an append, so a leader
   * election is waited out rather than failed. No message id is needed: a
   * retry of a put that was stored meets a newer revision, and the callers
   * then read the key and find their value (or a newer one) there.
   */
  async function putIfAt(bucket: string, key: string, value: string | Uint8Array, revision: number): Promise<number> {
    return (await persist(() => publishForAck(`$KV.${bucket}.${key}`, value, { lastSubjectSequence: revision }))).seq;
  }

  /** Set while direct gets fail (a stream without allow_direct, say): reads then ask the leader only, for a while. */
  let directOffUntil = 0;

  /**
   * One stored message by a direct get (any current replica answers), or
   * null when the replica that answered does not hold it (yet): replicas
   * hold a prefix of the stream, so an answer is right or empty, never
   * wrong. Callers know the message exists and ask the leader on null.
   */
  async function direct(query: { seq: number } | { seq: number; next_by_subj: string }): Promise<DecodedAppend | null> {
    if (Date.now() < directOffUntil) return null;
    let message;
    try {
      message = await jsm.direct.getMessage(streamName, query);
    } catch {
      directOffUntil = Date.now() + 10_000;
      return null;
    }
    return message === null ? null : decodeAppend(message.subject, message.seq, message.header, message.data);
  }

  /** The message at stream sequence `seq` (known to exist): a direct get, else the leader. */
  async function getAppend(seq: number): Promise<DecodedAppend | null> {
    const found = await direct({ seq });
    if (found !== null) return found;
    const message = await persist(() => jsm.streams.getMessage(streamName, { seq }));
    return message === null ? null : decodeAppend(message.subject, message.seq, message.header, message.data);
  }

  /**
   * The table's messages holding events after `afterVersion`, oldest first:
   * walked back from `last` (read from the leader) along the chain of
   * previous messages; past `walkLimit` messages, the older part is fetched
   * forward by direct gets in parallel, and walked back if that fails.
   */
  async function appendsAfter(tableId: string, last: DecodedAppend, afterVersion: number): Promise<DecodedAppend[]> {
    const newestFirst: DecodedAppend[] = [last];
    let oldest = last;
    let tryForward = true;
    // Messages the read needs, judging by the table's events per message so far: a long read goes forward at once.
    const wanted = afterVersion === 0 ? last.appends : ((last.version - afterVersion) * last.appends) / last.version;
    while (oldest.first > afterVersion + 1 && oldest.prev > 0) {
      if (tryForward && (newestFirst.length >= walkLimit || wanted > 2 * walkLimit)) {
        tryForward = false;
        const older = await appendsForward(subjectOf(tableId), oldest, afterVersion).catch(() => null);
        if (older !== null) return [...older, ...newestFirst.reverse()];
      }
      const previous = await getAppend(oldest.prev);
      if (previous === null) {
        throw new Error(`table ${tableId}: stream message ${oldest.prev}, before ${oldest.streamSeq}, is missing`);
      }
      oldest = previous;
      newestFirst.push(oldest);
    }
    return newestFirst.reverse();
  }

  /**
   * The subject's messages before `before` (all of them, as the chain
   * says: `before.appends - 1`), those holding events after `afterVersion`,
   * by direct gets and without a consumer: the subject's first message,
   * then anchors (`next_by_subj` from evenly spaced stream sequences up to
   * `before`) fetched at once, then the messages between each anchor and
   * the next walked back along `Suitors-Prev` in parallel, so no message
   * is fetched twice. Null when a replica had not the messages yet or the
   * result is not the chain `before` ends (the caller then walks back by
   * the leader), so nothing acknowledged is missed.
   */
  async function appendsForward(subject: string, before: DecodedAppend, afterVersion: number): Promise<DecodedAppend[] | null> {
    const count = before.appends - 1;
    const untilSeq = before.prev;
    const first = await direct({ next_by_subj: subject, seq: 1 });
    if (first === null || first.appends !== 1) return null;
    const span = untilSeq - first.streamSeq;
    const segments = Math.max(1, Math.min(32, Math.ceil(count / 4), span));
    const found = await Promise.all(
      Array.from({ length: segments - 1 }, (_, i) =>
        direct({ next_by_subj: subject, seq: first.streamSeq + 1 + Math.floor(((i + 1) * span) / segments) }),
      ),
    );
    if (found.some((anchor) => anchor === null)) return null; // a replica behind: the message at untilSeq exists
    const anchors = [first];
    for (const anchor of found as DecodedAppend[]) {
      if (anchor.streamSeq > untilSeq) break;
      if (anchor.streamSeq > anchors[anchors.length - 1].streamSeq) anchors.push(anchor);
    }
    anchors.push(before);
    let failed = false;
    // Between anchors[i] and anchors[i + 1]: walked back from the later one, the later one included (but not `before`).
    const parts = await Promise.all(
      anchors.slice(1).map(async (later, i) => {
        const earlier = anchors[i];
        const part: DecodedAppend[] = later === before ? [] : [later];
        let at = later;
        while (!failed && at.prev > earlier.streamSeq) {
          const previous = await direct({ seq: at.prev });
          if (previous === null) {
            failed = true;
            break;
          }
          part.push(previous);
          at = previous;
        }
        if (at.prev !== earlier.streamSeq) failed = true;
        return part.reverse();
      }),
    );
    if (failed) return null;
    const all = [first, ...parts.flat()];
    if (all.length !== count) return null;
    let prevSeq = 0;
    for (const [index, message] of all.entries()) {
      if (message.appends !== index + 1 || message.prev !== prevSeq) return null;
      prevSeq = message.streamSeq;
    }
    if (prevSeq !== untilSeq) return null;
    return all.filter((message) => message.version > afterVersion);
  }

  // ---- the subscription feed ----

  function ensureFeed(fromSeq: number): void {
    if (feed !== undefined) return;
    let position = fromSeq; // the last stream sequence delivered (or skipped)
    let stopped = false;
    let messages: ConsumerMessages | undefined;
    const run = async () => {
      let failures = 0;
      while (!stopped) {
        try {
          // An ordered consumer: in stream order, without gaps or repeats; it recreates itself on a hiccup.
          const consumer = await js.consumers.get(streamName, { filter_subjects: layout.filter, opt_start_seq: position + 1 });
          if (stopped) return;
          // Short pulls: a consumer lost with its node is noticed (two missed heartbeats, 4 s) quickly.
          const current = await consumer.consume({ max_messages: 1000, expires: 4000 });
          messages = current;
          if (stopped) {
            await current.close();
            return;
          }
          // When the consumer's node is gone, the ordered consumer asks after it forever (2.9 keeps it assigned to
          // the dead node), and after a reconnect it does not even count missed heartbeats. So: a feed that has
          // heard nothing, not even a heartbeat (every 2 s), for 8 s is replaced by a new consumer from where it
          // stopped.
          let heardAt = Date.now();
          const watchdog = setInterval(() => {
            if (Date.now() - heardAt > 8000) void current.stop();
          }, 2000).unref();
          void (async () => {
            for await (const status of current.status()) {
              if (status.type === 'heartbeat') heardAt = Date.now();
              if (status.type === 'heartbeats_missed' && status.count >= 2) void current.stop();
            }
          })().catch(() => undefined);
          try {
            for await (const message of current) {
              heardAt = Date.now();
              failures = 0;
              position = message.seq;
              deliver(message);
            }
          } finally {
            clearInterval(watchdog);
          }
          if (!stopped) await new Promise((resolve) => setTimeout(resolve, 250));
        } catch (error) {
          if (stopped) return;
          // An election takes a few seconds: only a feed that stays down is worth a report.
          if (++failures % 10 === 3) reportBackground(error, `the subscription feed (${failures} failed starts; retrying)`);
          await new Promise((resolve) => setTimeout(resolve, 1000));
        }
      }
    };
    const running = run();
    feed = {
      async stop() {
        stopped = true;
        await messages?.close().catch(() => undefined);
        await running;
      },
    };
  }

  function deliver(message: JsMsg): void {
    if (message.seq > highestSeq) highestSeq = message.seq;
    if (subscribers.size === 0) return;
    let decoded: DecodedAppend;
    let tableId: string;
    try {
      tableId = tableIdOfToken(message.subject.slice(prefix.length + 1, -'.events'.length));
      decoded = decodeAppend(message.subject, message.seq, message.headers, message.data);
    } catch (error) {
      reportBackground(error, `decoding stream message ${message.seq} for subscribers`);
      return;
    }
    deliveringSeq = message.seq;
    decoded.events.forEach((event, index) => {
      subscribers.publish(tableId, { seq: decoded.first + index, type: event.type, at: event.at, data: event.data });
    });
  }

  return {
    append(tableId: string, events: readonly NewEvent[], expectedVersion: number, status?: TableStatus) {
      try {
        checkOpen();
        checkAppend(tableId, events, expectedVersion);
        // Encoded now, so the caller may reuse its objects as soon as append returns.
        const eventsJson = events
          .map(
            (event, index) =>
              `{"type":${JSON.stringify(event.type)},"at":${JSON.stringify(event.at)},"data":${toJson(
                event.data,
                `data of event ${index + 1} (${event.type}) for table ${tableId}`,
              )}}`,
          )
          .join(',');
        const statusJson = status === undefined ? undefined : toJson(status, `status of table ${tableId}`);
        const encoder = new TextEncoder();
        const body = (effectiveStatus: string | null) => {
          const bytes = encoder.encode(`{"events":[${eventsJson}],"status":${effectiveStatus ?? 'null'}}`);
          if (bytes.length > maxPayload - HEADER_ROOM) {
            throw new RangeError(
              `append to table ${tableId} is ${bytes.length} bytes; one append (all its events) must fit in ` +
                `${maxPayload - HEADER_ROOM} bytes (the server's max_payload less room for headers)`,
            );
          }
          return bytes;
        };
        body(statusJson ?? null); // refuse an oversized append before it is queued
        const lastEventAt = events[events.length - 1].at;
        return enqueue(tableId, () => appendNow(tableId, body, events.length, expectedVersion, statusJson, lastEventAt));
      } catch (error) {
        return Promise.reject(error);
      }
    },

    async read(tableId: string, afterVersion = 0) {
      checkOpen();
      checkTableId(tableId);
      const { head, last } = await lookup(tableId);
      if (last === null || head.version <= afterVersion) return [];
      const events: StoredEvent[] = [];
      for (const decoded of await appendsAfter(tableId, last, afterVersion)) {
        decoded.events.forEach((event, index) => {
          const seq = decoded.first + index;
          if (seq > afterVersion) events.push({ seq, type: event.type, at: event.at, data: event.data });
        });
      }
      return events;
    },

    async version(tableId: string) {
      checkOpen();
      checkTableId(tableId);
      return (await lookup(tableId)).head.version;
    },

    async listTables() {
      checkOpen();
      // The stream's per-subject message counts name every table that has a log; its last message says the rest.
      const info = await persist(() => jsm.streams.info(streamName, { subjects_filter: layout.filter }));
      const subjects = Object.keys(info.state.subjects ?? {});
      const summaries = await Promise.all(
        subjects.map(async (subject): Promise<TableSummary> => {
          const tableId = tableIdOfToken(subject.slice(prefix.length + 1, -'.events'.length));
          const { head } = await lookup(tableId);
          return {
            tableId,
            version: head.version,
            lastEventAt: head.lastEventAt,
            status: head.statusJson === null ? null : (JSON.parse(head.statusJson) as TableStatus),
          };
        }),
      );
      return summaries.sort((a, b) => (a.tableId < b.tableId ? -1 : a.tableId > b.tableId ? 1 : 0));
    },

    subscribe(listener) {
      // A listener hears events at stream sequences after what this store had seen when it subscribed.
      const from = highestSeq;
      const unsubscribe = subscribers.add((tableId, event) => {
        if (deliveringSeq > from) listener(tableId, event);
      });
      if (!closed) ensureFeed(from);
      return unsubscribe;
    },

    saveSnapshot(tableId: string, snapshot: StoredSnapshot) {
      try {
        checkOpen();
        checkSnapshot(tableId, snapshot, Number.MAX_SAFE_INTEGER);
        const snapshotJson = toJson(snapshot.snapshot, `snapshot of table ${tableId}`);
        const value = new TextEncoder().encode(`{"version":${snapshot.version},"snapshot":${snapshotJson}}`);
        if (value.length > maxPayload - HEADER_ROOM) {
          throw new RangeError(
            `snapshot of table ${tableId} is ${value.length} bytes; the JetStream store keeps snapshots up to ` +
              `${maxPayload - HEADER_ROOM} bytes (the server's max_payload less room for headers)`,
          );
        }
        // After the table's queued appends, as the caller ordered them.
        return enqueue(tableId, async () => {
          const known = heads.get(tableId);
          const current = known !== undefined && known.version >= snapshot.version ? known : (await lookup(tableId)).head;
          checkSnapshot(tableId, snapshot, current.version);
          const key = tableToken(tableId);
          for (let attempt = 0; attempt < 10; attempt++) {
            const entry = await persist(() => snapshots.get(key));
            const live = entry !== null && entry.operation === 'PUT';
            // A snapshot older than the one kept is a stale writer's; the newer cache entry stays. After a
            // conflict, one at our version is ours (a retried put that was stored) or as good as ours.
            const kept = live ? entry.json<{ version: number }>().version : -1;
            if (kept > snapshot.version || (attempt > 0 && kept === snapshot.version)) return;
            try {
              await putIfAt(layout.snapshotsBucket, key, value, entry?.revision ?? 0);
              return;
            } catch (error) {
              if (!isWrongLastSequence(error)) throw error;
            }
          }
          throw new Error(`the snapshot of table ${tableId} kept changing under this writer`);
        });
      } catch (error) {
        return Promise.reject(error);
      }
    },

    async loadSnapshot(tableId: string) {
      checkOpen();
      checkTableId(tableId);
      const entry = await persist(() => snapshots.get(tableToken(tableId)));
      if (entry === null || entry.operation !== 'PUT') return null;
      const { version, snapshot } = entry.json<{ version: number; snapshot: unknown }>();
      return { version, snapshot };
    },

    // Appends and snapshot saves already requested finish (or fail) before the connection is closed.
    async close() {
      if (closed) return;
      closed = true;
      while (inflight.size > 0) await Promise.allSettled([...inflight]);
      await feed?.stop();
      requests.close();
      if (ownsConnection) await nc.close();
    },
  };
}

function decodeAppend(subject: string, seq: number, headers: MsgHdrs | undefined, data: Uint8Array): DecodedAppend {
  const first = Number(headers?.get(HEADER_SEQ));
  const version = Number(headers?.get(HEADER_VERSION));
  const appends = Number(headers?.get(HEADER_APPEND));
  const prev = Number(headers?.get(HEADER_PREV));
  if (![first, version, appends, prev].every(Number.isSafeInteger) || first < 1) {
    throw new Error(`stream message ${seq} on ${subject} is not an event store append (no ${HEADER_SEQ} headers)`);
  }
  const body = JSON.parse(new TextDecoder().decode(data)) as Pick<DecodedAppend, 'events' | 'status'>;
  if (!Array.isArray(body.events) || body.events.length !== version - first + 1) {
    throw new Error(`stream message ${seq} on ${subject} holds ${body.events?.length} events, not ${version - first + 1}`);
  }
  return { streamSeq: seq, prev, first, version, appends, events: body.events, status: body.status ?? null };
}

function isWrongLastSequence(error: unknown): boolean {
  // 10071: wrong last sequence; 10164: wrong last sequence, unknown (newer servers).
  return error instanceof JetStreamApiError && (error.code === 10071 || error.code === 10164);
}
