/**
 * A command for a table another worker holds goes to that worker, once:
 * the owner's answer is relayed as it came, and an owner that is not
 * running or does not answer makes the command `unavailable`, for the
 * gateway to send again.
 */
import type { Msg, NatsConnection } from '@nats-io/nats-core';
import type { Context } from '@opentelemetry/api';
import { encode, TableUnavailable, type TableCommandRequest } from '../bus/protocol.js';
import { isRoutableTableId, type TableSubjects } from '../bus/subjects.js';
import { isNoResponders } from '../nats/natsErrors.js';
import { traceHeaders } from '../tracing/traceHeaders.js';

export interface Forwarding {
  readonly nc: NatsConnection;
  readonly subjects: TableSubjects;
  readonly workerId: string;
  /** How long to wait for the owner's answer. */
  readonly timeoutMs: number;
  /** Said in the refusal: how long at most until the owner's lease expires and the table is free. */
  readonly leaseTtlMs: number;
}

/** Passes the command to the worker holding the table's claim, and its answer back; never twice. */
export async function forwardToOwner(
  forwarding: Forwarding,
  msg: Msg,
  request: TableCommandRequest,
  { owner, traced }: { readonly owner: string; readonly traced: Context },
): Promise<void> {
  const { tableId } = request;
  if (request.forwardedBy !== undefined || !isRoutableTableId(owner)) {
    throw new TableUnavailable(`table ${tableId} is owned by ${owner}, which did not take the command; try again`);
  }
  try {
    const answer = await forwarding.nc.request(
      forwarding.subjects.commandFor(tableId, owner),
      encode({ ...request, forwardedBy: forwarding.workerId }),
      // The owner's spans are a part of the command's trace, as children of this worker's.
      { timeout: forwarding.timeoutMs, headers: traceHeaders(traced) },
    );
    msg.respond(answer.data);
  } catch (error) {
    const why = isNoResponders(error) ? 'is not running' : 'did not answer in time';
    throw new TableUnavailable(`table ${tableId} is owned by ${owner}, which ${why}; its lease expires within ${forwarding.leaseTtlMs} ms`);
  }
}
