// Starts a TypeScript module on a worker thread: the service runs its sources through tsx, and a worker
// thread does not inherit the loader the main thread was started with.
import { register } from 'tsx/esm/api';
import { workerData } from 'node:worker_threads';

register();
await import(workerData.module);
