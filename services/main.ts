/**
 * The embedded service (`npm start`): one process with the gateway and the
 * table host, whose tables play their bots and run their turn clocks, on the
 * SQLite file SUITORS_DB names. No other service is needed.
 *
 * Settings (services/settings.ts has each one's default and meaning): PORT,
 * HOST, SUITORS_DB, SUITORS_ADMIN_TOKEN, SUITORS_BOT_DELAY_MS,
 * SUITORS_IDLE_SECONDS, LOG_LEVEL, SUITORS_TRUST_PROXY and the limits of
 * docs/api.md ("Limits"); all are read, and a bad one refused, before the
 * database is opened. A damaged database file is refused at start, naming it.
 */
import { openSqliteEventStore } from './eventstore/sqliteEventStore.js';
import { databasePath } from './settings.js';
import { createGateway, type Gateway } from './gateway/gateway.js';
import { gatewaySettingsFromEnv, listen, runUntilSignalled } from './gateway/serve.js';
import { TableHost } from './host/tableHost.js';
import { openSqliteSeatTokens } from './tokens/sqliteSeatTokens.js';

/** Tables under way taken up at once when the service starts. */
const TAKE_UP_CONCURRENCY = 8;

async function main(): Promise<void> {
  const settings = gatewaySettingsFromEnv();
  const { logger } = settings;
  const path = databasePath();
  const store = openSqliteEventStore(path);
  const tokens = openSqliteSeatTokens(path);
  const host = new TableHost({ store, autopilot: { botDelayMs: settings.botDelayMs, onError: (error, tableId) => logger.error({ err: error, tableId }, 'a table could not move by itself') } });
  const app = createGateway({
    host,
    tokens,
    adminToken: settings.adminToken,
    logger,
    processMetrics: true,
    limits: settings.limits,
    trustProxy: settings.trustProxy,
  });
  console.log(`Seven Suitors service on ${await listen(app, settings)}`);
  logger.info({ database: path, admin: settings.adminToken ? 'set' : 'none' }, 'service started');
  // After listening: a service with many tables answers at once while it takes them up in the background.
  let stopping = false;
  const takingUp = host
    .takeUpTablesUnderWay(TAKE_UP_CONCURRENCY, () => stopping, (error, tableId) => logger.error({ err: error, tableId }, 'taking up a table under way failed'))
    .catch((error: unknown) => logger.error({ err: error }, 'listing the tables under way failed'));
  runUntilSignalled(settings, host, [
    async () => {
      stopping = true;
      await takingUp;
    },
    () => closeGateway(app),
    () => host.close(),
    () => tokens.close(),
    () => store.close(),
  ]);
}

/**
 * Closes the gateway: no new connection or request is taken, requests under
 * way are answered, sockets are closed with 1012. A keep-alive connection
 * whose request was under way at the signal would keep close() waiting for
 * the keep-alive timeout (72 s) after its answer, as Fastify ends only the
 * connections idle when it starts closing; each is ended once it falls idle.
 */
async function closeGateway(app: Gateway): Promise<void> {
  const endIdle = setInterval(() => app.server.closeIdleConnections(), 20);
  try {
    await app.close();
  } finally {
    clearInterval(endIdle);
  }
}

main().catch((error: unknown) => {
  console.error('the service could not start:', error);
  process.exit(1);
});
