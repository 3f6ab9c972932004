/**
 * The embedded service (`npm start`): one process with the gateway, the
 * table host, the bots and the turn clock, on the SQLite file of
 * services/config.ts. No other service is needed.
 *
 * Environment: PORT (3000), HOST (127.0.0.1), SUITORS_DB (data/suitors.db),
 * SUITORS_ADMIN_TOKEN (none), SUITORS_BOT_DELAY_MS (600),
 * SUITORS_IDLE_SECONDS (600: tables idle this long leave memory),
 * LOG_LEVEL (info).
 */
import pino from 'pino';
import { databasePath } from './config.js';
import { openSqliteEventStore } from './eventstore/sqliteEventStore.js';
import { createGateway, DEFAULT_BOT_DELAY_MS } from './gateway/gateway.js';
import { TableHost } from './host/tableHost.js';
import { openSqliteSeatTokens } from './tokens/sqliteSeatTokens.js';

function numberFromEnv(name: string, fallback: number, { min = 0, max = Number.MAX_SAFE_INTEGER } = {}): number {
  const given = process.env[name];
  if (given === undefined || given === '') return fallback;
  const value = Number(given);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new Error(`${name} must be a whole number from ${min} to ${max}, not ${JSON.stringify(given)}`);
  }
  return value;
}

async function main(): Promise<void> {
  const port = numberFromEnv('PORT', 3000, { max: 65_535 });
  const hostName = process.env.HOST || '127.0.0.1';
  const idleMs = numberFromEnv('SUITORS_IDLE_SECONDS', 600, { min: 1 }) * 1000;
  const logger = pino({ level: process.env.LOG_LEVEL || 'info' });
  const path = databasePath();
  const store = openSqliteEventStore(path);
  const tokens = openSqliteSeatTokens(path);
  const host = new TableHost({ store });
  const app = createGateway({
    host,
    tokens,
    adminToken: process.env.SUITORS_ADMIN_TOKEN || undefined,
    botDelayMs: numberFromEnv('SUITORS_BOT_DELAY_MS', DEFAULT_BOT_DELAY_MS),
    logger,
    processMetrics: true,
  });
  await app.listen({ port, host: hostName });
  const address = app.server.address();
  const boundPort = typeof address === 'object' && address !== null ? address.port : port;
  const shownHost = hostName.includes(':') ? `[${hostName}]` : hostName;
  console.log(`Seven Suitors service on http://${shownHost}:${boundPort}`);
  logger.info({ database: path, admin: process.env.SUITORS_ADMIN_TOKEN ? 'set' : 'none' }, 'service started');

  const sweep = setInterval(() => {
    host.passivateIdle(idleMs).then(
      (count) => count > 0 && logger.debug({ count }, 'passivated idle tables'),
      (error: unknown) => logger.error({ err: error }, 'passivating idle tables failed'),
    );
  }, Math.min(idleMs, 60_000));
  sweep.unref();

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'stopping');
    clearInterval(sweep);
    await app.close();
    await host.close();
    await tokens.close();
    await store.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop('SIGINT'));
  process.once('SIGTERM', () => void stop('SIGTERM'));
}

main().catch((error: unknown) => {
  console.error('the service could not start:', error);
  process.exit(1);
});
