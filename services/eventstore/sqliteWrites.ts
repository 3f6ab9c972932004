/**
 * What a group commit of the SQLite event store (sqliteGroupCommit.mjs) is
 * given and answers: plain data, as it crosses to the writer thread and
 * back. The store encodes the writes (sqliteEventStore.ts) and words the
 * refusals.
 */

export interface EncodedEvent {
  readonly type: string;
  readonly at: string;
  readonly dataJson: string;
}

interface AppendWrite {
  readonly kind: 'append';
  readonly tableId: string;
  readonly events: readonly EncodedEvent[];
  readonly expectedVersion: number;
  /** undefined keeps the table's last status. */
  readonly statusJson: string | undefined;
}

interface SnapshotWrite {
  readonly kind: 'snapshot';
  readonly tableId: string;
  readonly version: number;
  readonly snapshotJson: string;
}

interface RetireWrite {
  readonly kind: 'retire';
  readonly tableId: string;
  readonly expectedVersion: number;
  readonly recordJson: string;
  readonly retiredAt: string;
}

export type Write = AppendWrite | SnapshotWrite | RetireWrite;

/** What became of one write of a committed batch. */
export type WriteOutcome =
  | { readonly kind: 'appended'; readonly version: number }
  | { readonly kind: 'snapshotSaved' }
  | { readonly kind: 'retired' }
  /** The table was retired before: an append or a retirement is refused. */
  | { readonly kind: 'alreadyRetired' }
  /** The log is not where the append expected it: at `actualVersion`, or (null) a position it meant to take is taken. */
  | { readonly kind: 'conflict'; readonly actualVersion: number | null }
  /** A snapshot ahead of the log, which is at `logVersion` (the store words the refusal with checkSnapshot). */
  | { readonly kind: 'snapshotAhead'; readonly logVersion: number };

/** A batch as committed, or the error that undid all of it (lock timeout, disk full), as SQLite named it. */
export type BatchResult =
  | { readonly committed: readonly WriteOutcome[]; readonly durationMs: number }
  | { readonly failed: { readonly message: string; readonly code: string | undefined } };

export type GroupCommitter = (batch: readonly Write[]) => BatchResult;
