/**
 * The spans a process prints with SUITORS_TRACING=stdout (the OpenTelemetry
 * SDK's console exporter: one object a span, `{` to `}` on lines of their
 * own), read back line by line: each span's trace id, name and the service
 * that made it. The tracing tests read a process's output with it, and `npm
 * run cluster` keeps the printout off its console and shows one command's
 * trace instead.
 */

export interface PrintedSpan {
  readonly traceId: string;
  readonly name: string;
  /** `suitors-gateway`, `suitors-worker`, …: the printing process's service name. */
  readonly service: string | undefined;
}

export class SpanPrintout {
  readonly spans: PrintedSpan[] = [];
  private depth = 0;
  private traceId: string | undefined;
  private name: string | undefined;
  private service: string | undefined;

  /** Reads one line of a process's output; true when it is part of a printed span. */
  take(line: string): boolean {
    if (this.depth === 0 && line !== '{') return false;
    this.service = /'service\.name': '([^']+)'/.exec(line)?.[1] ?? this.service;
    this.traceId = /^\s*traceId: '([0-9a-f]{32})'/.exec(line)?.[1] ?? this.traceId;
    if (this.depth === 1) this.name = /^\s*name: '([^']+)',$/.exec(line)?.[1] ?? this.name;
    this.depth += (line.match(/[{[]\s*$/g)?.length ?? 0) - (/^\s*[}\]]/.test(line) ? 1 : 0);
    if (this.depth === 0) {
      if (this.traceId !== undefined && this.name !== undefined) {
        this.spans.push({ traceId: this.traceId, name: this.name, service: this.service });
      }
      this.traceId = undefined;
      this.name = undefined;
    }
    return true;
  }

  /** The spans of one trace, in the order they were printed. */
  ofTrace(traceId: string): PrintedSpan[] {
    return this.spans.filter((span) => span.traceId === traceId);
  }
}

/** Each span in a process's output, as `<trace id> <name>`. */
export function printedSpans(printed: string): string[] {
  const printout = new SpanPrintout();
  for (const line of printed.split('\n')) printout.take(line);
  return printout.spans.map((span) => `${span.traceId} ${span.name}`);
}
