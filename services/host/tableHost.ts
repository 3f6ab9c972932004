/**
 * The table host: one XState actor per table, fed only with events that are
 * already durable. A command is checked against the machine, applied to the
 * actor together with whatever the host owes the table next (the deal of a
 * new hand), appended to the log with the expected version, and only then
 * acknowledged and shown to anyone.
 */
import type { GameRecord } from '../../machines/record/record.js';
import type { PlayerCommand, TableEvent } from '../../machines/table/events.js';
import { explainRefusal } from '../../machines/table/refusal.js';
import { revealedDealsOf } from '../../machines/table/context.js';
import { dealsOwed, revealedSince } from './owedEvents.js';
import { isContributionCommand, SeatContributions } from './fairDeals.js';
import { offer, type TableSnapshot } from '../../machines/table/snapshot.js';
import { viewFor, type TableView, type Viewer } from '../../machines/view.js';
import type { EventStore, EventListener, NewEvent, StoredEvent, TableSummary } from '../eventstore/eventStore.js';
import { TableRefusal } from './errors.js';
import { TableQueues } from '../tableQueues/tableQueues.js';
import { fewAtATime } from '../tableQueues/fewAtATime.js';
import { canonicalEvent } from './canonicalEvent.js';
import { checkTenure, HELD_BY_A_BOT } from './tenure.js';
import { NewTables } from './newTables.js';
import { ReplayCheckpoints } from './replayCheckpoints.js';
import { readTableLog, recordOfTable, type ReplayedTable } from './replay.js';
import { toNewEvent, TURN_TIMED_OUT } from './tableLog.js';
import { ResidentTables, stateOf, type ResidentTable } from './residentTables.js';
import { statusOf } from './tableStatus.js';
import { withSchema } from './upcasters.js';
import type { ForkRequest } from './tableFork.js';
import { Autopilot, NotTheOwner, type AutopilotOptions, type OwnMoveListener } from './autopilot.js';
import { isTableQuarantined, QuarantineVerdicts, withQuarantines, type Quarantine, type TableQuarantined } from './quarantine.js';
import { planRepair, repairedEvent } from './tableRepair.js';
import type { Accepted, CreateTableRequest, Repaired, SubmitOptions, TableService } from './tableService.js';
import type { Tracer } from '@opentelemetry/api';
import { commandAttributes } from '../tracing/commandSpans.js';
import { CommandSteps, UNTRACED_STEPS } from '../tracing/commandSteps.js';
import { isTracing, NO_TRACING } from '../tracing/tracing.js';

export interface TableHostOptions {
  readonly store: EventStore;
  /** A persisted snapshot is written after this many events since the last. */
  readonly snapshotEvery?: number;
  /** How long a finished game stays in memory unused (30 s by default), at most the idle time of a table in play. */
  readonly finishedIdleMs?: number;
  readonly now?: () => Date;
  /**
   * Who deals: the host, from a secret seed for each hand (the default), or
   * the caller through `deal()` — pre-dealt boards, and tests that must
   * drive the host through the deals a model chose.
   */
  readonly dealing?: 'shuffled' | 'external';
  /** Told when a snapshot cannot be saved (the command still succeeds); the default writes to stderr. */
  readonly onSnapshotError?: (error: unknown, tableId: string) => void;
  /** Told once when a table is found quarantined (quarantine.ts), for the operator; the default writes a line to stderr. */
  readonly onQuarantined?: (verdict: TableQuarantined) => void;
  /**
   * The tables drive themselves: the host plays their bot seats and runs
   * their turn clocks (autopilot.ts). Off by default, for the tools that
   * drive a host step by step (the CLI, the model tests, the benchmarks).
   */
  readonly autopilot?: AutopilotOptions;
  /** Makes the spans of a command submitted with a trace (SubmitOptions.trace); none: the no-op tracer. */
  readonly tracer?: Tracer;
}

const DEFAULT_SNAPSHOT_EVERY = 100;
/**
 * A finished game is only read now (a view, its replay, its record), and
 * cheaply rebuilt from the snapshot its passivation writes: kept for the
 * idle time of a table in play (10 minutes on npm start), the games a busy
 * service finishes were most of what it held in memory.
 */
