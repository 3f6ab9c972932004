import { describe, expect, it } from 'vitest';
import { printedSpans, SpanPrintout } from './printedSpans.js';

/** A span as the OpenTelemetry SDK's console exporter prints it (SUITORS_TRACING=stdout), between two log lines. */
const PRINTED = `{"level":30,"msg":"a log line before"}
{
  resource: { attributes: { 'service.name': 'suitors-worker' } },
  instrumentationScope: {
    name: 'seven-suitors-service',
    version: undefined,
    schemaUrl: undefined
  },
  traceId: '7304ea983bb1762a9084a7b0dbb494e1',
  parentSpanContext: undefined,
  name: 'log append',
  id: '62ff36e45d9359b3',
  attributes: {
    'suitors.table_id': 't-1',
    'suitors.event_seq': 7
  },
  status: { code: 0 },
  events: [],
  links: []
}
worker-1 serving tables`;

describe('printed spans', () => {
  it("reads each span's trace, name and service, and tells the process's other lines apart", () => {
    const printout = new SpanPrintout();
    const taken = PRINTED.split('\n').map((line) => printout.take(line));
    expect(taken[0]).toBe(false);
    expect(taken.at(-1)).toBe(false);
    expect(taken.slice(1, -1).every(Boolean)).toBe(true);
    expect(printout.spans).toEqual([{ traceId: '7304ea983bb1762a9084a7b0dbb494e1', name: 'log append', service: 'suitors-worker' }]);
    expect(printout.ofTrace('7304ea983bb1762a9084a7b0dbb494e1')).toHaveLength(1);
    expect(printedSpans(`${PRINTED}\n${PRINTED}`)).toEqual(Array(2).fill('7304ea983bb1762a9084a7b0dbb494e1 log append'));
  });
});
