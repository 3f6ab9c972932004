/**
 * The tables a host holds in memory: each one's actor, the state as of its
 * last durable event, and its snapshot bookkeeping. A table that is not here
 * is rebuilt on first use from its latest snapshot and the events after it,
 * or from its whole log; one that goes idle is saved and dropped. Loading,
 * saving and dropping happen here; the host decides when, in the table's
 * queue, so nothing here runs twice at once for one table. A table whose
 * log the machine refuses is never held: its verdict is (quarantine.ts),
 * and it is folded again only once its log has moved on.
 */
import { resumeTable, type TableActor, type TableSnapshot } from '../../machines/table/snapshot.js';
import type { EventStore } from '../eventstore/eventStore.js';
import { missingTable } from './errors.js';
import { isTableQuarantined, type QuarantineVerdicts } from './quarantine.js';
import { applyLogEvents, foldLog } from './replay.js';
import { loadSavedTable, savedTableOf } from './savedTable.js';
import type { TableCreated } from './tableLog.js';
import { settingsOf, type TableSettings } from './tableSettings.js';
import type { TableState } from './autopilot.js';

export interface ResidentTable {
  readonly tableId: string;
  readonly created: TableCreated;
  readonly settings: TableSettings;
  readonly actor: TableActor;
  /** The state as of the last durable event: what views and reads see. */
  committed: TableSnapshot;
  version: number;
  /** The version of the last snapshot taken, written or still being written. */
  snapshotVersion: number;
  lastUsed: number;
  /** When the last event was accepted (ISO); '' for a table not yet committed. */
  lastEventAt: string;
}

export interface ResidentTablesOptions {
  readonly store: EventStore;
  /** Told when a snapshot cannot be saved; the log stays the truth. */
  readonly onSnapshotError: (error: unknown, tableId: string) => void;
  /** Told of every table rebuilt from the store: it has just been taken up here. */
  readonly onRebuilt: (table: ResidentTable) => void;
  /** Where the tables found quarantined are remembered, with their log's version. */
  readonly verdicts: QuarantineVerdicts;
}

export class ResidentTables {
  private readonly store: EventStore;
  private readonly onSnapshotError: (error: unknown, tableId: string) => void;
  private readonly onRebuilt: (table: ResidentTable) => void;
  private readonly verdicts: QuarantineVerdicts;
  private readonly live = new Map<string, ResidentTable>();
  private readonly loading = new Map<string, Promise<ResidentTable>>();
  /** Each table's snapshot writes under way, chained: a later snapshot never lands before an earlier one. */
  private readonly snapshotWrites = new Map<string, Promise<void>>();

  constructor(options: ResidentTablesOptions) {
    this.store = options.store;
    this.onSnapshotError = options.onSnapshotError;
    this.onRebuilt = options.onRebuilt;
    this.verdicts = options.verdicts;
  }

  get size(): number {
    return this.live.size;
  }

  get(tableId: string): ResidentTable | undefined {
    return this.live.get(tableId);
  }

  /** The tables held now, as a list that stays put while tables come and go. */
  all(): ResidentTable[] {
    return [...this.live.values()];
  }

  /** The table, from memory or rebuilt from the store; concurrent loads of one table share one rebuild. */
  async load(tableId: string): Promise<ResidentTable> {
    const resident = this.live.get(tableId);
    if (resident !== undefined) {
      resident.lastUsed = Date.now();
      return resident;
    }
    let pending = this.loading.get(tableId);
    if (pending === undefined) {
      pending = this.rebuildUnlessQuarantined(tableId)
        .then((table) => {
          this.verdicts.cleared(tableId);
          this.onRebuilt(table);
          return table;
        })
        .finally(() => this.loading.delete(tableId));
      this.loading.set(tableId, pending);
    }
    return pending;
  }

  /** Holds a table whose actor the caller has just made (a new table) or rebuilt. */
  adopt(
    tableId: string,
    created: TableCreated,
    actor: TableActor,
    version: number,
    lastEventAt: string,
    snapshotVersion = 0,
  ): ResidentTable {
    const table: ResidentTable = {
      tableId,
      created,
      settings: settingsOf(created),
      actor,
      committed: actor.getSnapshot(),
      version,
      snapshotVersion,
      lastUsed: Date.now(),
      lastEventAt,
    };
    this.live.set(tableId, table);
    return table;
  }

  /** Stops the table's actor and forgets it: its next use rebuilds it from the store. */
  evict(tableId: string): void {
    this.live.get(tableId)?.actor.stop();
    this.live.delete(tableId);
  }

