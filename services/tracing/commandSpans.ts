/**
 * The spans of one command, wherever it is served: one set of names and
 * attributes for every process, so a trace reads the same across the
 * gateway, the NATS hop and the table's owner. A span says which table,
 * which command type and which event seq, and why a command was refused by
 * the refusal's kind alone: a command's content and a refusal's words may
 * name cards a seat holds (RULES.md section 8), and whoever reads traces is
 * no seat.
 */
import {
  type Attributes,
  type Context,
  INVALID_SPAN_CONTEXT,
  isSpanContextValid,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  type Tracer,
  trace,
} from '@opentelemetry/api';
import { isTracing } from './tracing.js';

export const TABLE_ID = 'suitors.table_id';
/** The seq of the first event the command appended (a hand's last card is followed by its reveal and the next deal). */
export const EVENT_SEQ = 'suitors.event_seq';
export const COMMAND_TYPE = 'suitors.command_type';
export const REFUSAL = 'suitors.refusal';

/** As long as any command type is: what a client may make a span hold is bounded. */
const COMMAND_TYPE_FORMAT = /^[A-Za-z.]{1,40}$/;

/** A command's table and type: all a span says of it. */
export function commandAttributes(tableId: string, command: unknown): Attributes {
  const type = (command as { type?: unknown } | null)?.type;
  return { [TABLE_ID]: tableId, [COMMAND_TYPE]: typeof type === 'string' && COMMAND_TYPE_FORMAT.test(type) ? type : 'unknown' };
}

/** Every span the service starts, from a command's outside in (README.md here); the tests and the walkthrough name them so. */
export const SPAN_NAMES = {
  gatewayCommand: 'gateway command',
  natsRequest: 'nats request',
  workerRequest: 'worker request',
  queue: 'table queue',
  step: 'machine step',
  append: 'log append',
} as const;

/** What the work of a command no tracer records is handed for its span: it records nothing and carries no context. */
const UNRECORDED_SPAN: Span = trace.wrapSpanContext(INVALID_SPAN_CONTEXT);

export interface SpanStart {
  /** The span this one is a part of; none: it starts a trace. */
  readonly parent?: Context | undefined;
  readonly kind?: SpanKind;
  readonly attributes: Attributes;
}

/**
 * Runs `work` in a span, handing it the context its own spans and requests
 * are to be children of; the span ends when the work does, marked with the
 * refusal's kind if it throws.
 */
export async function inSpan<T>(
  tracer: Tracer,
  name: string,
  start: SpanStart,
  work: (traced: Context, span: Span) => Promise<T>,
): Promise<T> {
  const parent = start.parent ?? ROOT_CONTEXT;
  if (!isTracing(tracer)) return work(parent, UNRECORDED_SPAN);
  const span = tracer.startSpan(name, { kind: start.kind ?? SpanKind.INTERNAL, attributes: start.attributes }, parent);
  try {
    return await work(contextOf(span, parent), span);
  } catch (error) {
    noteRefused(span, kindOf(error));
    throw error;
  } finally {
    span.end();
  }
}

/**
 * The context of `span` under `parent`. A span of the no-op tracer (tracing
 * off) adds nothing to it; one the sampler left out still does, so the
 * worker hears that the command's trace is not kept, rather than starting a
 * trace of its own.
 */
export function contextOf(span: Span, parent: Context): Context {
  return span.isRecording() || isSpanContextValid(span.spanContext()) ? trace.setSpan(parent, span) : parent;
}

/** Marks the span with the events its command appended. */
export function noteAppended(span: Span, events: readonly { readonly seq: number }[]): void {
  if (events.length > 0) span.setAttribute(EVENT_SEQ, events[0].seq);
}

/** Marks the span as refused, by the refusal's kind (never its message: it may name a seat's cards). */
export function noteRefused(span: Span, kind: string): void {
  span.setAttribute(REFUSAL, kind);
  span.setStatus({ code: SpanStatusCode.ERROR, message: kind });
}

/** A refusal's kind (the host's, the gateway's and the bus's errors each carry one), else the error's class. */
export function kindOf(error: unknown): string {
  const kind = (error as { kind?: unknown } | null)?.kind;
  if (typeof kind === 'string') return kind;
  return error instanceof Error ? error.name : 'thrown';
}
