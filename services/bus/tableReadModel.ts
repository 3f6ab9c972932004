/**
 * A gateway's own copy of the tables it reads, folded from the log: loaded
 * from the event store on first read, then kept current by the store's feed
 * of appended events (and the events in the gateway's own command replies,
 * which come sooner). Views are built from it in the gateway process, with
 * the core's view function, so only filtered views leave the process.
 *
 * An event may arrive twice (in a reply and from the feed); each is applied
 * once, in log order, and a gap (a feed that started late) is filled from
 * the log. A table whose log the machine refuses is not followed: its
 * verdict is kept instead (host/quarantine.ts), until a repair comes.
 */
import { TableQueues } from '../tableQueues/tableQueues.js';
import type { TableSnapshot, TableActor } from '../../machines/table/snapshot.js';
import type { EventListener, EventStore, StoredEvent } from '../eventstore/eventStore.js';
import { createSubscribers } from '../eventstore/subscribers.js';
import { missingTable } from '../host/errors.js';
import { isTableQuarantined, QuarantineVerdicts, type Quarantine, type TableQuarantined } from '../host/quarantine.js';
import { applyLogEvents, foldLog } from '../host/replay.js';
import { TABLE_REPAIRED } from '../host/tableLog.js';

interface FollowedTable {
  readonly actor: TableActor;
  version: number;
  committed: TableSnapshot;
  /** When the table was last read here (ms since the epoch). */
  lastRead: number;
}

export interface TableReadModelOptions {
  /** Told once when a table is found quarantined, for the operator; the default writes a line to stderr. */
  readonly onQuarantined?: (verdict: TableQuarantined) => void;
}

export class TableReadModel {
  private readonly store: EventStore;
  private readonly followed = new Map<string, FollowedTable>();
  /** The tail of each table's queue: loads and applications for one table run one at a time. */
  private readonly queues = new TableQueues();
  private readonly listeners = createSubscribers();
  private readonly verdicts: QuarantineVerdicts;

  constructor(store: EventStore, options: TableReadModelOptions = {}) {
    this.store = store;
    this.verdicts = new QuarantineVerdicts(options.onQuarantined ?? ((verdict) => console.error(verdict.message)));
  }

  get followedTables(): number {
    return this.followed.size;
  }

  /** The tables found quarantined here and not repaired since. */
  quarantinedTables(): Quarantine[] {
    return this.verdicts.all();
  }

  /** The table as of the last event this gateway knows of; loaded from the log on first read. */
  async snapshot(tableId: string): Promise<{ version: number; snapshot: TableSnapshot }> {
    const known = this.followed.get(tableId);
    const table = known ?? (await this.queues.run(tableId, () => this.load(tableId)));
    table.lastRead = Date.now();
    return { version: table.version, snapshot: table.committed };
  }

  /**
   * Events of one append (or more), as a worker published or answered them.
   * A table this gateway does not follow is not loaded for them, but the
   * listeners hear of them all the same.
   */
  offer(tableId: string, events: readonly StoredEvent[]): Promise<void> {
    if (events.length === 0) return Promise.resolve();
    if (this.verdicts.isQuarantined(tableId) && events.some((event) => event.type === TABLE_REPAIRED)) {
      return this.refoldRepaired(tableId, events);
    }
    const known = this.followed.get(tableId);
    if (known !== undefined && !this.queues.isBusy(tableId)) {
      // The usual case, without a turn in the queue: the next events of a table in step, or ones it has.
      const next = events.filter((event) => event.seq > known.version);
      if (next.length === 0) return Promise.resolve();
      if (next[0].seq === known.version + 1) {
        this.apply(tableId, known, next);
        return Promise.resolve();
      }
    }
    if (!this.followed.has(tableId) && !this.queues.isBusy(tableId) && events[0].seq !== 1) {
      this.announce(tableId, events);
      return Promise.resolve();
    }
    return this.queues.run(tableId, async () => {
      const table = this.followed.get(tableId);
      if (table === undefined) {
        // A whole new table costs no read to follow; a later part of one not followed is only passed on.
        if (events[0].seq === 1) this.follow(tableId, events, { announce: true });
        else this.announce(tableId, events);
        return;
      }
      const next = events.filter((event) => event.seq > table.version);
      if (next.length === 0) return;
      if (next[0].seq === table.version + 1) this.apply(tableId, table, next);
      else await this.readOn(tableId, table);
    });
  }