const DEFAULT_FINISHED_IDLE_MS = 30_000;

export class TableHost implements TableService {
  private readonly store: EventStore;
  private readonly snapshotEvery: number;
  private readonly finishedIdleMs: number;
  private readonly now: () => Date;
  private readonly dealing: 'shuffled' | 'external';
  private readonly onSnapshotError: (error: unknown, tableId: string) => void;
  private readonly tables: ResidentTables;
  private readonly verdicts: QuarantineVerdicts;
  /** Commands for one table run one at a time. */
  private readonly queues = new TableQueues();
  private readonly newTables: NewTables;
  private readonly replays: ReplayCheckpoints;
  private readonly contributions: SeatContributions;
  private readonly autopilot: Autopilot | null;
  /** Whether this host may still make the table's own moves (a worker: it holds the lease). */
  private readonly mayAct: (tableId: string) => boolean;
  private readonly tracer: Tracer;

  constructor(options: TableHostOptions) {
    this.store = options.store;
    this.replays = new ReplayCheckpoints(options.store);
    this.contributions = new SeatContributions(options.store);
    this.snapshotEvery = options.snapshotEvery ?? DEFAULT_SNAPSHOT_EVERY;
    this.finishedIdleMs = options.finishedIdleMs ?? DEFAULT_FINISHED_IDLE_MS;
    this.now = options.now ?? (() => new Date());
    this.dealing = options.dealing ?? 'shuffled';
    this.mayAct = options.autopilot?.mayAct ?? (() => true);
    this.tracer = options.tracer ?? NO_TRACING.tracer;
    this.onSnapshotError =
      options.onSnapshotError ?? ((error, tableId) => console.error(`table ${tableId}: saving a snapshot failed:`, error));
    // A move lost to a failed append leaves nothing armed: the table is taken up again a moment later, from its log.
    const takeUpAgain = (tableId: string) => setTimeout(() => void this.takeUp(tableId).catch(() => undefined), 1000).unref();
    this.autopilot = options.autopilot === undefined ? null : new Autopilot(this, { onMoveLost: takeUpAgain, ...options.autopilot });
    this.verdicts = new QuarantineVerdicts(options.onQuarantined ?? ((verdict) => console.error(verdict.message)));
    // A table rebuilt here has just been taken up: what it awaits is armed again from its log.
    this.tables = new ResidentTables({
      store: this.store,
      onSnapshotError: this.onSnapshotError,
      onRebuilt: (table) => this.autopilot?.tableChanged(stateOf(table)),
      verdicts: this.verdicts,
    });
    this.newTables = new NewTables({
      store: this.store,
      replays: this.replays,
      queues: this.queues,
      tables: this.tables,
      now: this.now,
      dealing: this.dealing,
      owedEvents: (table) => this.owedEvents(table),
      commit: (table, events, options) => this.commit(table, events, options),
    });
  }

  get residentTables(): number {
    return this.tables.size;
  }

  async createTable(request: CreateTableRequest): Promise<Accepted> {
    return this.newTables.create(request);
  }

  /** A table from a finished game's record, checked and folded off the event loop (newTables.ts). */
  async importRecord(document: unknown): Promise<Accepted> {
    return this.newTables.importRecord(document);
  }

  /** A table that plays on from event `request.at` of a finished game (newTables.ts, tableFork.ts). */
  async forkTable(tableId: string, request: ForkRequest): Promise<Accepted> {
    return this.newTables.fork(tableId, request);
  }

