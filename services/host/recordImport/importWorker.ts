/** The fold worker's thread: prepares each record, or folds each fork, it is sent, one at a time (recordImports.ts). */
import { parentPort } from 'node:worker_threads';
import { isTableRefusal } from '../errors.js';
import { foldFork } from '../tableFork.js';
import { prepareImport } from './prepareImport.js';
import type { FoldAnswer, FoldOrder } from './recordImports.js';

parentPort!.on('message', (message: FoldOrder & { id: number }) => {
  const { id } = message;
  let reply: FoldAnswer;
  try {
    if ('fork' in message) {
      const { tableId, log, request, at } = message.fork;
      reply = { id, folded: foldFork(tableId, log, request, at) };
    } else {
      reply = { id, plan: prepareImport(message.document) };
    }
  } catch (error) {
    if (isTableRefusal(error)) reply = { id, refusal: { kind: error.kind, message: error.message } };
    else reply = { id, error: error instanceof Error ? error.message : String(error) };
  }
  parentPort!.postMessage(reply);
});
