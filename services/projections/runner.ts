/**
 * Runs a projection over every table's events: from its checkpoint (or the
 * start), every table's events in order, each folded exactly once, then
 * every event appended from then on, as a catch-up subscription does
 * (EventStoreDB): subscribe first, then read what is behind, so nothing
 * slips between the two.
 *
 * The checkpoint is a position per table (the seq of the last event folded),
 * which every store has: the same runner works on memory, SQLite and
 * JetStream through the EventStore port, and on a gateway's TableService.
 * State and positions are saved as one value (checkpoints.ts), after each
 * pass: a crash loses at most the pass under way, which is folded again from
 * the saved positions, never counted twice. An event heard twice (a
 * redelivery, or one also read) is at or below its table's position, and
 * ignored; one heard after a gap sends the runner to read the gap first.
 *
 * A projection that throws stops the runner: ProjectionFailed names the
 * projection, the table and the event's seq; nothing is skipped, and the
 * stored checkpoint stays before that event.
 */
import type { EventListener, StoredEvent } from '../eventstore/eventStore.js';
import type { Checkpoint, ProjectionCheckpoints } from './checkpoints.js';
import { checkProjectionName, ProjectionFailed, type Projection } from './projection.js';
import { TablePositions } from './tablePositions.js';

/** What the runner reads: an EventStore, or a gateway's TableService (whose `events` is its `read`). */
interface ProjectionSource {
  read(tableId: string, afterVersion: number): Promise<readonly StoredEvent[]>;
  listTables(): Promise<readonly { readonly tableId: string; readonly version: number }[]>;
  subscribe(listener: EventListener): () => void;
}

export interface ProjectionRunnerOptions<State> {
  readonly source: ProjectionSource;
  readonly projection: Projection<State>;
  /** Where the state is kept with its checkpoint; none: the runner starts from scratch and keeps nothing. */
  readonly checkpoints?: ProjectionCheckpoints;
  /**
   * The least time between two saves, in ms (0, the default: after every pass). A save writes the whole state, so a
   * large one is saved less often; a crash then folds again what came since the last save, still once each.
   */
  readonly saveEveryMs?: number;
  /** Told when a save fails (the runner goes on, and saves everything at its next pass); default stderr. */
  readonly onSaveError?: (error: unknown) => void;
}

export interface ProjectionRunner<State> {
  readonly name: string;
  /** Settles once every table listed at the start is folded up to its version then; rejects with a ProjectionFailed. */
  readonly caughtUp: Promise<void>;
  /** The read model now; throws the ProjectionFailed once the projection has failed. */
  state(): State;
  /** Events behind the heads the runner knows of (listed or heard), over all tables. */
  lag(): number;
  /** Events folded since this runner started (not those in the checkpoint it started from). */
  folded(): number;
  failure(): ProjectionFailed | null;
  /** Lists the tables again and folds what is behind: events written by a process this store does not hear. */
  catchUp(): Promise<void>;
  /** Stops hearing events, finishes the pass under way and saves. */
  stop(): Promise<void>;
}

export function startProjection<State>(options: ProjectionRunnerOptions<State>): ProjectionRunner<State> {
  checkProjectionName(options.projection.name);
  return new ProjectionRun(options);
}

/** One run of a projection: its state, the tables' positions, and the passes that fold what is behind. */
class ProjectionRun<State> implements ProjectionRunner<State> {
  readonly name: string;
  readonly caughtUp: Promise<void>;
  private readonly source: ProjectionSource;
  private readonly projection: Projection<State>;
  private readonly checkpoints: ProjectionCheckpoints | undefined;
  private readonly onSaveError: (error: unknown) => void;
  private readonly saveEveryMs: number;
  private current: State;
  private tables = new TablePositions();
  private failed: ProjectionFailed | null = null;
  private stopped = false;
  private foldedCount = 0;
  private unsaved = false;
  private passes: Promise<void> = Promise.resolve();
  private passQueued = false;
  private savedAt = Number.NEGATIVE_INFINITY;
  private saveTimer: NodeJS.Timeout | undefined;
  private unsubscribe: () => void = () => undefined;