  /**
   * Checks a command against the machine and, if it is allowed, makes it
   * durable and applies it. A command sent with a seat token names its
   * `holder` (the token's hash): it is refused unless that token still holds
   * the seat, checked here, in the table's queue, where nothing can change
   * hands between the check and the command. `seenVersion`, the version the
   * sender last saw, is later than this host's copy only if another writer
   * appended meanwhile (a host that owns the table by lease): the copy is then
   * rebuilt from the log first. Checked in the queue too, once this host's own
   * appends under way are done, so they never look like someone else's.
   */
  async submit(tableId: string, command: unknown, { holder, seenVersion, trace }: SubmitOptions = {}): Promise<Accepted> {
    const steps =
      trace === undefined || !isTracing(this.tracer)
        ? UNTRACED_STEPS
        : new CommandSteps(this.tracer, trace, commandAttributes(tableId, command));
    const turnCame = steps.waiting();
    return this.queues.run(tableId, async () => {
      turnCame();
      let table = await this.tables.load(tableId);
      if (seenVersion !== undefined && seenVersion > table.version) {
        this.tables.evict(tableId);
        table = await this.tables.load(tableId);
      }
      if ((command as { type?: unknown } | null)?.type === 'hand.dealt') {
        throw new TableRefusal('malformed', 'deals are made by the host, never sent to a table');
      }
      if (holder !== undefined) checkTenure(tableId, table.committed.context, (command as { seat?: unknown } | null)?.seat, holder);
      if (isContributionCommand(command)) return this.contribute(table, command, steps);
      return this.accept(table, command, { steps });
    });
  }

  /**
   * A bot seat's move, made by the table itself (the autopilot). Checked,
   * in the table's queue, that this host may still act for the table: a
   * move that waited there while the lease was lost (behind an append NATS
   * kept retrying) would otherwise meet the new owner's events in the log.
   */
  async botMove(tableId: string, move: PlayerCommand): Promise<Accepted> {
    return this.queues.run(tableId, async () => {
      this.checkMayAct(tableId);
      const table = await this.tables.load(tableId);
      checkTenure(tableId, table.committed.context, move.seat, HELD_BY_A_BOT);
      return this.accept(table, move);
    });
  }

  private checkMayAct(tableId: string): void {
    if (!this.mayAct(tableId)) throw new NotTheOwner(tableId);
  }

  /**
   * A seat's turn clock ran out: records the timeout and `move` (a bot's
   * move for that seat) in one append. Refused, changing nothing, when the
   * table has moved on since `version` (the seat acted in time after all),
   * and, as a bot's move is, when this host may no longer act for it.
   */
  async timeOut(tableId: string, version: number, move: PlayerCommand): Promise<Accepted> {
    return this.queues.run(tableId, async () => {
      this.checkMayAct(tableId);
      const table = await this.tables.load(tableId);
      if (table.version !== version) {
        throw new TableRefusal('notNow', `table ${tableId} moved on from version ${version}; the turn did not time out`);
      }
      return this.accept(table, move, { note: { type: TURN_TIMED_OUT, data: { seat: move.seat } } });
    });
  }

  /** Logs a seat's contribution to the next deal (fairDeals.ts); the machine takes it only in that deal. */
  private async contribute(table: ResidentTable, command: unknown, steps: CommandSteps): Promise<Accepted> {
    await this.contributions.ready(table);
    const event = steps.step(() => this.contributions.contributionEvent(table, command, this.now().toISOString()));
    const accepted = await this.commit(table, [event], { steps });
    this.contributions.took(table, event);
    return accepted;
  }

  /**
   * Checks a command against the committed state, applies it and whatever
   * the host owes the table after it, and commits them in one append,
   * after `note` (a host event explaining the command) when there is one;
   * each a span of the command's `steps` when a trace follows it.
   */
  private async accept(
    table: ResidentTable,
    command: unknown,
    { note, steps = UNTRACED_STEPS }: { note?: Omit<NewEvent, 'at'>; steps?: CommandSteps } = {},
  ): Promise<Accepted> {
    await this.contributions.ready(table);
    const events = steps.step(() => {
      const refusal = explainRefusal(table.committed, command);
      if (refusal !== null) throw new TableRefusal(refusal.kind, refusal.message);
      const event = canonicalEvent(command as TableEvent);
      const revealedBefore = revealedDealsOf(table.committed.context).length;
      if (!offer(table.actor, event)) throw new Error(`table ${table.tableId}: the machine refused a ${event.type} it had allowed`);
      const at = this.now().toISOString();
      const notes: NewEvent[] = note === undefined ? [] : [{ ...note, at }];
      const reveals = revealedSince(table, revealedBefore, at);
      const owed = this.owedEvents(table).map((each) => toNewEvent(each, at));
      return [...notes, toNewEvent(event, at), ...reveals, ...owed];
    });
    return this.commit(table, events, { steps });
  }

