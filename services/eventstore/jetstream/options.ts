import type { ConnectionOptions, NatsConnection } from '@nats-io/nats-core';
import type { ListenerErrorHandler } from '../subscribers.js';

export interface JetStreamEventStoreOptions {
  /** Server URLs: a list, or one comma-separated string as NATS_URL holds them. Not used when `connection` is given. */
  readonly servers?: string | readonly string[];
  /** How to connect when no `connection` is given: servers, credentials, TLS (services/nats/connection.ts makes them); `servers` wins. */
  readonly connectOptions?: ConnectionOptions;
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
  /**
   * Whether opening creates the stream and the snapshots bucket when they are missing (default true). A reader
   * whose permissions do not let it create them (a gateway) opens with false: it waits for them to exist.
   */
  readonly createMissing?: boolean;
  /** How long open() keeps retrying while JetStream is not ready (a cluster electing its leader), in ms (default 30000). */
  readonly openTimeoutMs?: number;
  /** Called when a subscriber throws; the default writes to stderr. */
  readonly onListenerError?: ListenerErrorHandler;
  /** Called when the subscription feed keeps failing to start; the default writes to stderr. */
  readonly onBackgroundError?: (error: unknown, what: string) => void;
}
