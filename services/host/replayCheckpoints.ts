/**
 * Replays served from checkpoints: the table as XState persists it every
 * `every` events of its log, kept for the tables replayed last. A replay at
 * event N resumes the nearest checkpoint at or before N and folds the few
 * events after it, so its cost grows with the distance from a checkpoint,
 * not with N; the first replay of a table lays the checkpoints it passes.
 * A log only grows, so a checkpoint never goes stale. (Reads still run from
 * the checkpoint to the log's end: the event store has no upper bound yet.)
 */
import { resumeTable, startTable, type TableActor } from '../../machines/table/snapshot.js';
import type { EventStore, StoredEvent } from '../eventstore/eventStore.js';
import { missingTable } from './errors.js';
import { TableQueues } from '../tableQueues/tableQueues.js';
import { applyLogEvents, type ReplayedTable } from './replay.js';
import { tableCreatedOf, voidedIn, type TableCreated } from './tableLog.js';

interface Checkpoint {
  readonly version: number;
  readonly created: TableCreated;
  readonly persisted: unknown;
}

export interface ReplayCheckpointsOptions {
  /** Events between two checkpoints of a table. */
  readonly every?: number;
  /** Tables whose checkpoints are kept; the one replayed longest ago is dropped first. */
  readonly tables?: number;
}

export class ReplayCheckpoints {
  private readonly every: number;
  private readonly maxTables: number;
  private readonly byTable = new Map<string, Checkpoint[]>();
  private readonly queues = new TableQueues();

  constructor(
    private readonly store: EventStore,
    options: ReplayCheckpointsOptions = {},
  ) {
    this.every = options.every ?? 100;
    this.maxTables = options.tables ?? 16;
  }

  /**
   * The table right after event `at` of its log (at its end when omitted; 1
   * = just created). Replays of one table run one at a time: the first lays
   * the checkpoints the ones waiting behind it then start from, rather than
   * each folding the whole log at once.
   */
  replayAt(tableId: string, at?: number): Promise<ReplayedTable> {
    return this.queues.run(tableId, () => this.replayNow(tableId, at));
  }

  private async replayNow(tableId: string, at?: number): Promise<ReplayedTable> {
    const version = await this.store.version(tableId);
    if (version === 0) throw await missingTable(this.store, tableId);
    const upTo = at === undefined ? version : Math.max(1, Math.min(at, version));
    const checkpoints = this.checkpointsOf(tableId);
    const nearest = [...checkpoints].reverse().find((checkpoint) => checkpoint.version <= upTo);
    let created: TableCreated;
    let actor: TableActor;
    let events: StoredEvent[];
    // Voids are read from all the log read, up to its end: a replay cut between an event and its repair skips it too.
    // (An event voided before a checkpoint was skipped when the checkpoint was laid.)
    let voided: ReadonlySet<number>;
    if (nearest === undefined) {
      const log = await this.store.read(tableId, 0);
      created = tableCreatedOf(log[0], tableId);
      actor = startTable(created);
      events = log.slice(1, upTo);
      voided = voidedIn(log);
    } else {
      created = nearest.created;
      actor = resumeTable(nearest.persisted, created.rules);
      const later = await this.store.read(tableId, nearest.version);
      events = later.slice(0, upTo - nearest.version);
      voided = voidedIn(later);
    }
    for (let start = 0; start < events.length; ) {
      // The first replay of a long table folds its whole log: one stretch of the loop per checkpoint, not one stall for all.
      if (start > 0) await new Promise((resolve) => setImmediate(resolve));
      const nextCheckpoint = Math.ceil(events[start].seq / this.every) * this.every;
      const end = Math.min(events.length, start + (nextCheckpoint - events[start].seq) + 1);
      applyLogEvents(tableId, actor, events.slice(start, end), { voided });
      const reached = events[end - 1].seq;
      if (reached % this.every === 0) this.keep(checkpoints, { version: reached, created, persisted: actor.getPersistedSnapshot() });
      start = end;
    }
    const snapshot = actor.getSnapshot();
    actor.stop();
    return { created, version: upTo, snapshot };
  }

  private checkpointsOf(tableId: string): Checkpoint[] {
    const kept = this.byTable.get(tableId) ?? [];
    // Map order is insertion order: taking a table out and back in makes it the most recently replayed.
    this.byTable.delete(tableId);
    this.byTable.set(tableId, kept);
    if (this.byTable.size > this.maxTables) this.byTable.delete(this.byTable.keys().next().value!);
    return kept;
  }

  private keep(checkpoints: Checkpoint[], checkpoint: Checkpoint): void {
    if (checkpoints.some((each) => each.version === checkpoint.version)) return;
    checkpoints.push(checkpoint);
    checkpoints.sort((a, b) => a.version - b.version);
  }
}
