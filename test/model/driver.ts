/**
 * How the model-based suite talks to a system under test. A path runner only
 * ever starts a table, sends it events and reads its snapshot, so any host
 * of a table can be driven by the same generated paths, each plugged into
 * `runPath` unchanged: the bare XState actor and the persisted snapshot
 * (here), and the table host service (hostDriver.ts: a host that deals
 * externally, so the model's `hand.dealt` steps go to `host.deal`; a
 * TableRefusal is `send` returning false; `snapshot()` is the committed
 * snapshot the host serves).
 */
import { createActor, type Actor, type AnyStateMachine, type InspectionEvent, type StateValue } from 'xstate';
import type { TableContext, TableInput } from '../../machines/table/context.js';
import type { TableEvent } from '../../machines/table/events.js';
import { machineFor } from '../../machines/games/index.js';
import { resumeTable, startTable, type TableActor } from '../../machines/table/snapshot.js';

/** What a driver shows of a table: the parts of XState's snapshot that are the table's state. */
export interface DriverSnapshot {
  readonly value: StateValue;
  readonly context: TableContext;
  /** 'active' while the game runs, 'done' once the machine reached its final state. */
  readonly status: string;
}

type MaybePromise<T> = T | Promise<T>;

export interface TableDriver {
  /** Creates a fresh table with this input (seats empty, nothing dealt). */
  start(input: TableInput): MaybePromise<void>;
  /** Offers an event; true when the table took it, false when it refused it. */
  send(event: TableEvent): MaybePromise<boolean>;
  /** The table's current state. */
  snapshot(): MaybePromise<DriverSnapshot>;
  /** Releases the table (optional). */
  stop?(): MaybePromise<void>;
  /**
   * Optional, stronger check than equal content: whether the snapshot object
   * is the one seen before (a bare actor keeps its snapshot object on refusal).
   */
  isSameSnapshot?(before: DriverSnapshot, after: DriverSnapshot): boolean;
}

export interface ActorDriverOptions {
  /** The machine to run for a game; the production machine unless a test swaps it (instrumented or broken). */
  readonly machineFor?: (game: TableInput['game']) => AnyStateMachine;
  /** Called with every inspection event of the actor (coverage recording). */
  readonly inspect?: (event: InspectionEvent) => void;
  /** Called around every start and send, e.g. to record guard evaluations only while the actor works. */
  readonly onBusy?: (busy: boolean) => void;
}

/** Drives a bare XState actor of a table machine, in process. */
export class ActorDriver implements TableDriver {
  private actor: Actor<AnyStateMachine> | null = null;

  constructor(private readonly options: ActorDriverOptions = {}) {}

  start(input: TableInput): void {
    this.stop();
    const machine = this.options.machineFor?.(input.game) ?? (machineFor(input.game) as unknown as AnyStateMachine);
    this.options.onBusy?.(true);
    try {
      // The actor computes its initial state (and evaluates the first eventless guards) when created.
      this.actor = createActor(machine, { input, inspect: this.options.inspect });
      this.actor.start();
    } finally {
      this.options.onBusy?.(false);
    }
  }

  send(event: TableEvent): boolean {
    const actor = this.live();
    const before = actor.getSnapshot();
    // An actor that reached its final state has stopped and takes nothing (XState only warns about the send).
    if (before.status !== 'active') return false;
    this.options.onBusy?.(true);
    try {
      actor.send(event);
    } finally {
      this.options.onBusy?.(false);
    }
    // As `offer` does: a machine that takes no transition keeps its snapshot object.
    return actor.getSnapshot() !== before;
  }

  snapshot(): DriverSnapshot {
    return this.live().getSnapshot() as DriverSnapshot;
  }

  isSameSnapshot(before: DriverSnapshot, after: DriverSnapshot): boolean {
    return before === after;
  }

  stop(): void {
    this.actor?.stop();
    this.actor = null;
  }

  private live(): Actor<AnyStateMachine> {
    if (this.actor === null) throw new Error('the driver has no table: call start() first');
    return this.actor;
  }
}

/**
 * A second driver: the table lives only as XState's persisted snapshot, sent
 * through JSON, and every event resumes a fresh actor from it (resumeTable),
 * as a host that reloads its tables from storage would. What it shows is
 * always what the stored snapshot restores to.
 */
export class PersistedSnapshotDriver implements TableDriver {
  private persisted: unknown = null;
  private current: DriverSnapshot | null = null;

  start(input: TableInput): void {
    this.store(startTable(input));
  }

  send(event: TableEvent): boolean {
    const actor = resumeTable(this.persisted);
    const before = actor.getSnapshot();
    if (before.status !== 'active') {
      actor.stop();
      return false;
    }
    actor.send(event);
    const accepted = actor.getSnapshot() !== before;
    if (accepted) this.store(actor);
    else actor.stop();
    return accepted;
  }

  snapshot(): DriverSnapshot {
    if (this.current === null) throw new Error('the driver has no table: call start() first');
    return this.current;
  }

  private store(actor: TableActor): void {
    this.persisted = JSON.parse(JSON.stringify(actor.getPersistedSnapshot()));
    actor.stop();
    const restored = resumeTable(this.persisted);
    this.current = restored.getSnapshot() as unknown as DriverSnapshot;
    restored.stop();
  }
}
