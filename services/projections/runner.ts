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
  const { source, projection, checkpoints } = options;
  checkProjectionName(projection.name);
  const onSaveError = options.onSaveError ?? ((error: unknown) => console.error(`saving projection ${projection.name} failed:`, error));
  let state = projection.initial();
  let tables = new TablePositions();
  let failure: ProjectionFailed | null = null;
  let stopped = false;
  let folded = 0;
  let unsaved = false;
  let passes: Promise<void> = Promise.resolve();
  let passQueued = false;
  let savedAt = Number.NEGATIVE_INFINITY;
  let saveTimer: NodeJS.Timeout | undefined;
  const saveEveryMs = options.saveEveryMs ?? 0;

  const hear: EventListener = (tableId, event) => {
    if (failure !== null || stopped || !tables.hear(tableId, event)) return;
    // A pass that fails keeps its error in `failure` or for the next pass to meet; nobody awaits this one.
    schedulePass().catch(() => undefined);
  };

  function schedulePass(): Promise<void> {
    if (!passQueued) {
      passQueued = true;
      // A failed read leaves its table behind for this next pass to read again.
      passes = passes
        .catch(() => undefined)
        .then(async () => {
          passQueued = false;
          await pass();
        });
    }
    return passes;
  }

  async function pass(): Promise<void> {
    for (let tableId = tables.nextBehind(); tableId !== undefined && failure === null; tableId = tables.nextBehind()) {
      await foldTable(tableId);
    }
    if (!unsaved || checkpoints === undefined || failure !== null) return;
    const wait = savedAt + saveEveryMs - performance.now();
    if (wait <= 0) await save();
    // A pass of its own saves what the last passes folded, if no event brings one sooner.
    else
      saveTimer ??= setTimeout(() => {
        saveTimer = undefined;
        schedulePass().catch(() => undefined);
      }, wait).unref();
  }

  async function foldTable(tableId: string): Promise<void> {
    let events: readonly StoredEvent[];
    try {
      events = tables.takeHeard(tableId) ?? (await source.read(tableId, tables.of(tableId)));
    } catch (error) {
      tables.stillBehind(tableId);
      throw error;
    }
    for (const event of events) {
      const position = tables.of(tableId);
      if (event.seq <= position) continue;
      if (event.seq !== position + 1) {
        throw new Error(`projection ${projection.name}: table ${tableId} gave event ${event.seq} after ${position}, not ${position + 1}`);
      }
      try {
        state = projection.apply(state, tableId, event);
      } catch (error) {
        failure = new ProjectionFailed(projection.name, tableId, event.seq, event.type, error);
        unsubscribe();
        throw failure;
      }
      tables.folded(tableId, event.seq);
      folded++;
      unsaved = true;
    }
  }

  async function save(): Promise<void> {
    const checkpoint: Checkpoint = { state, positions: tables.toRecord() };
    try {
      await checkpoints!.save(projection.name, checkpoint);
      unsaved = false;
      savedAt = performance.now();
    } catch (error) {
      onSaveError(error);
    }
  }

  async function listAndFold(): Promise<void> {
    for (const { tableId, version } of await source.listTables()) tables.noteHead(tableId, version);
    await schedulePass();
  }

  let unsubscribe: () => void = () => undefined;
  const caughtUp = (async () => {
    const saved = checkpoints === undefined ? null : await checkpoints.load(projection.name);
    if (saved !== null) {
      state = saved.state as State;
      tables = new TablePositions(saved.positions);
    }
    unsubscribe = source.subscribe(hear);
    await listAndFold();
  })();
  caughtUp.catch(() => undefined);

  return {
    name: projection.name,
    caughtUp,
    state() {
      if (failure !== null) throw failure;
      return state;
    },
    lag: () => tables.lag(),
    folded: () => folded,
    failure: () => failure,
    async catchUp() {
      await caughtUp;
      await listAndFold();
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      unsubscribe();
      clearTimeout(saveTimer);
      await caughtUp.catch(() => undefined);
      await passes.catch(() => undefined);
      if (unsaved && checkpoints !== undefined && failure === null) await save();
    },
  };
}