  async snapshot(tableId: string): Promise<{ version: number; snapshot: TableSnapshot }> {
    const table = await this.tables.load(tableId);
    return { version: table.version, snapshot: table.committed };
  }

  async view(tableId: string, viewer: Viewer): Promise<{ version: number; view: TableView }> {
    const { version, snapshot } = await this.snapshot(tableId);
    return { version, view: viewFor(snapshot, viewer) };
  }

  async events(tableId: string, afterVersion = 0): Promise<StoredEvent[]> {
    return readTableLog(this.store, tableId, afterVersion);
  }

  /** The table right after event `at` of its log (its current state when omitted). */
  async replayAt(tableId: string, at?: number): Promise<ReplayedTable> {
    return this.replays.replayAt(tableId, at);
  }

  /** The game record, from the log or, for a table retired, the one it keeps. */
  async exportRecord(tableId: string): Promise<GameRecord> {
    return recordOfTable(this.store, tableId);
  }

  async listTables(): Promise<TableSummary[]> {
    return withQuarantines(await this.store.listTables(), this.verdicts.all());
  }

  quarantinedTables(): readonly Quarantine[] {
    return this.verdicts.all();
  }

  /**
   * Repairs a quarantined table (tableRepair.ts), found so here or not: its
   * refused events voided in one `table.repaired`, appended with the log's
   * version as expected (a writer that got there first is refused), with
   * the next deal if the last good state awaits one. The copy here is then
   * the repaired table, and its bots and clock are armed again from it.
   */
  async repair(tableId: string): Promise<Repaired> {
    return this.queues.run(tableId, async () => {
      const log = await readTableLog(this.store, tableId);
      const plan = planRepair(tableId, log);
      // A copy held here is behind the log (the refused event came from elsewhere): the repaired one takes its place.
      this.tables.evict(tableId);
      const table = this.tables.adopt(tableId, plan.created, plan.actor, log.length, log[log.length - 1].at);
      await this.contributions.ready(table);
      const at = this.now().toISOString();
      const owed = this.owedEvents(table).map((event) => toNewEvent(event, at));
      const accepted = await this.commit(table, [repairedEvent(plan.repaired, at), ...owed]);
      this.verdicts.cleared(tableId);
      return { ...accepted, ...plan.repaired };
    });
  }

  /**
   * Stops the actors of tables idle for `idleMs` (a finished game: for the
   * host's finishedIdleMs, if shorter) and releases them, saving a snapshot
   * first so the next use rehydrates quickly. Returns how many.
   */
  async passivateIdle(idleMs: number): Promise<number> {
    const cutoff = Date.now() - idleMs;
    const finishedCutoff = Date.now() - Math.min(idleMs, this.finishedIdleMs);
    let count = 0;
    for (const table of this.tables.all()) {
      const finished = table.committed.context.outcome?.finished === true;
      if (table.lastUsed > (finished ? finishedCutoff : cutoff) || this.queues.isBusy(table.tableId)) continue;
      await this.passivate(table.tableId);
      count++;
    }
    return count;
  }

  /**
   * Lets the table go: another owner takes it up (a worker whose lease is
   * gone or given back). Its bots and clock stop here; the next owner
   * re-arms them from the log.
   */
  async letGo(tableId: string): Promise<void> {
    this.autopilot?.letGo(tableId);
    await this.passivate(tableId);
  }

  /**
   * Takes the table up: loads it, so that its bots play on and its clock
   * runs (the owner re-arms them from the log). Rejects for no such table.
   */
  async takeUp(tableId: string): Promise<void> {
    await this.queues.run(tableId, async () => {
      // Armed when loaded; a table already here is armed again, as its owner may have just changed.
      const table = await this.tables.load(tableId);
      this.autopilot?.tableChanged(stateOf(table));
    });
  }

