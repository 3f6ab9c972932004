/**
 * One command's trace across the NATS hop, on a real, secured nats-server:
 * the gateway's span of a player's command, its request to the worker with
 * the trace's context in the message's headers, and the worker's span of
 * the request with the host's queue, machine step and append under it, one
 * trace id throughout, through a worker that forwards it to the table's
 * owner too. Read from real SDK providers, one per process (each
 * its own service name), through an in-memory exporter; and from the
 * stdout of a real gateway process and worker process, turned on by
 * SUITORS_TRACING alone. A gateway with tracing off sends no header at
 * all. Without nats-server this fails (startLocalNats says what to
 * install); it is never skipped.
 */
import type { Msg, MsgHdrs, NatsConnection } from '@nats-io/nats-core';
import { ROOT_CONTEXT, SpanKind, trace } from '@opentelemetry/api';
import { InMemorySpanExporter, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import pino from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { bearer } from '../../drivers/embeddedService.js';
import { startLocalNats, type LocalNats } from '../../drivers/localNats.js';
import { waitFor } from '../../drivers/polling.js';
import { printedSpans } from '../../drivers/printedSpans.js';
import { startWorkerProcess, type WorkerProcess } from '../../drivers/workerProcess.js';
import { startGatewayProcess } from '../../drivers/gatewayProcess.js';
import { decodeReply, encode } from '../../services/bus/protocol.js';
import { RemoteTables } from '../../services/bus/remoteTables.js';
import { tableSubjects } from '../../services/bus/subjects.js';
import { createRemoteTable, nextRemoteMove, remoteHolder } from '../../drivers/remotePlay.js';
import { createRng } from '../../machines/cards/shuffle.js';
import type { PlayerCommand } from '../../machines/table/events.js';
import { NatsRequests } from '../../services/nats/natsRequests.js';
import type { EventStore } from '../../services/eventstore/eventStore.js';
import { cardsNamedIn } from '../leakChecks.js';
import { openJetStreamEventStore } from '../../services/eventstore/jetstream/index.js';
import { createDistributedGateway, type DistributedGatewayOptions } from '../../services/gateway/distributed.js';
import type { Gateway } from '../../services/gateway/gateway.js';
import { openLocalStorage } from '../../services/storage/storage.js';
import { COMMAND_TYPE, EVENT_SEQ, SPAN_NAMES, TABLE_ID } from '../../services/tracing/commandSpans.js';
import { TRACEPARENT, traceHeaders } from '../../services/tracing/traceHeaders.js';
import { startTracing, type Tracing } from '../../services/tracing/tracing.js';
import { startTableWorker, type TableWorker } from '../../services/worker/tableWorker.js';

const OFF = { export: 'off', url: undefined } as const;

interface HttpRequest {
  readonly method: 'GET' | 'POST';
  readonly url: string;
  readonly payload?: object;
  readonly headers?: Record<string, string>;
}
// biome-ignore lint/suspicious/noExplicitAny: the test reads the fields of answers whose shape it asserts
type Ask = (request: HttpRequest) => Promise<{ statusCode: number; body: string; json(): any }>;

/** A gateway in this process, asked through Fastify's inject. */
const injectedInto =
  (app: Gateway): Ask =>
  (request) =>
    app.inject(request);

/** A gateway process, asked over HTTP. */
function overHttp(baseUrl: string): Ask {
  return async ({ method, url, payload, headers }) => {
    const response = await fetch(`${baseUrl}${url}`, {
      method,
      headers: { ...(payload === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
      ...(payload === undefined ? {} : { body: JSON.stringify(payload) }),
    });
    const body = await response.text();
    return { statusCode: response.status, body, json: () => JSON.parse(body) };
  };
}

const subjects = tableSubjects();

describe('a command traced across a gateway and a table worker over NATS', () => {
  let nats: LocalNats;
  /** Every command message sent to a worker, as the admin's plain subscription sees it beside the workers' queue. */
  const commandMessages: Msg[] = [];
  let admin: NatsConnection;
  let closers: (() => Promise<unknown>)[] = [];

  beforeAll(async () => {
    nats = await startLocalNats(1);
    admin = await nats.connect('admin');
    const keep = (_: Error | null, msg: Msg) => void commandMessages.push(msg);
    // Undirected commands, and those addressed to one worker.
    admin.subscribe(subjects.anyCommand, { callback: keep });
    admin.subscribe(`${subjects.anyCommand}.*`, { callback: keep });
    await admin.flush();
  }, 60_000);

  afterEach(async () => {
    for (const close of closers.reverse()) await close().catch(() => undefined);
    closers = [];
  });

  afterAll(async () => {
    await admin?.close();
    await nats?.stop();
  });

  async function openStore(role: 'gateway' | 'worker'): Promise<{ nc: NatsConnection; store: EventStore }> {
    const nc = await nats.connect(role);
    const store = await openJetStreamEventStore({ connection: nc, createMissing: role === 'worker' });
    closers.push(
      () => nc.close(),
      () => store.close(),
    );
    return { nc, store };
  }

  async function startWorker(workerId: string, tracing: Tracing): Promise<TableWorker> {
    const worker = await startTableWorker({ ...(await openStore('worker')), workerId, botDelayMs: 0, tracer: tracing.tracer });
    closers.push(() => worker.stop());
    return worker;
  }

  async function startGateway(tracing: Tracing): Promise<Gateway> {
    const options: DistributedGatewayOptions = {
      ...(await openStore('gateway')),
      tokens: openLocalStorage({ kind: 'memory' }).tokens,
      logger: pino({ level: 'silent' }),
      webRoot: '/nonexistent',
      tracer: tracing.tracer,
    };
    const { app, tables } = createDistributedGateway(options);
    closers.push(
      () => tables.close(),
      () => app.close(),
    );
    await app.ready();
    return app;
  }

  /** Ann, in seat 0 of a table of three bots, passes three cards over HTTP: the table, the pass's event seq, the cards. */
  async function annPasses(ask: Ask) {
    const created = await ask({ method: 'POST', url: '/api/tables', payload: { game: 'sevenSuitors', bots: [1, 2, 3] } });
    expect(created.statusCode, created.body).toBe(201);
    const { tableId } = created.json();
    const { token } = (await ask({ method: 'POST', url: `/api/tables/${tableId}/seats/0`, payload: { name: 'Ann' } })).json();
    const { view } = (await ask({ method: 'GET', url: `/api/tables/${tableId}/view`, headers: bearer(token) })).json();
    const cards: string[] = view.hand.cards.slice(0, 3);
    const pass = { type: 'cards.passed', passes: cards.map((card, i) => ({ to: i + 1, card })) };
    const sentBefore = commandMessages.length;
    const answer = await ask({ method: 'POST', url: `/api/tables/${tableId}/commands`, payload: pass, headers: bearer(token) });
    expect(answer.statusCode, answer.body).toBe(200);
    const passMessages = () => commandMessages.slice(sentBefore).filter((msg) => msg.subject.startsWith(`tables.${tableId}.cmd`));
    await waitFor(() => passMessages().length > 0, "the pass's message, as the admin's subscription saw it");
    return { tableId, seq: answer.json().events[0].seq as number, cards, message: passMessages()[0] };
  }

  const only = (spans: readonly ReadableSpan[], name: string) => {
    const named = spans.filter((span) => span.name === name);
    expect(named.map((span) => span.name)).toEqual([name]);
    return named[0];
  };

  it("is one trace from the gateway's span through the request's headers to the worker's append", async () => {
    const exporter = new InMemorySpanExporter();
    const gatewayTracing = startTracing({ service: 'suitors-gateway', settings: OFF, exporter });
    const workerTracing = startTracing({ service: 'suitors-worker', settings: OFF, exporter });
    await startWorker('w-traced', workerTracing);
    const app = await startGateway(gatewayTracing);
    const { tableId, seq, cards, message } = await annPasses(injectedInto(app));

    const traceOf = () => {
      const command = exporter.getFinishedSpans().find((span) => span.name === SPAN_NAMES.gatewayCommand);
      return command === undefined
        ? []
        : exporter.getFinishedSpans().filter((span) => span.spanContext().traceId === command.spanContext().traceId);
    };
    await waitFor(() => traceOf().length >= 6, "the command's six spans");
    const spans = traceOf();
    const command = only(spans, SPAN_NAMES.gatewayCommand);
    const request = only(spans, SPAN_NAMES.natsRequest);
    const served = only(spans, SPAN_NAMES.workerRequest);
    expect(spans.map((span) => span.name).sort()).toEqual(
      [
        SPAN_NAMES.gatewayCommand,
        SPAN_NAMES.natsRequest,
        SPAN_NAMES.workerRequest,
        SPAN_NAMES.queue,
        SPAN_NAMES.step,
        SPAN_NAMES.append,
      ].sort(),
    );

    expect(command.parentSpanContext).toBeUndefined();
    expect(request.parentSpanContext?.spanId).toBe(command.spanContext().spanId);
    expect(request.kind).toBe(SpanKind.CLIENT);
    // The hop: the worker's span is the child of the gateway's request, known to it from the message's header alone.
    const { traceId, spanId } = request.spanContext();
    expect(message.headers?.get(TRACEPARENT)).toBe(`00-${traceId}-${spanId}-01`);
    expect(served.parentSpanContext).toMatchObject({ traceId, spanId, isRemote: true });
    expect(served.kind).toBe(SpanKind.SERVER);
    for (const name of [SPAN_NAMES.queue, SPAN_NAMES.step, SPAN_NAMES.append]) {
      expect(only(spans, name).parentSpanContext?.spanId).toBe(served.spanContext().spanId);
    }

    for (const span of [command, request]) expect(span.resource.attributes['service.name']).toBe('suitors-gateway');
    for (const span of [served, only(spans, SPAN_NAMES.append)]) expect(span.resource.attributes['service.name']).toBe('suitors-worker');
    for (const span of spans) expect(span.attributes[TABLE_ID]).toBe(tableId);
    for (const span of [command, served, only(spans, SPAN_NAMES.step)]) expect(span.attributes[COMMAND_TYPE]).toBe('cards.passed');
    for (const span of [command, request, served, only(spans, SPAN_NAMES.append)]) expect(span.attributes[EVENT_SEQ]).toBe(seq);
    expect(served.attributes['suitors.worker']).toBe('w-traced');
    const everything = JSON.stringify(spans.map((span) => [span.attributes, span.status, span.events]));
    expect(cardsNamedIn(everything).filter((card) => cards.includes(card))).toEqual([]);
  });

  it('adds no header to the request when the gateway traces nothing: the worker starts a trace of its own', async () => {
    const exporter = new InMemorySpanExporter();
    await startWorker('w-untraced-gateway', startTracing({ service: 'suitors-worker', settings: OFF, exporter }));
    const app = await startGateway(startTracing({ service: 'suitors-gateway', settings: OFF }));
    const { tableId, seq, message } = await annPasses(injectedInto(app));

    expect(message.headers).toBeUndefined();
    const served = () =>
      exporter.getFinishedSpans().find((span) => span.name === SPAN_NAMES.workerRequest && span.attributes[EVENT_SEQ] === seq);
    await waitFor(() => served() !== undefined, "the worker's span of the pass");
    expect(served()?.parentSpanContext).toBeUndefined();
    expect(served()?.attributes[TABLE_ID]).toBe(tableId);
    expect(exporter.getFinishedSpans().filter((span) => span.resource.attributes['service.name'] !== 'suitors-worker')).toEqual([]);
  });

  it("follows a command a worker forwards to the table's owner: the owner's span is the child of the forwarder's", async () => {
    const exporter = new InMemorySpanExporter();
    const workerIds = ['w-fwd-a', 'w-fwd-b'];
    for (const workerId of workerIds) await startWorker(workerId, startTracing({ service: 'suitors-worker', settings: OFF, exporter }));
    const { nc, store } = await openStore('gateway');
    const tables = new RemoteTables({ nc, store });
    closers.push(() => tables.close());
    const { tableId } = await createRemoteTable(tables, { game: 'sevenSuitors' });
    const owner = tables.ownerOf(tableId);
    const forwarder = workerIds.find((workerId) => workerId !== owner) as string;
    const move = nextRemoteMove((await tables.snapshot(tableId)).snapshot, createRng('forwarded')) as PlayerCommand;

    // Sent to the worker that does not hold the table, as a gateway whose idea of the owner is out of date does.
    const sender = startTracing({ service: 'suitors-gateway', settings: OFF, exporter }).tracer.startSpan(SPAN_NAMES.natsRequest);
    const requests = new NatsRequests(nc);
    closers.push(async () => requests.close());
    const request = encode({ op: 'submit', tableId, args: [move, remoteHolder(tableId, move.seat)] });
    const headers = traceHeaders(trace.setSpan(ROOT_CONTEXT, sender)) as MsgHdrs;
    const reply = decodeReply(await requests.request(subjects.commandFor(tableId, forwarder), request, { timeoutMs: 5000, headers }));
    sender.end();
    expect(reply).toMatchObject({ ok: true, worker: owner });

    const inTrace = () => exporter.getFinishedSpans().filter((span) => span.spanContext().traceId === sender.spanContext().traceId);
    await waitFor(() => inTrace().length >= 6, "the forwarded command's spans");
    const served = (workerId: string) =>
      only(
        inTrace().filter((span) => span.attributes['suitors.worker'] === workerId),
        SPAN_NAMES.workerRequest,
      );
    expect(served(forwarder).parentSpanContext?.spanId).toBe(sender.spanContext().spanId);
    expect(served(owner as string).parentSpanContext).toMatchObject({ spanId: served(forwarder).spanContext().spanId, isRemote: true });
    expect(only(inTrace(), SPAN_NAMES.append).parentSpanContext?.spanId).toBe(served(owner as string).spanContext().spanId);
  });

  it('is printed in one trace by a gateway process and a worker process started with SUITORS_TRACING=stdout', async () => {
    const worker: WorkerProcess = await startWorkerProcess({
      natsEnv: nats.env('worker'),
      workerId: 'w-stdout',
      botDelayMs: 0,
      env: { SUITORS_TRACING: 'stdout' },
    });
    closers.push(() => worker.kill());
    let workerPrinted = '';
    worker.child.stdout?.on('data', (chunk: Buffer) => (workerPrinted += chunk.toString()));
    let gatewayPrinted = '';
    const gateway = await startGatewayProcess(
      { nats: { env: nats.env('gateway'), replicas: 1 } },
      // No load shedding: a loaded test machine stalls a process just started, and a 503 is not what this tests.
      { env: { SUITORS_TRACING: 'stdout', SUITORS_SHED_LAG_MS: '600000' }, onLine: (line) => (gatewayPrinted += `${line}\n`) },
    );
    closers.push(() => gateway.stop());
    await annPasses(overHttp(gateway.baseUrl));

    // Stopped, each sends (here: prints) the spans it still holds.
    await gateway.stop();
    await worker.stop();
    expect(worker.child.exitCode, worker.output.join('\n')).toBe(0);
    const commands = printedSpans(gatewayPrinted).filter((span) => span.endsWith(' gateway command'));
    expect(commands, gatewayPrinted).toHaveLength(1);
    const [traceId] = commands[0].split(' ');
    expect(printedSpans(gatewayPrinted)).toContain(`${traceId} nats request`);
    expect(gatewayPrinted).toContain("'service.name': 'suitors-gateway'");
    expect(workerPrinted).toContain("'service.name': 'suitors-worker'");
    for (const name of [SPAN_NAMES.workerRequest, SPAN_NAMES.queue, SPAN_NAMES.step, SPAN_NAMES.append]) {
      expect(printedSpans(workerPrinted)).toContain(`${traceId} ${name}`);
    }
  });
});
