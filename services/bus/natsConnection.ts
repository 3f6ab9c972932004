/**
 * How a distributed process (table worker or gateway) connects to NATS. What
 * it connects to (NATS_URL and the rest) is read with every other setting in
 * services/settings.ts.
 */
import { connect } from '@nats-io/transport-node';
import type { NatsConnection } from '@nats-io/nats-core';

/** Connects to the cluster, reconnecting for as long as the process runs (a restarted cluster is found again). */
export function connectToNats(servers: readonly string[], name: string): Promise<NatsConnection> {
  // No async traces: nats.js would otherwise build an Error (a stack trace) for every request, a sixth of a worker's CPU.
  return connect({
    servers: [...servers],
    name,
    maxReconnectAttempts: -1,
    reconnectTimeWait: 250,
    waitOnFirstConnect: true,
    noAsyncTraces: true,
  });
}
