/**
 * The SQLite event store's writer thread: it holds the file's writing
 * connection and commits each batch the store sends it (sqliteWrites.ts),
 * one at a time, in the order sent, answering with the batch's outcome. The
 * fsync of a commit waits here, not on the service's event loop.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { groupCommitter, openWritingConnection, type BatchResult, type Write } from './sqliteWrites.js';

export interface WriterThreadData {
  readonly module: string;
  readonly path: string;
  readonly busyTimeoutMs: number;
}

/** To the thread: a batch to commit, or the word to close the file and end. */
export type ToWriterThread = { readonly batch: readonly Write[] } | { readonly close: true };

const { path, busyTimeoutMs } = workerData as WriterThreadData;
const db = openWritingConnection(path, busyTimeoutMs);
const commit = groupCommitter(db);
const port = parentPort!;

port.on('message', (message: ToWriterThread) => {
  if ('close' in message) {
    db.close();
    port.close();
    return;
  }
  const result: BatchResult = commit(message.batch);
  port.postMessage(result);
});
