/**
 * A table worker process (`npm run start:worker`): serves the tables whose
 * leases it holds, over the NATS cluster named by NATS_URL, with the event
 * log in JetStream, playing their bots and running their turn clocks.
 * Settings (services/settings.ts has each one's default and meaning): NATS_URL,
 * NATS_CREDS, NATS_CA, NATS_REPLICAS, NATS_STREAM, NATS_PREFIX, LEASE_TTL_MS, WORKER_ID,
 * SUITORS_IDLE_SECONDS, SUITORS_BOT_DELAY_MS, WORKER_REBALANCE_PER_SECOND, WORKER_METRICS_PORT (Prometheus
 * metrics at GET /metrics, off when unset), HOST (its address) and
 * SUITORS_TRACING, SUITORS_TRACING_URL (services/tracing); all are read, and a bad one
 * refused (status 2), before it connects. Prints `ready <worker id>` once it
 * takes commands. SIGTERM or SIGINT stops it gracefully: commands under way
 * finish and its leases are given up, so other workers take its tables at
 * once.
 */
import { openJetStreamEventStore } from '../eventstore/jetstream/index.js';
import { connectAs, describeAccess } from '../nats/connection.js';
import { natsSettingsFrom, workerEnvironment } from '../settings.js';
import { SettingError } from '../settingReaders.js';
import { startTableWorker } from './tableWorker.js';
import { createWorkerMetrics, serveWorkerMetrics } from './workerMetrics.js';
import { startTracing } from '../tracing/tracing.js';
import { tracingSettingsFrom } from '../tracing/tracingSettings.js';

function readSettings() {
  try {
    return { nats: natsSettingsFrom(), own: workerEnvironment(), tracing: tracingSettingsFrom() };
  } catch (error) {
    if (!(error instanceof SettingError)) throw error;
    console.error(`the table worker could not start: ${error.message}`);
    process.exit(2);
  }
}
const { nats: settings, own, tracing: tracingSettings } = readSettings();
if (settings === null) {
  console.error(
    'NATS_URL is not set: a table worker serves tables over NATS. Set NATS_URL=nats://host:4222[,nats://...]; the single-process service is `npm start`.',
  );
  process.exit(2);
}
const log = (line: string) => process.stderr.write(`${new Date().toISOString()} ${line}\n`);
log(`connecting to NATS at ${settings.servers.join(',')} ${describeAccess(settings, 'worker')}`);
const nc = await connectAs(settings, 'worker').catch((error: unknown) => {
  console.error(`the table worker could not start: ${(error as Error).message}`);
  process.exit(1);
});
const { replicas, streamName, prefix } = settings;
// Counted whether or not they are served: the worker's status (the operator's page) reads its commands/s from them.
const metrics = createWorkerMetrics();
const tracing = startTracing({ service: 'suitors-worker', settings: tracingSettings });
const store = await openJetStreamEventStore({ connection: nc, replicas, streamName, prefix });
const worker = await startTableWorker({
  nc,
  store: metrics.measured(store),
  metrics,
  tracer: tracing.tracer,
  ...(own.workerId === undefined ? {} : { workerId: own.workerId }),
  leaseTtlMs: settings.leaseTtlMs,
  idleReleaseMs: own.idleSeconds * 1000,
  botDelayMs: own.botDelayMs,
  rebalancePerSecond: own.rebalancePerSecond,
  limits: { minTurnSeconds: own.minTurnSeconds },
  leaseReplicas: replicas,
  leaseNamespace: streamName,
  prefix,
  log,
});
const metricsServer =
  own.metrics === undefined
    ? undefined
    : await serveWorkerMetrics(metrics, own.metrics).catch((error: unknown) => {
        console.error(
          `the table worker could not serve its metrics on ${own.metrics?.host}:${own.metrics?.port}: ${(error as Error).message}`,
        );
        process.exit(1);
      });
if (own.metrics !== undefined) log(`${worker.workerId} serves its metrics at http://${own.metrics.host}:${own.metrics.port}/metrics`);
process.stdout.write(`ready ${worker.workerId}\n`);

let stopping = false;
async function stop(signal: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  log(`${worker.workerId} got ${signal}: finishing commands under way and giving up its leases`);
  await worker.stop();
  metricsServer?.close();
  await store.close();
  await nc.drain();
  await tracing.shutdown();
  process.exit(0);
}
process.on('SIGTERM', () => void stop('SIGTERM'));
process.on('SIGINT', () => void stop('SIGINT'));
