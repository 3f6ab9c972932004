/**
 * Where the SQLite event store's commits run: on a writer thread of their
 * own for a file (the fsync of each commit waits there, never on the event
 * loop), or on the caller's thread for an in-memory database (which no other
 * connection can reach). Either way one batch is committed at a time, in the
 * order given.
 */
import { Worker } from 'node:worker_threads';
import type Database from 'better-sqlite3';
import { capFileSize, groupCommitter } from './sqliteGroupCommit.mjs';
import type { BatchResult, Write } from './sqliteWrites.js';

/** What the writer thread (sqliteWriterThread.mjs) is started with. */
interface WriterThreadData {
  readonly path: string;
  readonly busyTimeoutMs: number;
  /** The most the file may grow to (max_page_count); undefined: the disk's size. */
  readonly maxBytes: number | undefined;
}

/** To the thread: a batch to commit, or the word to close the file and end. It answers each batch with its BatchResult. */
type ToWriterThread = { readonly batch: readonly Write[] } | { readonly close: true };

export interface SqliteWriter {
  /** Commits `batch` in one transaction; never rejects (a failed batch is a result too). Call again only once settled. */
  commit(batch: readonly Write[]): Promise<BatchResult>;
  /** Ends the writer once the batch under way, if any, is done. */
  close(): Promise<void>;
}

/** Commits on the calling thread: for `:memory:`, whose database only `db` can reach. */
export function writerOnThisThread(db: Database.Database, maxBytes?: number): SqliteWriter {
  if (maxBytes !== undefined) capFileSize(db, maxBytes);
  const commit = groupCommitter(db);
  return {
    commit: async (batch) => commit(batch),
    close: async () => undefined,
  };
}

/** Commits on a thread of its own, through a second connection to the file at `path` (whose schema must exist). */
export function writerOnItsOwnThread(path: string, busyTimeoutMs: number, maxBytes?: number): SqliteWriter {
  const data: WriterThreadData = { path, busyTimeoutMs, maxBytes };
  const worker = new Worker(new URL('./sqliteWriterThread.mjs', import.meta.url), { workerData: data });
  // An idle writer must not keep the process alive (a CLI command that never closes its store still ends).
  worker.unref();
  let waiting: ((result: BatchResult) => void) | null = null;
  let stopped: string | null = null;

  const fail = (why: string) => {
    stopped ??= why;
    const answer = waiting;
    waiting = null;
    answer?.({ failed: { message: why, code: undefined } });
  };
  worker.on('message', (result: BatchResult) => {
    const answer = waiting;
    waiting = null;
    worker.unref();
    answer?.(result);
  });
  worker.on('error', (error) => fail(`the SQLite writer thread failed: ${error.message}`));
  const exited = new Promise<void>((resolve) =>
    worker.once('exit', (code) => {
      fail(`the SQLite writer thread ended (exit code ${code})`);
      resolve();
    }),
  );

  return {
    commit(batch) {
      if (stopped !== null) return Promise.resolve({ failed: { message: stopped, code: undefined } });
      if (waiting !== null) throw new Error('the SQLite writer was sent a batch while one was under way');
      return new Promise<BatchResult>((resolve) => {
        waiting = resolve;
        worker.ref();
        worker.postMessage({ batch } satisfies ToWriterThread);
      });
    },
    async close() {
      worker.ref();
      if (stopped === null) worker.postMessage({ close: true } satisfies ToWriterThread);
      await exited;
    },
  };
}
