/**
 * What a worker asks of table ownership, and of sharing tables with other
 * workers: the calls its parts make (tableLeases.ts is the one that keeps
 * them in NATS KV; the fault tests give a worker one of their own).
 */
import type { Claim } from './leaseBuckets.js';
import type { StopOptions } from './workerLife.js';

/** `fresh`: the table was not this life's before, so it may have moved on since this worker last saw it. */
export type TakeResult = { readonly taken: true; readonly fresh: boolean } | { readonly taken: false; readonly owner: string };

/** Thrown by `take` while the worker has no valid life (NATS unreachable, or a new life not yet begun). */
export class NoLease extends Error {
  constructor(workerId: string) {
    super(`worker ${workerId} has no valid lease on its life right now (it cannot reach NATS, or is starting a new one)`);
    this.name = 'NoLease';
  }
}

/** A live worker's life, and how many tables it holds. */
export interface LifeLoad {
  readonly life: Claim;
  readonly tables: number;
}

/** What sharing tables among workers asks of ownership (rebalancing.ts); TableLeases is the one. */
export interface SharedOwnership {
  /** Every life renewed on time now, this worker's first, with the tables each holds. */
  liveLoads(): LifeLoad[];
  /**
   * Hands a table this worker holds to another life. From the call on, this
   * worker serves none of its commands and makes none of its moves; once
   * `quiet` has settled (the table's queue served, its bots and clock
   * stopped), the claim is rewritten to name `to`, at the revision held, so
   * no one else's change is overwritten. Commands that come meanwhile wait,
   * then find the new owner. False when the table is not handed (not held,
   * or its claim changed or could not be written: then it is this worker's
   * again for its next command or sweep).
   */
  handOver(tableId: string, to: Claim, quiet: () => Promise<void>): Promise<boolean>;
  /** Hears of each table another worker handed to this one, held from then on, for it to take up. */
  onHandedIn(listener: (tableId: string) => void): void;
}

/** What a worker asks of table ownership; TableLeases is the real one. */
export interface TableOwnership {
  holds(tableId: string): boolean;
  heldTables(): string[];
  take(tableId: string): Promise<TakeResult>;
  verify(tableId: string): Promise<void>;
  release(tableId: string): Promise<void>;
  /** Tables claimed in a life that is over (the worker died or gave its life up): free for anyone to take. */
  orphans(): Promise<string[]>;
  stop(how: StopOptions): Promise<void>;
}
