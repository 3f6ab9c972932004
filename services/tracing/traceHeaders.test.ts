import { headers } from '@nats-io/nats-core';
import { ROOT_CONTEXT, trace, TraceFlags } from '@opentelemetry/api';
import { AlwaysOffSampler, BasicTracerProvider, InMemorySpanExporter } from '@opentelemetry/sdk-trace-base';
import { describe, expect, it } from 'vitest';
import { contextOf, SPAN_NAMES } from './commandSpans.js';
import { TRACEPARENT, traceHeaders, tracedFrom } from './traceHeaders.js';
import { NO_TRACING, startTracing } from './tracing.js';

describe("a trace's context in a NATS message's headers", () => {
  it("carries the sender's span to the receiver, as its remote parent", () => {
    const { tracer } = startTracing({
      service: 'suitors-gateway',
      settings: { export: 'off', url: undefined },
      exporter: new InMemorySpanExporter(),
    });
    const span = tracer.startSpan(SPAN_NAMES.natsRequest);
    const carried = traceHeaders(trace.setSpan(ROOT_CONTEXT, span));
    const { traceId, spanId } = span.spanContext();
    expect(carried?.get(TRACEPARENT)).toBe(`00-${traceId}-${spanId}-01`);
    expect(trace.getSpanContext(tracedFrom(carried))).toEqual({ traceId, spanId, traceFlags: TraceFlags.SAMPLED, isRemote: true });
  });

  it('adds no header when tracing is off: its spans carry no context', () => {
    const span = NO_TRACING.tracer.startSpan(SPAN_NAMES.natsRequest);
    expect(span.isRecording()).toBe(false);
    expect(contextOf(span, ROOT_CONTEXT)).toBe(ROOT_CONTEXT);
    expect(traceHeaders(trace.setSpan(ROOT_CONTEXT, span))).toBeUndefined();
    expect(traceHeaders(undefined)).toBeUndefined();
  });

  it('tells the receiver that a trace the sampler left out is not kept, so it keeps none of it either', () => {
    const tracer = new BasicTracerProvider({ sampler: new AlwaysOffSampler() }).getTracer('test');
    const span = tracer.startSpan(SPAN_NAMES.gatewayCommand);
    expect(span.isRecording()).toBe(false);
    const carried = traceHeaders(contextOf(span, ROOT_CONTEXT));
    expect(carried?.get(TRACEPARENT)).toBe(`00-${span.spanContext().traceId}-${span.spanContext().spanId}-00`);
    expect(trace.getSpanContext(tracedFrom(carried))?.traceFlags).toBe(TraceFlags.NONE);
  });

  it.each([
    ['no header', undefined],
    ['another version', 'ff-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01'],
    ['an id of zeros', '00-00000000000000000000000000000000-b7ad6b7169203331-01'],
    ['capitals', '00-0AF7651916CD43DD8448EB211C80319C-B7AD6B7169203331-01'],
    ['a short span id', '00-0af7651916cd43dd8448eb211c80319c-b7ad6b71-01'],
  ])('starts a new trace from a message with %s', (_, value) => {
    const carried = headers();
    if (value !== undefined) carried.set(TRACEPARENT, value);
    expect(tracedFrom(carried)).toBe(ROOT_CONTEXT);
  });
});
