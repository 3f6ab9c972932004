/**
 * The JetStream event store: the parts of this folder put together behind
 * the EventStore interface, with the checks every call makes and the order
 * close() keeps.
 */
import { jetstream, type JetStreamManager } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/nats-core';
import { TableQueues } from '../../tableQueues/tableQueues.js';
import type { EventStore, TableStatus, TableSummary } from '../eventStore.js';
import { checkTableId } from '../storeChecks.js';
import { TableAppends } from './appends.js';
import { SubscriptionFeed } from './feed.js';
import { TableHeads } from './heads.js';
import { jetstreamLayout, tableIdOfSubject, type JetStreamLayout } from './layout.js';
import type { JetStreamEventStoreOptions } from './options.js';
import { TableReads } from './reads.js';
import { TableRetirements } from './retirements.js';
import { ServerRequests } from './serverRequests.js';
import { connectToServers, openStreamAndBucket, type OpenedStream } from './setup.js';
import { TableSnapshots } from './snapshots.js';

export async function openJetStreamEventStore(options: JetStreamEventStoreOptions = {}): Promise<EventStore> {
  const layout = jetstreamLayout(options);
  const replicas = options.replicas ?? 1;
  if (!Number.isSafeInteger(replicas) || replicas < 1 || replicas > 5) {
    throw new RangeError(`replicas must be 1 to 5, not ${replicas}`);
  }
  const ownsConnection = options.connection === undefined;
  const nc = options.connection ?? (await connectToServers(options.servers, options.connectOptions));
  try {
    const opened = await openStreamAndBucket(nc, layout, {
      replicas,
      timeoutMs: options.openTimeoutMs ?? 30_000,
      createMissing: options.createMissing ?? true,
    });
    return createStore(nc, ownsConnection, layout, options, opened);
  } catch (error) {
    if (ownsConnection) await nc.close().catch(() => undefined);
    throw error;
  }
}

/** The parts a store is made of, over one connection and stream; `isOpen` tells the feed when to stop. */
function storeParts(
  nc: NatsConnection,
  layout: JetStreamLayout,
  options: JetStreamEventStoreOptions,
  { jsm, snapshots: snapshotsBucket, maxPayload, lastSeq, mayPurge }: OpenedStream,
  isOpen: () => boolean,
) {
  const requestTimeoutMs = options.requestTimeoutMs ?? 5000;
  const server = new ServerRequests(nc, requestTimeoutMs, options.retryForMs ?? 30_000);
  const reportBackground =
    options.onBackgroundError ?? ((error: unknown, what: string) => console.error(`JetStream event store: ${what}:`, error));
  const heads = new TableHeads(jsm, layout, server, lastSeq);
  // One queue per table for appends and snapshot saves: each needs the stream sequence the one before was given.
  const queues = new TableQueues();
  const appends = new TableAppends(layout, server, heads, queues, maxPayload);
  const reads = new TableReads(jsm, layout, server, heads, options.walkLimit ?? 24);
  const snapshots = new TableSnapshots(snapshotsBucket, layout, server, heads, queues, maxPayload);
  const retirements = new TableRetirements({
    jsm,
    snapshots: snapshotsBucket,
    layout,
    server,
    heads,
    appends,
    queues,
    maxPayload,
    mayPurge,
  });
  const feed = new SubscriptionFeed(
    jetstream(nc, { timeout: requestTimeoutMs }),
    layout,
    heads,
    isOpen,
    reportBackground,
    options.onListenerError,
  );
  return { jsm, server, heads, queues, appends, reads, snapshots, retirements, feed };
}

function createStore(
  nc: NatsConnection,
  ownsConnection: boolean,
  layout: JetStreamLayout,
  options: JetStreamEventStoreOptions,
  opened: OpenedStream,
): EventStore {
  let closed = false;
  const { jsm, server, heads, queues, appends, reads, snapshots, retirements, feed } = storeParts(
    nc,
    layout,
    options,
    opened,
    () => !closed,
  );

  function checkOpen(): void {
    if (closed) throw new Error(`the JetStream event store (stream ${layout.streamName}) is closed`);
  }

  return {
    append(tableId, events, expectedVersion, status) {
      return rejectingWhatThrows(() => {
        checkOpen();
        return appends.append(tableId, events, expectedVersion, status);
      });
    },

    async read(tableId, afterVersion = 0) {
      checkOpen();
      checkTableId(tableId);
      // Never a copy that an append still on its way could overtake (appends.ts).
      await appends.settle(tableId);
      return reads.read(tableId, afterVersion);
    },

    async version(tableId) {
      checkOpen();
      checkTableId(tableId);
      return (await heads.lookup(tableId)).head.version;
    },

    async listTables() {
      checkOpen();
      return tablesInStream(jsm, layout, server, heads);
    },

    subscribe(listener) {
      return feed.subscribe(listener);
    },

    saveSnapshot(tableId, snapshot) {
      return rejectingWhatThrows(() => {
        checkOpen();
        return snapshots.save(tableId, snapshot);
      });
    },

    async loadSnapshot(tableId) {
      checkOpen();
      checkTableId(tableId);
      return snapshots.load(tableId);
    },

    retire: whileOpen(checkOpen, (tableId, retirement) => retirements.retire(tableId, retirement)),
    retired: whileOpen(checkOpen, (tableId) => retirements.retired(tableId)),

    // Appends and snapshot saves already requested finish (or fail) before the connection is closed; none
    // can be queued after `closed` is set, so one wait for the queues is enough.
    async close() {
      if (closed) return;
      closed = true;
      await queues.idle();
      await feed.stop();
      server.close();
      if (ownsConnection) await nc.close();
    },
  };
}

/** Every table that has a log, named by the stream's per-subject message counts, as its last message sums it up. */
async function tablesInStream(
  jsm: JetStreamManager,
  layout: JetStreamLayout,
  server: ServerRequests,
  heads: TableHeads,
): Promise<TableSummary[]> {
  const info = await server.persist(() => jsm.streams.info(layout.streamName, { subjects_filter: layout.filter }));
  const subjects = Object.keys(info.state.subjects ?? {});
  const summaries = await Promise.all(subjects.map((subject) => summaryOf(heads, tableIdOfSubject(layout, subject))));
  return summaries.filter((summary) => summary !== null).sort((a, b) => (a.tableId < b.tableId ? -1 : a.tableId > b.tableId ? 1 : 0));
}

/** The table's summary as its last message tells it (the message carries the version, status and time); null once retired. */
async function summaryOf(heads: TableHeads, tableId: string): Promise<TableSummary | null> {
  const { head } = await heads.lookup(tableId);
  if (head.retired) return null;
  return {
    tableId,
    version: head.version,
    lastEventAt: head.lastEventAt,
    status: head.statusJson === null ? null : (JSON.parse(head.statusJson) as TableStatus),
  };
}

/** `call`, refused once the store is closed. */
function whileOpen<A extends unknown[], R>(checkOpen: () => void, call: (...args: A) => Promise<R>): (...args: A) => Promise<R> {
  return async (...args) => {
    checkOpen();
    return call(...args);
  };
}

/** A refusal found before anything is queued still reaches the caller as a rejected promise, not a throw. */
function rejectingWhatThrows<T>(start: () => Promise<T>): Promise<T> {
  try {
    return start();
  } catch (error) {
    return Promise.reject(error);
  }
}
