/**
 * How a distributed process (table worker or gateway) finds NATS, from the
 * environment: the one place these variables are read and their defaults
 * written down.
 *
 * - NATS_URL: the servers, comma-separated (any of them will do; the client
 *   learns the rest of the cluster). Without it the service runs embedded.
 * - NATS_REPLICAS: replicas of the event stream and the buckets when a
 *   process creates them: 3 on a 3-node cluster (default: 3 when NATS_URL
 *   names three or more servers, else 1).
 * - NATS_STREAM, NATS_PREFIX: the event stream's name (TABLE_EVENTS) and
 *   the subject prefix (tables), to keep two deployments apart on one NATS:
 *   the lease buckets are named after the stream, commands go under the
 *   prefix.
 * - LEASE_TTL_MS: how long a worker's lease outlives its last renewal,
 *   so how soon a crashed worker's tables move (unset: the worker's default,
 *   DEFAULT_LEASE_TTL_MS in services/worker/tableLeases.ts, 10 s).
 */
import { connect } from '@nats-io/transport-node';
import type { NatsConnection } from '@nats-io/nats-core';
import { jetstreamLayout } from '../eventstore/jetstream/index.js';

export interface NatsSettings {
  readonly servers: string[];
  readonly replicas: number;
  readonly streamName: string;
  readonly prefix: string;
  /** Undefined when LEASE_TTL_MS is not set: the worker then keeps its own default (the bus does not know the worker's). */
  readonly leaseTtlMs: number | undefined;
}

/** The settings in `env`, or null when NATS_URL is not set (the embedded service). */
export function natsSettingsFrom(env: NodeJS.ProcessEnv = process.env): NatsSettings | null {
  const url = env.NATS_URL?.trim();
  if (url === undefined || url === '') return null;
  const servers = url.split(',').map((server) => server.trim()).filter((server) => server !== '');
  const replicas = wholeNumber(env, 'NATS_REPLICAS') ?? (servers.length >= 3 ? 3 : 1);
  if (replicas < 1 || replicas > 5) throw new RangeError(`NATS_REPLICAS must be 1 to 5, not ${replicas}`);
  const leaseTtlMs = wholeNumber(env, 'LEASE_TTL_MS');
  if (leaseTtlMs !== undefined && leaseTtlMs < 100) throw new RangeError(`LEASE_TTL_MS must be at least 100, not ${leaseTtlMs}`);
  const { streamName, prefix } = jetstreamLayout({
    ...(env.NATS_STREAM ? { streamName: env.NATS_STREAM } : {}),
    ...(env.NATS_PREFIX ? { prefix: env.NATS_PREFIX } : {}),
  });
  return { servers, replicas, streamName, prefix, leaseTtlMs };
}

/** The whole number `name` is set to, or undefined when it is not set. */
function wholeNumber(env: NodeJS.ProcessEnv, name: string): number | undefined {
  const text = env[name]?.trim();
  if (text === undefined || text === '') return undefined;
  const value = Number(text);
  if (!Number.isSafeInteger(value)) throw new RangeError(`${name} must be a whole number, not ${JSON.stringify(text)}`);
  return value;
}

/** Connects to the cluster, reconnecting for as long as the process runs (a restarted cluster is found again). */
export function connectToNats(servers: readonly string[], name: string): Promise<NatsConnection> {
  // No async traces: nats.js would otherwise build an Error (a stack trace) for every request, a sixth of a worker's CPU.
  return connect({ servers: [...servers], name, maxReconnectAttempts: -1, reconnectTimeWait: 250, waitOnFirstConnect: true, noAsyncTraces: true });
}
