/**
 * A trace's context across a NATS request: the W3C `traceparent` header
 * (https://www.w3.org/TR/trace-context/), written by the sender's span and
 * read by the receiver as the parent of its own. Only the header's version
 * 00 is read; one that is missing or malformed starts a new trace, and is
 * never a reason to refuse the message. (@opentelemetry/core's
 * W3CTraceContextPropagator does the same, but it is not one of the
 * service's dependencies.)
 */
import { headers, type MsgHdrs } from '@nats-io/nats-core';
import { type Context, isSpanContextValid, ROOT_CONTEXT, type SpanContext, TraceFlags, trace } from '@opentelemetry/api';

export const TRACEPARENT = 'traceparent';
const TRACEPARENT_V00 = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;

/** The headers that carry `context`'s span to the receiver; undefined when it has none to carry (tracing off). */
export function traceHeaders(context: Context | undefined): MsgHdrs | undefined {
  const span = context === undefined ? undefined : trace.getSpanContext(context);
  if (span === undefined || !isSpanContextValid(span)) return undefined;
  const carried = headers();
  const flags = span.traceFlags & TraceFlags.SAMPLED ? '01' : '00';
  carried.set(TRACEPARENT, `00-${span.traceId}-${span.spanId}-${flags}`);
  return carried;
}

/** The sender's span as the parent of the receiver's, or no parent when the message carries none. */
export function tracedFrom(carried: MsgHdrs | undefined): Context {
  const match = TRACEPARENT_V00.exec(carried?.get(TRACEPARENT) ?? '');
  if (match === null) return ROOT_CONTEXT;
  const [, traceId, spanId, flags] = match;
  const sender: SpanContext = { traceId, spanId, traceFlags: Number.parseInt(flags, 16) & TraceFlags.SAMPLED, isRemote: true };
  return isSpanContextValid(sender) ? trace.setSpanContext(ROOT_CONTEXT, sender) : ROOT_CONTEXT;
}
