/**
 * The SQLite event store's writes on their way to the disk: group commit.
 * Every write requested while the last commit was under way, or in one turn
 * of the event loop, goes to the writer (sqliteWriter.ts) as ONE batch, one
 * transaction and one fsync however many tables it touched. Committed writes
 * are answered in commit order, a slice a turn, so a large batch never holds
 * the loop for all the work its answers set off.
 */
import type { SqliteWriter } from './sqliteWriter.js';
import type { BatchResult, Write, WriteOutcome } from './sqliteWrites.js';

/** What one transaction carried. */
export interface GroupCommit {
  readonly appended: number;
  readonly events: number;
  readonly snapshots: number;
  /** Writes refused inside the transaction (version conflicts, snapshots ahead of the log). */
  readonly refused: number;
  /** From BEGIN to the return of COMMIT (the fsync included), on the writer's thread. */
  readonly durationMs: number;
}

/** A write waiting for its commit, and how its caller is answered. */
interface PendingWrite {
  readonly write: Write;
  /** Called once the batch is committed, with what became of this write. */
  readonly settle: (outcome: WriteOutcome) => void;
  readonly reject: (error: unknown) => void;
}

export interface CommitQueue {
  enqueue(write: PendingWrite): void;
  /** Commits what is queued, answers it all, then ends the writer. */
  drain(): Promise<void>;
}

/**
 * Committed writes answered in one turn of the event loop: about 3 ms of a
 * gateway's work (each answer's views and sends), so HTTP requests and
 * socket commands are not held long behind them. With 32 a turn (about 13 ms)
 * a saturated gateway's HTTP probe waited two to three times as long at the
 * median, for about the same moves a second (bench:gateway, issue 17's
 * closing note).
 */
const ANSWERS_PER_TURN = 8;

export function createCommitQueue(writer: SqliteWriter, path: string, onCommit?: (commit: GroupCommit) => void): CommitQueue {
  let pending: PendingWrite[] = [];
  let scheduled: NodeJS.Immediate | undefined;
  /** The commit under way on the writer, if any: writes requested meanwhile wait for the next. */
  let committing: Promise<void> | null = null;
  /** Committed writes still to be answered (answerSome), and who waits for them all to be. */
  const answers: (() => void)[] = [];
  let answering: NodeJS.Immediate | undefined;
  const whenAnswered: (() => void)[] = [];

  function commitPending(): void {
    scheduled = undefined;
    if (committing !== null || pending.length === 0) return;
    const batch = pending;
    pending = [];
    committing = writer.commit(batch.map(({ write }) => write)).then((result) => {
      committing = null;
      // The next batch, of what was requested during this commit, goes to the writer before this one is answered.
      commitPending();
      answerBatch(batch, result);
    });
  }

  function answerBatch(batch: readonly PendingWrite[], result: BatchResult): void {
    if ('failed' in result) {
      const error = storageError(path, result.failed);
      for (const write of batch) answers.push(() => write.reject(error));
    } else {
      if (onCommit !== undefined) reportCommit(onCommit, batch, result.committed, result.durationMs);
      batch.forEach((write, index) => answers.push(() => write.settle(result.committed[index])));
    }
    answering ??= setImmediate(answerSome);
  }

  /** Each answer sets off its caller's work (a move's views and sends): a slice a turn, in commit order. */
  function answerSome(): void {
    answering = undefined;
    for (const answer of answers.splice(0, ANSWERS_PER_TURN)) answer();
    if (answers.length > 0) answering = setImmediate(answerSome);
    else for (const resolve of whenAnswered.splice(0)) resolve();
  }

  return {
    enqueue(write) {
      pending.push(write);
      // setImmediate, not a microtask: it gathers every write made while this turn's callbacks run, not just one tick's.
      if (committing === null) scheduled ??= setImmediate(commitPending);
    },
    async drain() {
      if (scheduled !== undefined) clearImmediate(scheduled);
      commitPending();
      while (committing !== null) await committing;
      if (answering !== undefined) await new Promise<void>((resolve) => whenAnswered.push(resolve));
      await writer.close();
    },
  };
}

function reportCommit(
  onCommit: (commit: GroupCommit) => void,
  batch: readonly PendingWrite[],
  outcomes: readonly WriteOutcome[],
  durationMs: number,
): void {
  let appended = 0;
  let events = 0;
  let snapshots = 0;
  let refused = 0;
  outcomes.forEach((outcome, index) => {
    const { write } = batch[index];
    switch (outcome.kind) {
      case 'appended':
        appended++;
        if (write.kind === 'append') events += write.events.length;
        break;
      case 'snapshotSaved':
        snapshots++;
        break;
      case 'conflict':
      case 'snapshotAhead':
      case 'alreadyRetired':
        refused++;
        break;
    }
  });
  try {
    onCommit({ appended, events, snapshots, refused, durationMs });
  } catch (error) {
    console.error('event store onCommit callback failed:', error);
  }
}

/** The error that undid a whole batch, named as SQLite named it, with the file it is about. */
function storageError(path: string, failed: { readonly message: string; readonly code: string | undefined }): Error {
  if (failed.code === undefined) return new Error(failed.message);
  const named = new Error(`SQLite database ${path}: ${failed.message}`);
  named.name = 'StorageError';
  return Object.assign(named, { code: failed.code });
}