  /**
   * Takes up every table under way (dealt and not finished), `concurrency`
   * at a time, so their bots play on and their clocks run after a restart;
   * stops early once `stopped()` says so.
   */
  async takeUpTablesUnderWay(
    concurrency: number,
    stopped: () => boolean,
    onError: (error: unknown, tableId: string) => void,
  ): Promise<void> {
    const underWay = (await this.store.listTables())
      .filter(({ status }) => status !== null && status.finished !== true && status.phase !== 'seating')
      .map(({ tableId }) => tableId);
    // A quarantined table stays where it is: the operator has been told of it once already (onQuarantined).
    const takeUp = (tableId: string) =>
      this.takeUp(tableId).catch((error: unknown) => {
        if (!isTableQuarantined(error)) onError(error, tableId);
      });
    await fewAtATime(underWay, concurrency, takeUp, stopped);
  }

  /** Whether the table has a bot move or a timeout to come here: an owner keeps such a table rather than letting it go idle. */
  hasMovesToCome(tableId: string): boolean {
    return this.autopilot?.isArmed(tableId) ?? false;
  }

  /** Hears every move the tables make by themselves (metrics); nothing without the autopilot. */
  onOwnMove(listener: OwnMoveListener): () => void {
    return this.autopilot?.onOwnMove(listener) ?? (() => undefined);
  }

  /** Hears every event appended through this host's store, whoever appended it (a gateway's sockets follow the tables). */
  subscribe(listener: EventListener): () => void {
    return this.store.subscribe(listener);
  }

  async passivate(tableId: string): Promise<void> {
    await this.queues.run(tableId, () => this.tables.passivate(tableId));
  }

  async close(): Promise<void> {
    await this.autopilot?.close();
    await this.newTables.close();
    await this.queues.idle();
    await this.tables.snapshotsWritten();
    this.tables.evictAll();
  }

  /** Deals the next hand of a table whose host deals externally; checked like any command. */
  async deal(tableId: string, deal: unknown): Promise<Accepted> {
    return this.queues.run(tableId, async () => {
      if (this.dealing !== 'external') {
        throw new TableRefusal('malformed', 'this host shuffles and deals itself; deals are not sent to it');
      }
      const table = await this.tables.load(tableId);
      if ((deal as { type?: unknown } | null)?.type !== 'hand.dealt') {
        throw new TableRefusal('malformed', 'a deal is a hand.dealt event');
      }
      return this.accept(table, deal);
    });
  }

  /** What the host owes a table after its last event: the deal of the next hand, when it deals itself (owedEvents.ts). */
  private owedEvents(table: ResidentTable): TableEvent[] {
    return this.dealing === 'external' ? [] : dealsOwed(table, (hand) => this.contributions.to(table, hand));
  }

  /**
   * Appends events the actor has already taken. Only once they are durable
   * do reads see the new state; if the append fails the actor is discarded
   * and the table is rebuilt from its log on next use. `persisted`: the
   * actor after these events as XState persists it, made off the event loop
   * (a fork or an import, folded on the worker), saved as the snapshot
   * rather than persisted again here: for a long game that took 80 ms of the
   * loop per fork under the fork flood of issue 26.
   */
  private async commit(
    table: ResidentTable,
    unstamped: readonly NewEvent[],
    { steps = UNTRACED_STEPS, persisted }: { steps?: CommandSteps; persisted?: unknown } = {},
  ): Promise<Accepted> {
    const next = table.actor.getSnapshot();
    const events = unstamped.map(withSchema);
    let version: number;
    try {
      version = await steps.append(table.version + 1, () => this.store.append(table.tableId, events, table.version, statusOf(next)));
    } catch (error) {
      this.tables.evict(table.tableId);
      throw error;
    }
    const first = table.version + 1;
    table.version = version;
    table.committed = next;
    table.lastUsed = Date.now();
    table.lastEventAt = events[events.length - 1].at;
    this.autopilot?.tableChanged(stateOf(table));
    if (version - table.snapshotVersion >= this.snapshotEvery) {
      // The events are durable already, so the answer does not wait for the snapshot, nor fails with it:
      // it is a cache, the log stays the truth, and the next snapshot tries again.
      this.tables.saveSnapshot(table, persisted).catch((error: unknown) => this.onSnapshotError(error, table.tableId));
    }
    return { tableId: table.tableId, version, events: events.map((event, i) => ({ ...event, seq: first + i })) };
  }
}
