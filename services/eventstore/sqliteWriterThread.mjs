/**
 * The SQLite event store's writer thread: it holds the file's writing
 * connection and commits each batch the store sends it (sqliteGroupCommit.mjs),
 * one at a time, in the order sent, answering with the batch's outcome. The
 * fsync of a commit waits here, not on the service's event loop. JavaScript,
 * so the thread starts without tsx; what it is sent and answers is typed in
 * sqliteWriter.ts (WriterThreadData, ToWriterThread) and sqliteWrites.ts.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { groupCommitter, openWritingConnection } from './sqliteGroupCommit.mjs';

const { path, busyTimeoutMs, maxBytes } = workerData;
const db = openWritingConnection(path, busyTimeoutMs, maxBytes);
const commit = groupCommitter(db);
const port = parentPort;

port?.on('message', (message) => {
  if ('close' in message) {
    db.close();
    port.close();
    return;
  }
  port.postMessage(commit(message.batch));
});
