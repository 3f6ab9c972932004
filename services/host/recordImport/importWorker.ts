/** The import worker's thread: prepares each record it is sent, one at a time (recordImports.ts). */
import { parentPort } from 'node:worker_threads';
import { prepareImport } from './prepareImport.js';

parentPort!.on('message', ({ id, document }: { id: number; document: unknown }) => {
  let reply;
  try {
    reply = { id, plan: prepareImport(document) };
  } catch (error) {
    reply = { id, error: error instanceof Error ? error.message : String(error) };
  }
  parentPort!.postMessage(reply);
});
