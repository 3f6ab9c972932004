/**
 * How a table begins at a host: made new, imported from a finished game's
 * record, or forked from a point of another's log. Each starts with its
 * creation, the events it begins through and whatever the host owes it after
 * them, in one append. Imports and forks fold their logs on worker threads of
 * their own (recordImport/), so a long game stalls no table, and a fork flood
 * refuses no import, nor imports forks.
 */
import type { TableEvent } from '../../machines/table/events.js';
import { resumeTable, type TableActor } from '../../machines/table/snapshot.js';
import type { EventStore, NewEvent } from '../eventstore/eventStore.js';
import type { TableQueues } from '../tableQueues/tableQueues.js';
import { TableRefusal } from './errors.js';
import { foldNewTable } from './newTableFold.js';
import { newTableId, planNewTable } from './newTable.js';
import { FoldWorker } from './recordImport/recordImports.js';
import type { ReplayCheckpoints } from './replayCheckpoints.js';
import { readTableLog } from './replay.js';
import type { ResidentTable, ResidentTables } from './residentTables.js';
import { checkForkPoint, type ForkRequest } from './tableFork.js';
import { createdEvent, rulesOfNewTable, toNewEvent, type TableCreated } from './tableLog.js';
import type { Accepted, CreateTableRequest } from './tableService.js';

/** Forks folding or waiting for the fork worker; the next is refused as busy (503). The gateway's budget takes fewer. */
const MAX_PENDING_FORK_FOLDS = 16;

/** What of the host a table's beginning uses: its tables, their queues and its clock, what it owes a table, its commit. */
export interface BeginningHost {
  readonly store: EventStore;
  readonly replays: ReplayCheckpoints;
  readonly queues: TableQueues;
  readonly tables: ResidentTables;
  readonly now: () => Date;
  readonly dealing: 'shuffled' | 'external';
  owedEvents(table: ResidentTable): TableEvent[];
  commit(table: ResidentTable, events: readonly NewEvent[], options: { persisted?: unknown }): Promise<Accepted>;
}

export class NewTables {
  private readonly imports = new FoldWorker('record imports');
  private readonly forkFolds = new FoldWorker('forks', MAX_PENDING_FORK_FOLDS);

  constructor(private readonly host: BeginningHost) {}

  async create(request: CreateTableRequest): Promise<Accepted> {
    const plan = planNewTable(request);
    // A caller that deals (external) owes nobody a commitment: the table then takes no contributions.
    const { firstCommitment: _commitment, dealSecret: _secret, ...dealtByCaller } = plan.created;
    return this.startNewTable(this.host.dealing === 'external' ? dealtByCaller : plan.created, plan.events);
  }

  /**
   * Creates a table from a finished game's record, after checking it
   * against the rules. The checking and folding are done on the import
   * worker's thread (recordImport/), so a large record stalls no table.
   */
  async importRecord(document: unknown): Promise<Accepted> {
    const plan = await this.imports.prepare(document);
    if (!plan.ok) throw new TableRefusal('invalidRecord', plan.message);
    const created: TableCreated = { game: plan.game, options: plan.options, ...rulesOfNewTable(plan.game, plan.rules) };
    const at = this.host.now().toISOString();
    const logged = plan.events.map((event) => toNewEvent(event, at));
    // An imported game is finished: nothing is owed after it, so what the worker persisted is the table.
    return this.startTable(created, () => resumeTable(plan.persisted, created.rules), logged, at, plan.persisted);
  }

  /**
   * Creates a table that plays on from event `request.at` of a finished
   * game (tableFork.ts): the original's game up to there, replayed into the
   * new table, then whatever the host owes it (the next deal, between hands).
   * The original is only read, from its log: it need not be resident here.
   */
  async fork(tableId: string, request: ForkRequest): Promise<Accepted> {
    const original = await this.host.replays.replayAt(tableId);
    checkForkPoint(tableId, original, request.at);
    const log = await readTableLog(this.host.store, tableId);
    // Both folds (the original up to the fork point, the new table through it) run on the fork worker: a fork of a
    // long game folds thousands of events twice, which held the event loop for as long on every fork.
    const at = this.host.now().toISOString();
    const { created, logged, persisted } = await this.forkFolds.foldFork({ tableId, log, request, at });
    return this.startTable(created, () => resumeTable(persisted, created.rules), logged, at, persisted);
  }

  /**
   * Starts a table with `events` after its creation, and what the host owes
   * it after them; a hand scored among them is revealed (`hand.revealed`)
   * right after, as when it is played.
   */
  private async startNewTable(created: TableCreated, events: readonly TableEvent[]): Promise<Accepted> {
    const at = this.host.now().toISOString();
    const { actor, logged } = foldNewTable(created, events, at);
    return this.startTable(created, () => actor, logged, at);
  }

  /**
   * A new table, its actor already through `logged`: its creation, those
   * events and whatever the host owes it after them, in one append.
   * `persisted`, the actor as folded off the loop, is saved as its snapshot
   * unless the host owed the table more events.
   */
  private startTable(
    created: TableCreated,
    actor: () => TableActor,
    logged: readonly NewEvent[],
    at: string,
    persisted?: unknown,
  ): Promise<Accepted> {
    const tableId = newTableId();
    return this.host.queues.run(tableId, async () => {
      const table = this.host.tables.adopt(tableId, created, actor(), 0, '');
      const owed = this.host.owedEvents(table);
      const events = [createdEvent(created, at), ...logged, ...owed.map((event) => toNewEvent(event, at))];
      return this.host.commit(table, events, owed.length === 0 ? { persisted } : {});
    });
  }

  async close(): Promise<void> {
    await Promise.all([this.imports.close(), this.forkFolds.close()]);
  }
}
