/**
 * The one way a gateway changes tables: players' commands, seat changes,
 * new, imported and forked tables, and repairs all go through here to the
 * tables' owner.
 * Each acknowledged change is announced, with the table's state exactly as
 * of that change, to the listeners (sockets, lobby). Changes to one table
 * made here are made and announced one at a time, so listeners see every
 * change once, in order. (Bot moves and timeouts are the owner's; sockets
 * hear of them from the log, tableWatchers.ts.)
 */
import type { TableSnapshot } from '../../machines/table/snapshot.js';
import { turnDeadline } from '../clock/turnClock.js';
import type { Accepted, CreateTableRequest, Repaired, SubmitOptions } from '../host/tableService.js';
import type { ForkRequest } from '../host/tableFork.js';
import type { TableService } from '../host/tableService.js';
import { TableQueues } from '../tableQueues/tableQueues.js';
import type { CommandSource, GatewayMetrics } from './metrics.js';
import { refusalOf } from './refusals.js';
import { TableFactsCache, type TableFacts } from './tableFacts.js';

export interface TableChange {
  readonly tableId: string;
  readonly version: number;
  /** The committed state at `version`. Only viewFor may turn it into anything a client sees. */
  readonly snapshot: TableSnapshot;
  readonly facts: TableFacts;
  readonly turnDeadline: string | null;
}

export type ChangeListener = (change: TableChange) => void;

/** A table held for a sequence of changes no other writer may come between (a seat changing hands). */
export interface TableAtHand {
  readonly current: TableChange;
  submit(command: unknown, options?: Pick<SubmitOptions, 'holder'>): Promise<Accepted>;
}

export interface FeedCommandOptions extends Pick<SubmitOptions, 'holder' | 'trace'> {
  readonly source: CommandSource;
}

export interface TableFeedOptions {
  readonly host: TableService;
  readonly metrics?: GatewayMetrics;
  /** A listener failed, or a change could not be announced; the change itself stands. */
  readonly onError?: (error: unknown, tableId: string) => void;
}

export class TableFeed {
  private readonly host: TableService;
  private readonly facts: TableFactsCache;
  private readonly metrics: GatewayMetrics | undefined;
  private readonly listeners = new Set<ChangeListener>();
  private readonly onError: (error: unknown, tableId: string) => void;
  private readonly queues = new TableQueues();

  constructor(options: TableFeedOptions) {
    this.host = options.host;
    this.metrics = options.metrics;
    this.facts = new TableFactsCache((tableId, after) => this.host.events(tableId, after));
    this.onError = options.onError ?? ((error, tableId) => console.error(`announcing a change of table ${tableId} failed:`, error));
  }

  subscribe(listener: ChangeListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async createTable(request: CreateTableRequest): Promise<Accepted> {
    return this.announceNew(await this.host.createTable(request));
  }

  async importRecord(document: unknown): Promise<Accepted> {
    return this.announceNew(await this.host.importRecord(document));
  }

  async forkTable(tableId: string, request: ForkRequest): Promise<Accepted> {
    return this.announceNew(await this.host.forkTable(tableId, request));
  }

  /** An operator's repair of a quarantined table, announced as any change: the table plays on from it. */
  async repair(tableId: string): Promise<Repaired> {
    return this.queues.run(tableId, async () => {
      const repaired = await this.host.repair(tableId);
      this.facts.learn(tableId, repaired.events);
      await this.announceCurrentNow(tableId).catch((error: unknown) => this.onError(error, tableId));
      return repaired;
    });
  }

  /** A command from `source` (counted in the metrics by it), sent on with its `holder` and `trace` (TableService.submit). */
  async submit(tableId: string, command: unknown, { source, holder, trace }: FeedCommandOptions): Promise<Accepted> {
    const { accepted } = await this.queues.run(tableId, () =>
      this.measured(source, () => this.host.submit(tableId, command, { holder, trace }), tableId),
    );
    return accepted;
  }

  /** Runs `work` with the table held: its submits are the only changes to the table until it ends. */
  withTable<T>(tableId: string, source: CommandSource, work: (table: TableAtHand) => Promise<T>): Promise<T> {
    return this.queues.run(tableId, async () => {
      let current = await this.current(tableId);
      return work({
        get current() {
          return current;
        },
        submit: async (command, { holder } = {}) => {
          const done = await this.measured(source, () => this.host.submit(tableId, command, { holder }), tableId);
          current = done.change ?? (await this.current(tableId));
          return done.accepted;
        },
      });
    });
  }

  /** The table as it stands, with its facts, without announcing anything. */
  async current(tableId: string): Promise<TableChange> {
    const { version, snapshot } = await this.host.snapshot(tableId);
    const facts = await this.facts.of(tableId, version);
    // A finished game changes no more: what is kept of it is read from the log again if it is ever asked for.
    if (snapshot.context.outcome?.finished === true) this.facts.forget(tableId);
    return { tableId, version, snapshot, facts, turnDeadline: turnDeadline(snapshot, facts.settings.turnSeconds, facts.lastEventAt) };
  }

  /** A table just made here: its facts are learnt from its whole log, as appended, rather than read back. */
  private async announceNew(accepted: Accepted): Promise<Accepted> {
    const { tableId } = accepted;
    this.facts.learn(tableId, accepted.events);
    await this.queues.run(tableId, () => this.announceCurrentNow(tableId)).catch((error: unknown) => this.onError(error, tableId));
    return accepted;
  }

  private async announceCurrentNow(tableId: string): Promise<TableChange> {
    const change = await this.current(tableId);
    for (const listener of [...this.listeners]) {
      try {
        listener(change);
      } catch (error) {
        this.onError(error, tableId);
      }
    }
    return change;
  }

  /** Makes a write, counts it, and announces the change it made (null when the announcement failed). */
  private async measured(
    source: CommandSource,
    write: () => Promise<Accepted>,
    tableId: string,
  ): Promise<{ accepted: Accepted; change: TableChange | null }> {
    const started = performance.now();
    let accepted: Accepted;
    try {
      accepted = await write();
    } catch (error) {
      this.metrics?.commandSettled(source, { refused: refusalOf(error)?.error ?? 'internal' }, (performance.now() - started) / 1000);
      throw error;
    }
    this.metrics?.commandSettled(source, 'accepted', (performance.now() - started) / 1000);
    this.facts.learn(tableId, accepted.events);
    const change = await this.announceCurrentNow(tableId).catch((error: unknown) => {
      this.onError(error, tableId);
      return null;
    });
    return { accepted, change };
  }
}
