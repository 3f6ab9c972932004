// Starts the writer thread's TypeScript module: the service runs its sources through tsx, and a worker thread
// does not inherit the loader the main thread was started with (as services/host/recordImport/boot.mjs).
import { register } from 'tsx/esm/api';
import { workerData } from 'node:worker_threads';

register();
await import(workerData.module);