  constructor(options: ProjectionRunnerOptions<State>) {
    this.source = options.source;
    this.projection = options.projection;
    this.name = options.projection.name;
    this.checkpoints = options.checkpoints;
    this.onSaveError = options.onSaveError ?? ((error: unknown) => console.error(`saving projection ${this.name} failed:`, error));
    this.saveEveryMs = options.saveEveryMs ?? 0;
    this.current = options.projection.initial();
    this.caughtUp = this.start();
    this.caughtUp.catch(() => undefined);
  }

  state(): State {
    if (this.failed !== null) throw this.failed;
    return this.current;
  }

  lag(): number {
    return this.tables.lag();
  }

  folded(): number {
    return this.foldedCount;
  }

  failure(): ProjectionFailed | null {
    return this.failed;
  }

  async catchUp(): Promise<void> {
    await this.caughtUp;
    await this.listAndFold();
  }

  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    this.unsubscribe();
    clearTimeout(this.saveTimer);
    await this.caughtUp.catch(() => undefined);
    await this.passes.catch(() => undefined);
    if (this.unsaved && this.checkpoints !== undefined && this.failed === null) await this.save();
  }

  private async start(): Promise<void> {
    const saved = this.checkpoints === undefined ? null : await this.checkpoints.load(this.name);
    if (saved !== null) {
      this.current = saved.state as State;
      this.tables = new TablePositions(saved.positions);
    }
    this.unsubscribe = this.source.subscribe(this.hear);
    await this.listAndFold();
  }

  private readonly hear: EventListener = (tableId, event) => {
    if (this.failed !== null || this.stopped || !this.tables.hear(tableId, event)) return;
    // A pass that fails keeps its error in `failed` or for the next pass to meet; nobody awaits this one.
    this.schedulePass().catch(() => undefined);
  };

  private async listAndFold(): Promise<void> {
    for (const { tableId, version } of await this.source.listTables()) this.tables.noteHead(tableId, version);
    await this.schedulePass();
  }

  private schedulePass(): Promise<void> {
    if (!this.passQueued) {
      this.passQueued = true;
      // A failed read leaves its table behind for this next pass to read again.
      this.passes = this.passes
        .catch(() => undefined)
        .then(async () => {
          this.passQueued = false;
          await this.pass();
        });
    }
    return this.passes;
  }

  private async pass(): Promise<void> {
    for (let tableId = this.tables.nextBehind(); tableId !== undefined && this.failed === null; tableId = this.tables.nextBehind()) {
      await this.foldTable(tableId);
    }
    if (!this.unsaved || this.checkpoints === undefined || this.failed !== null) return;
    const wait = this.savedAt + this.saveEveryMs - performance.now();
    if (wait <= 0) await this.save();
    // A pass of its own saves what the last passes folded, if no event brings one sooner.
    else
      this.saveTimer ??= setTimeout(() => {
        this.saveTimer = undefined;
        this.schedulePass().catch(() => undefined);
      }, wait).unref();
  }

  private async foldTable(tableId: string): Promise<void> {
    let events: readonly StoredEvent[];
    try {
      events = this.tables.takeHeard(tableId) ?? (await this.source.read(tableId, this.tables.of(tableId)));
    } catch (error) {
      this.tables.stillBehind(tableId);
      throw error;
    }
    for (const event of events) this.fold(tableId, event);
  }

  private fold(tableId: string, event: StoredEvent): void {
    const position = this.tables.of(tableId);
    if (event.seq <= position) return;
    if (event.seq !== position + 1) {
      throw new Error(`projection ${this.name}: table ${tableId} gave event ${event.seq} after ${position}, not ${position + 1}`);
    }
    try {
      this.current = this.projection.apply(this.current, tableId, event);
    } catch (error) {
      this.failed = new ProjectionFailed(this.name, tableId, event.seq, event.type, error);
      this.unsubscribe();
      throw this.failed;
    }
    this.tables.folded(tableId, event.seq);
    this.foldedCount++;
    this.unsaved = true;
  }

  private async save(): Promise<void> {
    const checkpoint: Checkpoint = { state: this.current, positions: this.tables.toRecord() };
    try {
      await this.checkpoints!.save(this.name, checkpoint);
      this.unsaved = false;
      this.savedAt = performance.now();
    } catch (error) {
      this.onSaveError(error);
    }
  }
}
