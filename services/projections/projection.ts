/**
 * A projection: a read model folded from every table's events. It is a pure
 * fold, nothing more; the runner (runner.ts) owns delivery, checkpoints and
 * failures, so a new projection is one small module (README.md).
 */
import type { StoredEvent } from '../eventstore/eventStore.js';

export interface Projection<State> {
  /** Names the projection in checkpoints, errors and metrics: letters, digits, `_` and `-`. */
  readonly name: string;
  /** The read model before any event. */
  initial(): State;
  /**
   * The read model after `event` of table `tableId`. Events come in order per table, each exactly once. The state
   * must stay JSON (it is stored with the checkpoint). It may be changed in place: after a throw the runner drops it.
   */
  apply(state: State, tableId: string, event: StoredEvent): State;
}

/** A projection's apply threw: the runner stopped there, skipping nothing; the stored checkpoint is before this event. */
export class ProjectionFailed extends Error {
  readonly kind = 'ProjectionFailed' as const;
  constructor(
    readonly projection: string,
    readonly tableId: string,
    readonly seq: number,
    readonly eventType: string,
    override readonly cause: unknown,
  ) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    super(`projection ${projection} failed on table ${tableId} at event ${seq} (${eventType}): ${reason}`);
    this.name = 'ProjectionFailed';
  }
}

export function isProjectionFailed(error: unknown): error is ProjectionFailed {
  return error instanceof ProjectionFailed || (error as { kind?: unknown } | null)?.kind === 'ProjectionFailed';
}

const PROJECTION_NAME = /^[A-Za-z0-9_-]{1,64}$/;

export function checkProjectionName(name: string): void {
  if (!PROJECTION_NAME.test(name)) {
    throw new RangeError(`a projection's name is 1 to 64 letters, digits, "_" or "-"; "${name}" is not`);
  }
}
