/**
 * Tracing in the embedded service (SUITORS_TRACING): one player's command
 * is one trace, a real SDK provider's spans read from its in-memory
 * exporter: the gateway's span of the command, and under it the host's
 * wait in the table's queue, the machine's step and the append, each naming
 * the table, the command type and the event seq, and nothing a seat hides.
 */
import { InMemorySpanExporter, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { describe, expect, it } from 'vitest';
import { bearer } from '../../drivers/embeddedService.js';
import { waitFor } from '../../drivers/polling.js';
import { SocketClient } from '../../drivers/socketClient.js';
import { servicesClosedAfterEach } from '../../test/servicesPerTest.js';
import { cardsNamedIn } from '../../test/leakChecks.js';
import { TableHost } from '../host/tableHost.js';
import { openLocalStorage } from '../storage/storage.js';
import { COMMAND_TYPE, EVENT_SEQ, REFUSAL, SPAN_NAMES, TABLE_ID } from '../tracing/commandSpans.js';
import { startTracing } from '../tracing/tracing.js';

const service = servicesClosedAfterEach();

function tracedService() {
  const exporter = new InMemorySpanExporter();
  const tracing = startTracing({ service: 'suitors-embedded', settings: { export: 'off', url: undefined }, exporter });
  const store = openLocalStorage({ kind: 'memory' }).store;
  const host = new TableHost({ store, autopilot: { botDelayMs: 0 }, tracer: tracing.tracer });
  return { ...service({ host, store, tracer: tracing.tracer }), exporter };
}

/** A table of three bots and Ann in seat 0, awaiting her pass: her token and the cards she holds. */
async function annAwaitingHerPass(app: ReturnType<typeof tracedService>['app']) {
  const created = await app.inject({ method: 'POST', url: '/api/tables', payload: { game: 'sevenSuitors', bots: [1, 2, 3] } });
  const { tableId } = created.json();
  const joined = await app.inject({ method: 'POST', url: `/api/tables/${tableId}/seats/0`, payload: { name: 'Ann' } });
  const { token } = joined.json();
  const { view } = (await app.inject({ method: 'GET', url: `/api/tables/${tableId}/view`, headers: bearer(token) })).json();
  return { tableId, token, cards: view.hand.cards as string[] };
}

const byName = (spans: readonly ReadableSpan[], name: string) => spans.filter((span) => span.name === name);

describe('tracing one command in the embedded service', () => {
  it("is one trace: the gateway's span, and the queue, the machine step and the append under it", async () => {
    const { app, store, exporter } = tracedService();
    const { tableId, token, cards } = await annAwaitingHerPass(app);
    // Seating, and the bots' moves, are not a player's commands: nothing traced them.
    expect(exporter.getFinishedSpans()).toEqual([]);

    const passed = [cards[0], cards[1], cards[2]];
    const pass = { type: 'cards.passed', passes: passed.map((card, i) => ({ to: i + 1, card })) };
    const answer = await app.inject({ method: 'POST', url: `/api/tables/${tableId}/commands`, payload: pass, headers: bearer(token) });
    expect(answer.statusCode, answer.body).toBe(200);
    const seq = (await store.read(tableId)).find(
      (event) => event.type === 'cards.passed' && (event.data as { seat: number }).seat === 0,
    )?.seq;
    expect(seq).toBe(answer.json().events[0].seq);

    await waitFor(() => exporter.getFinishedSpans().length >= 4, 'the four spans of the command');
    const spans = exporter.getFinishedSpans();
    expect(spans.map((span) => span.name).sort()).toEqual(
      [SPAN_NAMES.gatewayCommand, SPAN_NAMES.append, SPAN_NAMES.step, SPAN_NAMES.queue].sort(),
    );
    const [command] = byName(spans, SPAN_NAMES.gatewayCommand);
    expect(command.kind).toBe(SpanKind.SERVER);
    expect(command.parentSpanContext).toBeUndefined();
    expect(command.resource.attributes['service.name']).toBe('suitors-embedded');
    expect(command.attributes).toEqual({
      [TABLE_ID]: tableId,
      [COMMAND_TYPE]: 'cards.passed',
      [EVENT_SEQ]: seq,
      'suitors.seat': 0,
      'suitors.via': 'http',
    });
    for (const name of [SPAN_NAMES.queue, SPAN_NAMES.step, SPAN_NAMES.append]) {
      const [step] = byName(spans, name);
      expect(step.spanContext().traceId).toBe(command.spanContext().traceId);
      expect(step.parentSpanContext?.spanId).toBe(command.spanContext().spanId);
      expect(step.attributes).toMatchObject({ [TABLE_ID]: tableId, [COMMAND_TYPE]: 'cards.passed' });
    }
    expect(byName(spans, SPAN_NAMES.append)[0].attributes[EVENT_SEQ]).toBe(seq);
    // The cards passed are Ann's and her partner's to know (RULES.md section 8), not a trace's.
    const everything = JSON.stringify(spans.map((span) => [span.attributes, span.status, span.events]));
    expect(cardsNamedIn(everything).filter((card) => passed.includes(card))).toEqual([]);
  });

  it("marks a socket's refused command with the refusal's kind, never its words", async () => {
    const { app, exporter } = tracedService();
    const { tableId, token, cards } = await annAwaitingHerPass(app);
    const base = (await app.listen({ port: 0, host: '127.0.0.1' })).replace('http', 'ws');
    const socket = await SocketClient.open(`${base}/api/tables/${tableId}/socket?token=${token}`);
    try {
      // A card played while the table awaits passes: refused, with a message that may name the card.
      const refusal = await socket.request(
        JSON.stringify({ type: 'command', id: 'early', command: { type: 'card.played', card: cards[5] } }),
      );
      if (!('type' in refusal) || refusal.type !== 'refused') throw new Error(`the early play was not refused: ${JSON.stringify(refusal)}`);
      await waitFor(() => byName(exporter.getFinishedSpans(), SPAN_NAMES.gatewayCommand).length === 1, "the command's span");
      const spans = exporter.getFinishedSpans();
      const [command] = byName(spans, SPAN_NAMES.gatewayCommand);
      expect(command.attributes).toMatchObject({ [COMMAND_TYPE]: 'card.played', [REFUSAL]: refusal.error, 'suitors.via': 'socket' });
      expect(command.status).toEqual({ code: SpanStatusCode.ERROR, message: refusal.error });
      // Refused by the machine: its step says so too, and nothing was appended.
      expect(byName(spans, SPAN_NAMES.step)[0].attributes[REFUSAL]).toBe(refusal.error);
      expect(byName(spans, SPAN_NAMES.append)).toEqual([]);
      expect(cardsNamedIn(JSON.stringify(spans.map((span) => [span.attributes, span.status])))).not.toContain(cards[5]);
    } finally {
      await socket.close();
    }
  });
});
