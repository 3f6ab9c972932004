/**
 * The tables as a gateway in the distributed service sees them: the same
 * calls as the in-process TableHost (TableService), with commands sent over
 * NATS to the worker that owns each table and reads answered from the
 * gateway's own read model, folded from the JetStream log and kept current
 * by the store's feed of every appended event.
 *
 * A command goes to the owner the gateway last heard from
 * (`tables.<id>.cmd.<worker>`), or, when it knows none or that one is gone, to
 * any worker (`tables.<id>.cmd`, one queue group), which takes the table or
 * forwards the command to its owner. While a table changes hands the workers
 * answer "unavailable" and the command is sent again, until `retryForMs`
 * has passed. A command nobody answered within `requestTimeoutMs` is not
 * sent again (it may have been accepted): it fails with TableUnavailable.
 */
import type { NatsConnection } from '@nats-io/nats-core';
import { type Context, SpanKind, type Tracer } from '@opentelemetry/api';
import { isNoResponders, isRequestTrouble } from '../nats/natsErrors.js';
import type { GameRecord } from '../../machines/record/record.js';
import type { TableSnapshot } from '../../machines/table/snapshot.js';
import { viewFor, type TableView, type Viewer } from '../../machines/view.js';
import type { EventListener, EventStore, StoredEvent, TableSummary } from '../eventstore/eventStore.js';
import { unknownTable } from '../host/errors.js';
import { withQuarantines, type Quarantine, type TableQuarantined } from '../host/quarantine.js';
import { NatsRequests } from '../nats/natsRequests.js';
import { readTableLog, recordOfTable, type ReplayedTable } from '../host/replay.js';
import { ReplayCheckpoints } from '../host/replayCheckpoints.js';
import type { ForkRequest } from '../host/tableFork.js';
import type { Accepted, CreateTableRequest, Repaired, SubmitOptions, TableService } from '../host/tableService.js';
import {
  decodeReply,
  encode,
  errorOfReply,
  TableUnavailable,
  type NewTableRequest,
  type TableCommandRequest,
  type TableReply,
} from './protocol.js';
import { isRoutableTableId, tableSubjects, type TableSubjects } from './subjects.js';
import { TableReadModel } from './tableReadModel.js';
import { inSpan, noteAppended, noteRefused, SPAN_NAMES, TABLE_ID } from '../tracing/commandSpans.js';
import { traceHeaders } from '../tracing/traceHeaders.js';
import { NO_TRACING } from '../tracing/tracing.js';

export interface RemoteTablesOptions {
  readonly nc: NatsConnection;
  /** The shared event log, read only here: loads tables and lists them. */
  readonly store: EventStore;
  /** How long one attempt waits for a worker's answer. */
  readonly requestTimeoutMs?: number;
  /** How long a command keeps being sent again while its table has no worker to take it. */
  readonly retryForMs?: number;
  /** The deployment's subject prefix (NATS_PREFIX), the workers' too. */
  readonly prefix?: string;
  /** Told once when this gateway finds a table quarantined, for the operator; the default writes a line to stderr. */
  readonly onQuarantined?: (verdict: TableQuarantined) => void;
  /** Makes a span of each request to a worker, its context in the request's headers (services/tracing); none: the no-op tracer. */
  readonly tracer?: Tracer;
}

const DEFAULT_REQUEST_TIMEOUT_MS = 5000;
const DEFAULT_RETRY_FOR_MS = 10_000;
const RETRY_PAUSE_MS = { first: 50, most: 500 };

export class RemoteTables implements TableService {
  private readonly requests: NatsRequests;
  private readonly store: EventStore;
  private readonly replays: ReplayCheckpoints;
  private readonly requestTimeoutMs: number;
  private readonly retryForMs: number;
  private readonly readModel: TableReadModel;
  private readonly subjects: TableSubjects;
  /** The worker that last answered for each table: where its next command goes first. */
  private readonly owners = new Map<string, string>();
  private readonly unsubscribe: () => void;
  private readonly underWay = new Set<Promise<unknown>>();
  private readonly tracer: Tracer;
  private closed = false;

  constructor(options: RemoteTablesOptions) {
    this.requests = new NatsRequests(options.nc);
    this.store = options.store;
    this.replays = new ReplayCheckpoints(options.store);
    this.requestTimeoutMs = options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
    this.retryForMs = options.retryForMs ?? DEFAULT_RETRY_FOR_MS;
    this.readModel = new TableReadModel(options.store, options.onQuarantined === undefined ? {} : { onQuarantined: options.onQuarantined });
    this.subjects = tableSubjects(options.prefix);
    this.tracer = options.tracer ?? NO_TRACING.tracer;
    // Every event appended anywhere, in log order, from the store's feed of the log (JetStream: an ordered consumer).
    this.unsubscribe = this.store.subscribe((tableId, event) => {
      void this.readModel.offer(tableId, [event]).catch(() => undefined);
    });
  }

