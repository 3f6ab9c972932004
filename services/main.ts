/**
 * The embedded service (`npm start`): one process with the gateway and the
 * table host, whose tables play their bots and run their turn clocks, on the
 * SQLite file SUITORS_DB names (or, with SUITORS_STORAGE=memory, on nothing
 * that outlives it). No other service is needed.
 *
 * Settings (services/settings.ts has each one's default and meaning): PORT,
 * HOST, SUITORS_STORAGE, SUITORS_DB, SUITORS_ADMIN_TOKEN, SUITORS_BOT_DELAY_MS,
 * SUITORS_DB_MAX_MB, SUITORS_RETAIN_FINISHED_DAYS, SUITORS_IDLE_SECONDS, LOG_LEVEL, SUITORS_TRUST_PROXY, SUITORS_TRACING(_URL) and the limits of
 * docs/api.md ("Limits"); all are read, and a bad one refused, before the
 * database is opened. A damaged database file is refused at start, naming it.
 */
import { storageSettingsFrom } from './storage/fromEnvironment.js';
import { openStorage } from './storage/storage.js';
import { isStorageFull, StorageFullNotices } from './storageFull.js';
import { createGateway } from './gateway/gateway.js';
import { closeGateway, gatewaySettingsFromEnv, listen, runUntilSignalled } from './gateway/serve.js';
import { retireEveryHour } from './host/retirement.js';
import { TableHost } from './host/tableHost.js';
import { SETTINGS } from './settings.js';
import { openSqliteCheckpoints } from './projections/sqliteCheckpoints.js';
import { startTracing } from './tracing/tracing.js';
import { tracingSettingsFrom } from './tracing/tracingSettings.js';

/** Tables under way taken up at once when the service starts. */
const TAKE_UP_CONCURRENCY = 8;

async function main(): Promise<void> {
  const settings = gatewaySettingsFromEnv();
  const retainFinishedDays = SETTINGS.SUITORS_RETAIN_FINISHED_DAYS.read(process.env);
  const tracing = startTracing({ service: 'suitors-embedded', settings: tracingSettingsFrom() });
  const { logger } = settings;
  const storageSettings = storageSettingsFrom({
    fallback: 'sqlite',
    refused: {
      nats: 'the embedded service owns its tables alone; on NATS they are served by table workers (npm run start:worker) behind gateways (npm run start:gateway)',
    },
  });
  // One account of a full storage for the store, the host's own moves and the gateway: one log line a minute.
  const storageFull = new StorageFullNotices(logger);
  const storage = await openStorage(
    storageSettings.kind === 'sqlite' ? { ...storageSettings, onCommit: () => storageFull.wrote() } : storageSettings,
  );
  const { store, tokens } = storage;
  // Beside the logs, so a restart folds only the events since the last save into the fleet overlay.
  const projectionCheckpoints = storageSettings.kind === 'sqlite' ? openSqliteCheckpoints(storageSettings.path) : undefined;
  const host = new TableHost({
    store,
    tracer: tracing.tracer,
    onQuarantined: ({ tableId, seq, eventType, reason, message }) => logger.error({ tableId, seq, eventType, reason }, message),
    onSnapshotError: (error, tableId) =>
      isStorageFull(error) ? storageFull.refusedWrite('a snapshot') : logger.error({ err: error, tableId }, 'saving a snapshot failed'),
    autopilot: {
      botDelayMs: settings.botDelayMs,
      onError: (error, tableId) =>
        isStorageFull(error)
          ? storageFull.refusedWrite('a bot move or a turn timeout')
          : logger.error({ err: error, tableId }, 'a table could not move by itself'),
    },
  });
  const app = createGateway({
    host,
    tokens,
    adminToken: settings.adminToken,
    logger,
    processMetrics: true,
    limits: settings.limits,
    trustProxy: settings.trustProxy,
    storageFull,
    storageBytes: storage.bytes,
    retiredTables: storage.retiredTables,
    projectionCheckpoints,
    tracer: tracing.tracer,
  });
  console.log(`Seven Suitors service on ${await listen(app, settings)}`);
  logger.info({ database: storage.where, admin: settings.adminToken ? 'set' : 'none' }, 'service started');
  // After listening: a service with many tables answers at once while it takes them up in the background.
  let stopping = false;
  const takingUp = host
    .takeUpTablesUnderWay(
      TAKE_UP_CONCURRENCY,
      () => stopping,
      (error, tableId) => logger.error({ err: error, tableId }, 'taking up a table under way failed'),
    )
    .catch((error: unknown) => logger.error({ err: error }, 'listing the tables under way failed'));
  const stopRetiring =
    retainFinishedDays === 0
      ? async () => undefined
      : retireEveryHour(store, retainFinishedDays, {
          ran: (run) => {
            if (run.found > 0)
              logger.info({ ...run, retainFinishedDays }, 'retired finished games: their records kept, their logs deleted');
          },
          failed: (error) => logger.error({ err: error }, 'retiring finished games failed; the next run tries again in an hour'),
        });
  runUntilSignalled(settings, host, [
    async () => {
      stopping = true;
      await takingUp;
      await stopRetiring();
    },
    () => closeGateway(app),
    () => host.close(),
    async () => projectionCheckpoints?.close(),
    () => storage.close(),
    () => tracing.shutdown(),
  ]);
}

main().catch((error: unknown) => {
  console.error('the service could not start:', error);
  process.exit(1);
});
