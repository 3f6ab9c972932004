/**
 * The one place a process starts tracing (SUITORS_TRACING): a tracer
 * provider of its own, named for the process, whose spans go to stdout or
 * to an OTLP collector in batches. Nothing is registered globally: each
 * part that makes spans is handed the tracer, so a test may run a gateway
 * and a worker in one process, each with its own service name. Off (the
 * default), the tracer is the API's no-op one: its spans record nothing and
 * carry no trace context, so no header is sent either.
 */
import { ProxyTracerProvider, type Tracer } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  BasicTracerProvider,
  BatchSpanProcessor,
  ConsoleSpanExporter,
  SimpleSpanProcessor,
  type SpanExporter,
  type SpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import type { TracingSettings } from './tracingSettings.js';

/** The processes of the service, as a trace names them (the `service.name` of their spans). */
type TracedService = 'suitors-embedded' | 'suitors-gateway' | 'suitors-worker';

export interface Tracing {
  readonly tracer: Tracer;
  /** Sends the spans held now (a measurement that counts what exporting them costs). */
  flush(): Promise<void>;
  /** Sends the spans still held, then stops: the last step of a process's stop. */
  shutdown(): Promise<void>;
}

const TRACER_NAME = 'seven-suitors-service';

/** A provider that is never given a delegate: every tracer of it is the API's no-op tracer. */
export const NO_TRACING: Tracing = {
  tracer: new ProxyTracerProvider().getTracer(TRACER_NAME),
  flush: async () => undefined,
  shutdown: async () => undefined,
};

/**
 * Whether the tracer records anything: off, a command's spans are skipped
 * outright rather than made as no-ops, which on every move cost a few
 * promises, closures and attribute objects for nothing.
 */
export function isTracing(tracer: Tracer): boolean {
  return tracer !== NO_TRACING.tracer;
}

export interface TracingStart {
  readonly service: TracedService;
  readonly settings: TracingSettings;
  /**
   * Where spans go instead of the settings' exporter, each as it ends (an
   * InMemorySpanExporter in the tests, which read the spans at once).
   */
  readonly exporter?: SpanExporter;
}

export function startTracing({ service, settings, exporter }: TracingStart): Tracing {
  const processor = processorOf(settings, exporter);
  if (processor === null) return NO_TRACING;
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ 'service.name': service }),
    spanProcessors: [processor],
  });
  return { tracer: provider.getTracer(TRACER_NAME), flush: () => provider.forceFlush(), shutdown: () => provider.shutdown() };
}

function processorOf(settings: TracingSettings, exporter: SpanExporter | undefined): SpanProcessor | null {
  if (exporter !== undefined) return new SimpleSpanProcessor(exporter);
  switch (settings.export) {
    case 'off':
      return null;
    case 'stdout':
      return new BatchSpanProcessor(new ConsoleSpanExporter());
    case 'otlp':
      return new BatchSpanProcessor(new OTLPTraceExporter(settings.url === undefined ? {} : { url: settings.url }));
  }
}