  /** Tables this gateway keeps a copy of (the in-process host's resident tables, for the gateway's metrics). */
  get residentTables(): number {
    return this.readModel.followedTables;
  }

  async createTable(request: CreateTableRequest): Promise<Accepted> {
    return this.newTable({ op: 'createTable', args: [request] });
  }

  async importRecord(document: unknown): Promise<Accepted> {
    return this.newTable({ op: 'importRecord', args: [document] });
  }

  /** A new table played on from a finished game: any worker makes it, reading the original from the shared log. */
  async forkTable(tableId: string, request: ForkRequest): Promise<Accepted> {
    if (!isRoutableTableId(tableId)) throw unknownTable(tableId);
    return this.newTable({ op: 'forkTable', args: [tableId, request] });
  }

  async submit(tableId: string, command: unknown, { holder, trace }: SubmitOptions = {}): Promise<Accepted> {
    const args: [unknown, string?] = holder === undefined ? [command] : [command, holder];
    return this.command({ op: 'submit', tableId, args, ...this.seen(tableId) }, trace);
  }

  private seen(tableId: string): { seenVersion?: number } {
    const seenVersion = this.readModel.versionOf(tableId);
    return seenVersion === undefined ? {} : { seenVersion };
  }

  async snapshot(tableId: string): Promise<{ version: number; snapshot: TableSnapshot }> {
    if (!isRoutableTableId(tableId)) throw unknownTable(tableId);
    return this.readModel.snapshot(tableId);
  }

  async view(tableId: string, viewer: Viewer): Promise<{ version: number; view: TableView }> {
    const { version, snapshot } = await this.snapshot(tableId);
    return { version, view: viewFor(snapshot, viewer) };
  }

  async events(tableId: string, afterVersion = 0): Promise<StoredEvent[]> {
    if (!isRoutableTableId(tableId)) throw unknownTable(tableId);
    return readTableLog(this.store, tableId, afterVersion);
  }

  async replayAt(tableId: string, at?: number): Promise<ReplayedTable> {
    if (!isRoutableTableId(tableId)) throw unknownTable(tableId);
    return this.replays.replayAt(tableId, at);
  }

  async exportRecord(tableId: string): Promise<GameRecord> {
    if (!isRoutableTableId(tableId)) throw unknownTable(tableId);
    return recordOfTable(this.store, tableId);
  }

  /**
   * Repairs a quarantined table: the table's worker finds the refused events
   * and voids them (the request names none, so no gateway can void a
   * valid one); the copy here is folded again from the repaired log.
   */
  async repair(tableId: string): Promise<Repaired> {
    const accepted = await this.command({ op: 'repairTable', tableId, args: [] });
    if (!isRepaired(accepted)) throw new Error(`the worker answered the repair of table ${tableId} without the events it voided`);
    await this.readModel.offer(tableId, accepted.events);
    return accepted;
  }

  async listTables(): Promise<TableSummary[]> {
    return withQuarantines(await this.store.listTables(), this.readModel.quarantinedTables());
  }

  quarantinedTables(): readonly Quarantine[] {
    return this.readModel.quarantinedTables();
  }

  /**
   * Calls `listener` with every event of every table as this gateway hears
   * of it, once each and in each table's order, after the table's copy here
   * took it (so a view read in the listener shows it).
   */
  subscribe(listener: EventListener): () => void {
    return this.readModel.subscribe(listener);
  }

  /** Lets go of this gateway's copies of tables not read for `idleMs` (they load again on the next read); returns how many. */
  async passivateIdle(idleMs: number): Promise<number> {
    const forgotten = this.readModel.forgetIdle(idleMs);
    for (const tableId of forgotten) this.owners.delete(tableId);
    return forgotten.length;
  }

  /** The worker that last answered a command for the table, if any. */
  ownerOf(tableId: string): string | undefined {
    return this.owners.get(tableId);
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.allSettled([...this.underWay]);
    this.unsubscribe();
    this.requests.close();
    await this.readModel.close();
  }

  private async newTable(request: NewTableRequest): Promise<Accepted> {
    const accepted = await this.ask(request, () => this.subjects.create);
    await this.readModel.offer(accepted.tableId, accepted.events);
    return accepted;
  }