  /** Saves a snapshot, then drops the table. */
  async passivate(tableId: string): Promise<void> {
    const table = this.live.get(tableId);
    if (table === undefined) return;
    if (table.version > table.snapshotVersion) await this.saveSnapshot(table);
    await this.snapshotWrites.get(tableId);
    this.evict(tableId);
  }

  /**
   * Takes a snapshot of the table as committed now and writes it after the
   * table's earlier snapshot writes. Call it only while the actor is at the
   * committed state (in the table's queue, between commands): during an
   * append the actor runs ahead of the log. The caller need not wait for
   * the write: a snapshot is a cache, and a failed one is retried at the next.
   * `persisted`: the actor as XState persists it now, if the caller has it already.
   */
  saveSnapshot(table: ResidentTable, persisted: unknown = table.actor.getPersistedSnapshot()): Promise<void> {
    const { tableId, version } = table;
    const saved = savedTableOf(table.created, persisted, table.lastEventAt);
    const before = table.snapshotVersion;
    table.snapshotVersion = version;
    const write = (this.snapshotWrites.get(tableId) ?? Promise.resolve())
      .then(() => this.store.saveSnapshot(tableId, { version, snapshot: saved }))
      .catch((error: unknown) => {
        if (table.snapshotVersion === version) table.snapshotVersion = before;
        throw error;
      });
    const settled = write.catch(() => undefined);
    this.snapshotWrites.set(tableId, settled);
    void settled.then(() => {
      if (this.snapshotWrites.get(tableId) === settled) this.snapshotWrites.delete(tableId);
    });
    return write;
  }

  /** Resolves once every snapshot write under way has landed or failed. */
  async snapshotsWritten(): Promise<void> {
    await Promise.all(this.snapshotWrites.values());
  }

  evictAll(): void {
    for (const tableId of [...this.live.keys()]) this.evict(tableId);
  }

  /** The table rebuilt, or the verdict that stands on it, without a read of its log while the log is where it was judged. */
  private async rebuildUnlessQuarantined(tableId: string): Promise<ResidentTable> {
    const standing = await this.verdicts.standing(tableId, () => this.store.version(tableId));
    if (standing !== null) throw standing;
    return this.rebuild(tableId);
  }

  /**
   * A snapshot is used only when the machine that wrote it is the one that
   * would resume it (savedTable.ts); otherwise the table is folded from its
   * whole log, and the snapshot written again by the machine of today.
   */
  private async rebuild(tableId: string): Promise<ResidentTable> {
    const stored = await this.store.loadSnapshot(tableId);
    const saved = stored === null ? null : loadSavedTable(tableId, stored.snapshot);
    if (stored !== null && saved !== null) {
      const actor = resumeTable(saved.persisted, saved.created.rules);
      const later = await this.store.read(tableId, stored.version);
      this.judged(stored.version + later.length, () => applyLogEvents(tableId, actor, later));
      const lastAt = later.at(-1)?.at ?? saved.lastEventAt ?? (await this.store.read(tableId, stored.version - 1)).at(-1)?.at ?? '';
      return this.adopt(tableId, saved.created, actor, stored.version + later.length, lastAt, stored.version);
    }
    const events = await this.store.read(tableId);
    if (events.length === 0) throw await missingTable(this.store, tableId);
    const { created, actor } = this.judged(events.length, () => foldLog(tableId, events));
    const lastEventAt = events[events.length - 1].at;
    // Written before the table is resident, so no later snapshot of it can be saved first and then overwritten.
    const rewritten =
      stored !== null &&
      (await this.rewriteSnapshot(tableId, events.length, savedTableOf(created, actor.getPersistedSnapshot(), lastEventAt)));
    return this.adopt(tableId, created, actor, events.length, lastEventAt, rewritten ? events.length : 0);
  }

  /** Runs a fold of the table's log as it stands at `version`, remembering the verdict when the fold quarantines it. */
  private judged<T>(version: number, fold: () => T): T {
    try {
      return fold();
    } catch (error) {
      if (isTableQuarantined(error)) this.verdicts.found(error, version);
      throw error;
    }
  }

  /** Saves a snapshot in place of one that could not be used; tells whether it was saved. */
  private async rewriteSnapshot(tableId: string, version: number, saved: ReturnType<typeof savedTableOf>): Promise<boolean> {
    try {
      await this.store.saveSnapshot(tableId, { version, snapshot: saved });
      return true;
    } catch (error) {
      this.onSnapshotError(error, tableId);
      return false;
    }
  }
}

/** What the autopilot is told of a resident table. */
export function stateOf(table: ResidentTable): TableState {
  return {
    tableId: table.tableId,
    version: table.version,
    snapshot: table.committed,
    settings: table.settings,
    lastEventAt: table.lastEventAt,
  };
}
