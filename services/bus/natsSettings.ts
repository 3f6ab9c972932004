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
 * - LEASE_TTL_MS: how long a worker's lease outlives its last renewal
 *   (default 10000), so how soon a crashed worker's tables move.
 */
import { connect } from '@nats-io/transport-node';
import type { NatsConnection } from '@nats-io/nats-core';
import { jetstreamLayout } from '../eventstore/jetstream/index.js';
import { DEFAULT_LEASE_TTL_MS } from '../worker/tableLeases.js';

export interface NatsSettings {
  readonly servers: string[];
  readonly replicas: number;
  readonly streamName: string;
  readonly prefix: string;
  readonly leaseTtlMs: number;
}

/** The settings in `env`, or null when NATS_URL is not set (the embedded service). */
export function natsSettingsFrom(env: NodeJS.ProcessEnv = process.env): NatsSettings | null {
  const url = env.NATS_URL?.trim();
  if (url === undefined || url === '') return null;
  const servers = url.split(',').map((server) => server.trim()).filter((server) => server !== '');
  const replicas = wholeNumber(env, 'NATS_REPLICAS', servers.length >= 3 ? 3 : 1);
  if (replicas < 1 || replicas > 5) throw new RangeError(`NATS_REPLICAS must be 1 to 5, not ${replicas}`);
  const leaseTtlMs = wholeNumber(env, 'LEASE_TTL_MS', DEFAULT_LEASE_TTL_MS);
  if (leaseTtlMs < 100) throw new RangeError(`LEASE_TTL_MS must be at least 100, not ${leaseTtlMs}`);
  const { streamName, prefix } = jetstreamLayout({
    ...(env.NATS_STREAM ? { streamName: env.NATS_STREAM } : {}),
    ...(env.NATS_PREFIX ? { prefix: env.NATS_PREFIX } : {}),
  });
  return { servers, replicas, streamName, prefix, leaseTtlMs };
}

function wholeNumber(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const text = env[name]?.trim();
  if (text === undefined || text === '') return fallback;
  const value = Number(text);
  if (!Number.isSafeInteger(value)) throw new RangeError(`${name} must be a whole number, not ${JSON.stringify(text)}`);
  return value;
}

/** Connects to the cluster, reconnecting for as long as the process runs (a restarted cluster is found again). */
export function connectToNats(servers: readonly string[], name: string): Promise<NatsConnection> {
  // No async traces: nats.js would otherwise build an Error (a stack trace) for every request, a sixth of a worker's CPU.
  return connect({ servers: [...servers], name, maxReconnectAttempts: -1, reconnectTimeWait: 250, waitOnFirstConnect: true, noAsyncTraces: true });
}