  private async command(request: TableCommandRequest, trace?: Context): Promise<Accepted> {
    const { tableId } = request;
    if (!isRoutableTableId(tableId)) throw unknownTable(tableId);
    const subjectNow = () => {
      const owner = this.owners.get(tableId);
      return owner === undefined ? this.subjects.command(tableId) : this.subjects.commandFor(tableId, owner);
    };
    const accepted = await this.ask(request, subjectNow, trace);
    // The copy here takes the events before the caller hears of them, so its next read shows its own command.
    if (this.readModel.follows(tableId)) await this.readModel.offer(tableId, accepted.events);
    return accepted;
  }

  /** Sends the request until a worker takes it (or refuses it), pausing while no worker can. */
  private ask(request: NewTableRequest | TableCommandRequest, subjectNow: () => string, trace?: Context): Promise<Accepted> {
    if (this.closed) return Promise.reject(new TableUnavailable('the table service is closed'));
    const work = this.askUntilTaken(request, subjectNow, trace);
    this.underWay.add(work);
    void work.catch(() => undefined).finally(() => this.underWay.delete(work));
    return work;
  }

  private async askUntilTaken(
    request: NewTableRequest | TableCommandRequest,
    subjectNow: () => string,
    trace: Context | undefined,
  ): Promise<Accepted> {
    const tableId = 'tableId' in request ? request.tableId : undefined;
    const giveUpAt = Date.now() + this.retryForMs;
    let pause = RETRY_PAUSE_MS.first;
    for (;;) {
      const subject = subjectNow();
      const reply = await this.sendTraced(subject, request, trace);
      if (reply?.ok) {
        this.owners.set(reply.result.tableId, reply.worker);
        return reply.result;
      }
      if (reply !== null && reply.kind !== 'unavailable') {
        if (tableId !== undefined) await this.refused(tableId, reply);
        throw errorOfReply(reply);
      }
      // Nobody took it (nobody listens there, or the table is between owners): safe to send again.
      if (tableId !== undefined) this.owners.delete(tableId);
      const why = reply?.message ?? `no worker is listening on ${subject}`;
      if (Date.now() + pause > giveUpAt || this.closed) {
        throw new TableUnavailable(`no worker could take the ${request.op} for ${this.retryForMs} ms: ${why}`);
      }
      await new Promise((resolve) => setTimeout(resolve, pause));
      pause = Math.min(pause * 2, RETRY_PAUSE_MS.most);
    }
  }

  /** One request, a span of the command's trace (each one sent again is a span of its own). */
  private sendTraced(
    subject: string,
    request: NewTableRequest | TableCommandRequest,
    parent: Context | undefined,
  ): Promise<TableReply | null> {
    const attributes = { 'messaging.system': 'nats', 'messaging.destination.name': subject, 'suitors.op': request.op };
    const start = {
      parent,
      kind: SpanKind.CLIENT,
      attributes: 'tableId' in request ? { ...attributes, [TABLE_ID]: request.tableId } : attributes,
    };
    return inSpan(this.tracer, SPAN_NAMES.natsRequest, start, async (traced, span) => {
      const reply = await this.send(subject, request, traced);
      if (reply?.ok === true) noteAppended(span, reply.result.events);
      else noteRefused(span, reply?.kind ?? 'noResponders');
      return reply;
    });
  }

  /** One request: the worker's reply, or null when nobody listens on `subject`. */
  private async send(subject: string, request: NewTableRequest | TableCommandRequest, traced: Context): Promise<TableReply | null> {
    const headers = traceHeaders(traced);
    try {
      const options = { timeoutMs: this.requestTimeoutMs, ...(headers === undefined ? {} : { headers }) };
      return decodeReply(await this.requests.request(subject, encode(request), options));
    } catch (error) {
      if (isNoResponders(error)) return null;
      if (!isRequestTrouble(error)) throw error;
      throw new TableUnavailable(
        `no answer on ${subject} (${(error as Error).message}); the ${request.op} may or may not have been taken: read the table to see`,
      );
    }
  }

  /** A refusal from the owner, which has seen more of the table than this copy: catch up, or the next command is refused too. */
  private async refused(tableId: string, reply: Exclude<TableReply, { ok: true }>): Promise<void> {
    if (reply.kind !== 'unknownTable') this.owners.set(tableId, reply.worker);
    const known = this.readModel.versionOf(tableId);
    if ('version' in reply && reply.version !== undefined && known !== undefined && reply.version > known) {
      await this.readModel.catchUp(tableId);
    }
  }
}

function isRepaired(accepted: Accepted): accepted is Repaired {
  return Array.isArray((accepted as Partial<Repaired>).voided);
}
