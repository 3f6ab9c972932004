/**
 * A table worker process (`npm run start:worker`): serves the tables whose
 * leases it holds, over the NATS cluster named by NATS_URL, with the event
 * log in JetStream, playing their bots and running their turn clocks.
 * Settings: services/bus/natsSettings.ts; WORKER_ID names it (a subject
 * token; unique by default); SUITORS_IDLE_SECONDS (300) is how long a table
 * goes without a command before the worker lets it go (unless a bot move or
 * a timeout is to come); SUITORS_BOT_DELAY_MS (600) is the wait before each
 * bot move. Prints `ready <worker id>` once it
 * takes commands. SIGTERM or SIGINT stops it gracefully: commands under way
 * finish and its leases are given up, so other workers take its tables at
 * once.
 */
import { openJetStreamEventStore } from '../eventstore/jetstream/index.js';
import { connectToNats, natsSettingsFrom } from '../bus/natsSettings.js';
import { wholeNumberFromEnv } from '../wholeNumber.js';
import { DEFAULT_IDLE_RELEASE_MS, startTableWorker } from './tableWorker.js';
import { DEFAULT_BOT_DELAY_MS } from '../host/autopilot.js';

const settings = natsSettingsFrom();
if (settings === null) {
  console.error('NATS_URL is not set: a table worker serves tables over NATS. Set NATS_URL=nats://host:4222[,nats://...]; the single-process service is `npm start`.');
  process.exit(2);
}
const log = (line: string) => process.stderr.write(`${new Date().toISOString()} ${line}\n`);
const nc = await connectToNats(settings.servers, 'suitors-table-worker');
const { replicas, streamName, prefix } = settings;
const store = await openJetStreamEventStore({ connection: nc, replicas, streamName, prefix });
const worker = await startTableWorker({
  nc,
  store,
  ...(process.env.WORKER_ID ? { workerId: process.env.WORKER_ID } : {}),
  leaseTtlMs: settings.leaseTtlMs,
  idleReleaseMs: wholeNumberFromEnv('SUITORS_IDLE_SECONDS', DEFAULT_IDLE_RELEASE_MS / 1000, { min: 1 }) * 1000,
  botDelayMs: wholeNumberFromEnv('SUITORS_BOT_DELAY_MS', DEFAULT_BOT_DELAY_MS),
  leaseReplicas: replicas,
  leaseNamespace: streamName,
  prefix,
  log,
});
process.stdout.write(`ready ${worker.workerId}\n`);

let stopping = false;
async function stop(signal: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  log(`${worker.workerId} got ${signal}: finishing commands under way and giving up its leases`);
  await worker.stop();
  await store.close();
  await nc.drain();
  process.exit(0);
}
process.on('SIGTERM', () => void stop('SIGTERM'));
process.on('SIGINT', () => void stop('SIGINT'));