  /** Whether this gateway keeps a copy of the table (so events for it are applied, not just passed on). */
  follows(tableId: string): boolean {
    return this.followed.has(tableId);
  }

  /** Reads the log on from the version held: after a refusal that shows this copy behind, or a reconnection. */
  catchUp(tableId: string): Promise<void> {
    return this.queues.run(tableId, async () => {
      const table = this.followed.get(tableId);
      if (table !== undefined) await this.readOn(tableId, table);
    });
  }

  versionOf(tableId: string): number | undefined {
    return this.followed.get(tableId)?.version;
  }

  /** Calls `listener` with every event this gateway hears of, once each, after its table's copy took it. */
  subscribe(listener: EventListener): () => void {
    return this.listeners.add(listener);
  }

  /** Stops following the table (its actor is stopped); the next read loads it again. */
  forget(tableId: string): Promise<void> {
    return this.queues.run(tableId, async () => {
      this.followed.get(tableId)?.actor.stop();
      this.followed.delete(tableId);
    });
  }

  /** Stops following the tables not read for `idleMs`; returns their ids. */
  forgetIdle(idleMs: number): string[] {
    const cutoff = Date.now() - idleMs;
    const forgotten: string[] = [];
    for (const [tableId, table] of [...this.followed]) {
      if (table.lastRead > cutoff || this.queues.isBusy(tableId)) continue;
      table.actor.stop();
      this.followed.delete(tableId);
      forgotten.push(tableId);
    }
    return forgotten;
  }

  async close(): Promise<void> {
    await this.queues.idle();
    for (const table of this.followed.values()) table.actor.stop();
    this.followed.clear();
  }

  /** A repaired table plays on at once: its copy here is folded again before anyone hears of the repair. */
  private async refoldRepaired(tableId: string, events: readonly StoredEvent[]): Promise<void> {
    await this.queues.run(tableId, () => this.load(tableId)).catch(() => undefined);
    this.announce(tableId, events);
  }

  private async load(tableId: string): Promise<FollowedTable> {
    const known = this.followed.get(tableId);
    if (known !== undefined) return known;
    const standing = await this.verdicts.standing(tableId, () => this.store.version(tableId));
    if (standing !== null) throw standing;
    const events = await this.store.read(tableId);
    if (events.length === 0) throw await missingTable(this.store, tableId);
    return this.follow(tableId, events, { announce: false });
  }

  /** Folds a table's whole log into the copy this gateway reads; with `announce`, its listeners hear each event. */
  private follow(tableId: string, events: readonly StoredEvent[], { announce }: { announce: boolean }): FollowedTable {
    const version = events[events.length - 1].seq;
    let actor: TableActor;
    try {
      actor = foldLog(tableId, events).actor;
    } catch (error) {
      if (isTableQuarantined(error)) this.verdicts.found(error, version);
      throw error;
    }
    this.verdicts.cleared(tableId);
    const table: FollowedTable = { actor, version, committed: actor.getSnapshot(), lastRead: Date.now() };
    this.followed.set(tableId, table);
    if (announce) this.announce(tableId, events);
    return table;
  }

  private announce(tableId: string, events: readonly StoredEvent[]): void {
    for (const event of events) this.listeners.publish(tableId, event);
  }

  private async readOn(tableId: string, table: FollowedTable): Promise<void> {
    const later = await this.store.read(tableId, table.version);
    if (later.length > 0) this.apply(tableId, table, later);
  }

  /**
   * Applies the next events of a followed table. One the machine refuses
   * ends the following: the copy is dropped and the verdict kept, which the
   * next read answers with.
   */
  private apply(tableId: string, table: FollowedTable, events: readonly StoredEvent[]): void {
    try {
      applyLogEvents(tableId, table.actor, events);
    } catch (error) {
      if (!isTableQuarantined(error)) throw error;
      table.actor.stop();
      this.followed.delete(tableId);
      this.verdicts.found(error, events[events.length - 1].seq);
      return;
    }
    table.version = events[events.length - 1].seq;
    table.committed = table.actor.getSnapshot();
    this.announce(tableId, events);
  }
}
