/**
 * How a worker serves what gateways send it: every worker listens to
 * `tables.*.cmd` and `tables.create` in one queue group, so an undirected
 * request reaches one of them, and to `tables.*.cmd.<its id>` for commands
 * addressed to it. A command for a table nobody holds makes the worker claim
 * it; one for a table another worker holds is forwarded there, once
 * (forwarding.ts). Every reply is an envelope of bus/protocol.ts.
 */
import type { Msg, NatsConnection, Subscription } from '@nats-io/nats-core';
import { type Attributes, type Context, SpanKind, type Span, type Tracer } from '@opentelemetry/api';
import { isVersionConflict } from '../eventstore/eventStore.js';
import { isTableRefusal, missingTable, TableRefusal } from '../host/errors.js';
import type { TableHost } from '../host/tableHost.js';
import type { Accepted } from '../host/tableService.js';
import {
  decodeRequest,
  encode,
  isTableUnavailable,
  replyOfError,
  TableUnavailable,
  type NewTableRequest,
  type TableCommandRequest,
  type TableReply,
} from '../bus/protocol.js';
import { isRoutableTableId, WORKER_QUEUE, type TableSubjects } from '../bus/subjects.js';
import { forwardToOwner, type Forwarding } from './forwarding.js';
import { checkNewTable, checkSeatCommand, type WorkerRequestLimits } from './requestChecks.js';
import { NoLease } from './tableOwnership.js';
import { messageOf, type WorkerTables } from './workerTables.js';
import { commandAttributes, contextOf, noteAppended, noteRefused, SPAN_NAMES, TABLE_ID } from '../tracing/commandSpans.js';
import { tracedFrom } from '../tracing/traceHeaders.js';

export interface CommandServing {
  readonly tables: WorkerTables;
  readonly nc: NatsConnection;
  readonly subjects: TableSubjects;
  readonly limits: WorkerRequestLimits;
  readonly forwarding: Forwarding;
  /** Makes a span of each request, a child of the sender's when its headers carry one (tracing/traceHeaders.ts). */
  readonly tracer: Tracer;
}

export interface CommandServer {
  /** Stops listening, then waits for the requests under way to be answered. */
  finish(): Promise<void>;
}

/** Subscribes to the worker's subjects and serves each request that comes, until finish(). */
export async function serveCommands(serving: CommandServing): Promise<CommandServer> {
  const underWay = new Set<Promise<void>>();
  const callback = (error: Error | null, msg: Msg): void => {
    if (error !== null) return;
    const work = handle(serving, msg);
    underWay.add(work);
    void work.finally(() => underWay.delete(work));
  };
  const { nc, subjects, tables } = serving;
  const subscriptions: Subscription[] = [
    nc.subscribe(subjects.anyCommand, { queue: WORKER_QUEUE, callback }),
    nc.subscribe(subjects.commandsFor(tables.workerId), { callback }),
    nc.subscribe(subjects.create, { queue: WORKER_QUEUE, callback }),
  ];
  await nc.flush();
  return {
    async finish() {
      await Promise.allSettled(subscriptions.map((subscription) => subscription.drain()));
      await Promise.allSettled([...underWay]);
    },
  };
}

/** The reply each request under way was answered with, for the metrics; one with none was forwarded. */
const answers = new WeakMap<Msg, TableReply>();

/** Serves one request; whatever goes wrong is answered, never left to time out. */
function handle(serving: CommandServing, msg: Msg): Promise<void> {
  const { metrics } = serving.tables;
  const request = decodeRequest(msg);
  const started = performance.now();
  const op = typeof request === 'string' ? 'malformed' : request.op;
  const parent = tracedFrom(msg.headers);
  const span = serving.tracer.startSpan(
    SPAN_NAMES.workerRequest,
    { kind: SpanKind.SERVER, attributes: requestAttributes(serving, request) },
    parent,
  );
  return served(serving, msg, request, contextOf(span, parent)).finally(() => {
    const answer = answers.get(msg);
    metrics?.requestServed(op, answer ?? 'forwarded', (performance.now() - started) / 1000);
    endWithAnswer(span, answer);
  });
}

/** What the worker's span says of a request: its table only when the id could be one, so what a sender puts there is bounded. */
function requestAttributes(serving: CommandServing, request: ReturnType<typeof decodeRequest>): Attributes {
  const worker = { 'suitors.worker': serving.tables.workerId };
  if (typeof request === 'string') return { ...worker, 'suitors.op': 'malformed' };
  const op = { ...worker, 'suitors.op': request.op };
  if (!('tableId' in request) || !isRoutableTableId(request.tableId)) return op;
  return request.op === 'submit'
    ? { ...op, ...commandAttributes(request.tableId, request.args[0]) }
    : { ...op, [TABLE_ID]: request.tableId };
}

function endWithAnswer(span: Span, answer: TableReply | undefined): void {
  if (answer?.ok === true) noteAppended(span, answer.result.events);
  else if (answer !== undefined) noteRefused(span, answer.kind);
  span.end();
}

function served(serving: CommandServing, msg: Msg, request: ReturnType<typeof decodeRequest>, traced: Context): Promise<void> {
  const { workerId } = serving.tables;
  return (async () => {
    if (typeof request === 'string') return respond(msg, replyOfError(workerId, new TableRefusal('malformed', request)));
    if (serving.tables.isStopping()) throw new TableUnavailable(`worker ${workerId} is stopping; try again`);
    if (request.op === 'createTable' || request.op === 'importRecord' || request.op === 'forkTable') {
      return serveNewTable(serving, msg, request);
    }
    return serveCommand(serving, msg, request, traced);
  })().catch((error: unknown) => {
    respond(msg, replyOfError(workerId, isTableUnavailable(error) ? error : unavailableOf(error)));
  });
}

function respond(msg: Msg, reply: TableReply): void {
  answers.set(msg, reply);
  msg.respond(encode(reply));
}

async function serveCommand(serving: CommandServing, msg: Msg, request: TableCommandRequest, traced: Context): Promise<void> {
  const { host, store, leases, lastUsed, workerId } = serving.tables;
  const { tableId } = request;
  if (!isRoutableTableId(tableId) || serving.subjects.tableIdOf(msg.subject) !== tableId) throw unknownTable(tableId);
  // Before any claim: a command no seat's holder sent takes nothing, not even a lease.
  if (request.op === 'submit') checkSeatCommand(request.args[0], holderOf(request.args[1]));
  if (!leases.holds(tableId)) {
    // No claim for a table that does not exist (or was retired): a made-up id would leave its mark in the owners bucket.
    if ((await store.version(tableId)) === 0) throw await missingTable(store, tableId);
    const take = await leases.take(tableId);
    if (!take.taken) {
      await forwardToOwner(serving.forwarding, msg, request, { owner: take.owner, traced });
      return;
    }
    // Newly claimed: a copy left from an earlier claim may be behind the log.
    if (take.fresh) await host.passivate(tableId);
  }
  lastUsed.set(tableId, Date.now());
  try {
    const accepted =
      request.op === 'repairTable'
        ? await host.repair(tableId)
        : await host.submit(tableId, request.args[0], {
            holder: holderOf(request.args[1]),
            seenVersion: request.seenVersion,
            trace: traced,
          });
    respond(msg, { ok: true, worker: workerId, result: accepted });
  } catch (error) {
    if (isTableRefusal(error) && error.kind === 'unknownTable') {
      lastUsed.delete(tableId);
      await leases.release(tableId);
    }
    // Someone else appended to a table this worker holds: make sure it still does before serving it again.
    if (isVersionConflict(error)) void leases.verify(tableId);
    respond(msg, replyOfError(workerId, error, isTableRefusal(error) ? await versionOf(host, tableId) : undefined));
  }
}

async function versionOf(host: TableHost, tableId: string): Promise<number | undefined> {
  try {
    return (await host.snapshot(tableId)).version;
  } catch {
    return undefined;
  }
}

async function serveNewTable(serving: CommandServing, msg: Msg, request: NewTableRequest): Promise<void> {
  const { tables } = serving;
  try {
    const accepted = await makeNewTable(tables.host, request, serving.limits);
    // The table is made and durable, so it is answered as made whatever happens to its claim: a sweep finds it an owner.
    await ownNewTable(tables, accepted.tableId).catch(() => tables.toTakeUp.add(accepted.tableId));
    respond(msg, { ok: true, worker: tables.workerId, result: accepted });
  } catch (error) {
    respond(msg, replyOfError(tables.workerId, error));
  }
}

/** Claims a table this worker has just made, and keeps it; or, when it cannot, leaves it to the next sweep. */
async function ownNewTable(tables: WorkerTables, tableId: string): Promise<void> {
  // A new id nobody else knows yet: claiming it cannot meet another owner.
  const take = await tables.leases.take(tableId).catch(() => ({ taken: false as const, owner: '' }));
  if (take.taken) {
    tables.lastUsed.set(tableId, Date.now());
    // Armed before the claim was: a bot move that came first was dropped.
    await tables.host.takeUp(tableId);
  } else {
    // Nobody holds the new table: its bots wait until a sweep (or a command) finds it an owner.
    tables.toTakeUp.add(tableId);
    await tables.host.letGo(tableId);
  }
}

function makeNewTable(host: TableHost, request: NewTableRequest, limits: WorkerRequestLimits): Promise<Accepted> {
  switch (request.op) {
    case 'createTable':
      checkNewTable(request.args[0], limits);
      return host.createTable(request.args[0]);
    case 'importRecord':
      return host.importRecord(request.args[0]);
    case 'forkTable': {
      const [tableId, fork] = request.args;
      // The original is only read, from the shared log; a made-up id is refused before any read.
      if (typeof tableId !== 'string' || !isRoutableTableId(tableId)) return Promise.reject(unknownTable(String(tableId)));
      return host.forkTable(tableId, fork);
    }
  }
}

function unknownTable(tableId: string): TableRefusal {
  return new TableRefusal('unknownTable', `there is no table ${JSON.stringify(tableId)}`);
}

/** NATS trouble while taking a lease or forwarding: nothing was done, so the caller may try again. */
function unavailableOf(error: unknown): Error {
  if (isTableRefusal(error) || isVersionConflict(error)) return error as Error;
  if (error instanceof NoLease) return new TableUnavailable(`${error.message}; try again`);
  return new TableUnavailable(`the table could not be served now (${messageOf(error)}); try again`);
}

/** A holder from the wire; anything but a string is a tenure no seat has, so it is refused, never skipped. */
function holderOf(value: unknown): string | undefined {
  return value === undefined ? undefined : String(value);
}
