/**
 * What both gateway processes — the embedded service (`npm start`) and the
 * distributed gateway (`npm run start:gateway`) — do around createGateway:
 * read their settings from the environment, listen and say where, let idle
 * tables go, and stop cleanly on a signal.
 */
import pino, { type Logger } from 'pino';
import { wholeNumberFromEnv } from '../wholeNumber.js';
import { DEFAULT_BOT_DELAY_MS } from '../host/autopilot.js';
import type { Gateway } from './gateway.js';
import { DEFAULT_LIMITS, type GatewayLimitSettings } from './limits.js';

export interface GatewaySettings {
  readonly port: number;
  readonly hostName: string;
  /** Tables idle this long leave memory. */
  readonly idleMs: number;
  readonly adminToken: string | undefined;
  /** Wait before each bot move (the embedded service's tables; on NATS the workers read it). */
  readonly botDelayMs: number;
  readonly logger: Logger;
  /** The limits the environment sets (docs/api.md, "Limits"); the rest keep their defaults. */
  readonly limits: GatewayLimitSettings;
  readonly trustProxy: boolean | string[];
}

/**
 * PORT (3000), HOST (127.0.0.1), SUITORS_IDLE_SECONDS (600), SUITORS_ADMIN_TOKEN, SUITORS_BOT_DELAY_MS, LOG_LEVEL
 * (info), SUITORS_TRUST_PROXY (off), and the limits of limitsFromEnv.
 */
export function gatewaySettingsFromEnv(): GatewaySettings {
  return {
    port: wholeNumberFromEnv('PORT', 3000, { max: 65_535 }),
    hostName: process.env.HOST || '127.0.0.1',
    idleMs: wholeNumberFromEnv('SUITORS_IDLE_SECONDS', 600, { min: 1 }) * 1000,
    adminToken: process.env.SUITORS_ADMIN_TOKEN || undefined,
    botDelayMs: wholeNumberFromEnv('SUITORS_BOT_DELAY_MS', DEFAULT_BOT_DELAY_MS),
    logger: pino({ level: process.env.LOG_LEVEL || 'info' }),
    limits: limitsFromEnv(),
    trustProxy: trustProxyFromEnv(),
  };
}

/**
 * The limits an operator may set from the environment, each a whole number:
 * SUITORS_SOCKETS_PER_CLIENT (64), SUITORS_SEATING_TABLES_PER_CLIENT (10),
 * SUITORS_SEATING_TABLES (1000), SUITORS_SEATING_IDLE_SECONDS (600),
 * SUITORS_FINISHED_IN_LOBBY_SECONDS (600), SUITORS_MIN_TURN_SECONDS (5),
 * SUITORS_SHED_LAG_MS (500).
 */
export function limitsFromEnv(): GatewayLimitSettings {
  const d = DEFAULT_LIMITS;
  return {
    socketsPerClient: wholeNumberFromEnv('SUITORS_SOCKETS_PER_CLIENT', d.socketsPerClient, { min: 1 }),
    seatingTablesPerClient: wholeNumberFromEnv('SUITORS_SEATING_TABLES_PER_CLIENT', d.seatingTablesPerClient, { min: 1 }),
    seatingTablesInAll: wholeNumberFromEnv('SUITORS_SEATING_TABLES', d.seatingTablesInAll, { min: 1 }),
    seatingIdleSeconds: wholeNumberFromEnv('SUITORS_SEATING_IDLE_SECONDS', d.seatingIdleSeconds, { min: 1 }),
    finishedInLobbySeconds: wholeNumberFromEnv('SUITORS_FINISHED_IN_LOBBY_SECONDS', d.finishedInLobbySeconds),
    minTurnSeconds: wholeNumberFromEnv('SUITORS_MIN_TURN_SECONDS', d.minTurnSeconds, { min: 1 }),
    loadShedding: { ...d.loadShedding, maxEventLoopDelayMs: wholeNumberFromEnv('SUITORS_SHED_LAG_MS', d.loadShedding.maxEventLoopDelayMs, { min: 1 }) },
  };
}

/**
 * SUITORS_TRUST_PROXY: unset or "false", X-Forwarded-For is ignored and each
 * client is its TCP peer; "true" believes any proxy (only when nothing but the
 * proxy can reach the service); otherwise the proxies' addresses and CIDR
 * ranges, comma-separated ("127.0.0.1,10.0.0.0/8").
 */
export function trustProxyFromEnv(): boolean | string[] {
  const given = (process.env.SUITORS_TRUST_PROXY ?? '').trim();
  if (given === '' || given === 'false') return false;
  if (given === 'true') return true;
  return given.split(',').map((part) => part.trim()).filter((part) => part !== '');
}

/** Listens and returns the URL the gateway answers on. */
export async function listen(app: Gateway, settings: GatewaySettings): Promise<string> {
  await app.listen({ port: settings.port, host: settings.hostName });
  const address = app.server.address();
  const boundPort = typeof address === 'object' && address !== null ? address.port : settings.port;
  const shownHost = settings.hostName.includes(':') ? `[${settings.hostName}]` : settings.hostName;
  return `http://${shownHost}:${boundPort}`;
}

/**
 * Lets tables idle for `idleMs` go from memory on a timer, and on SIGINT or
 * SIGTERM stops the timer and closes `closers` in order, then exits.
 */
export function runUntilSignalled(
  settings: GatewaySettings,
  tables: { passivateIdle(idleMs: number): Promise<number> },
  closers: readonly (() => Promise<unknown>)[],
): void {
  const { logger, idleMs } = settings;
  const sweep = setInterval(() => {
    tables.passivateIdle(idleMs).then(
      (count) => count > 0 && logger.debug({ count }, 'let idle tables go'),
      (error: unknown) => logger.error({ err: error }, 'letting idle tables go failed'),
    );
  }, Math.min(idleMs, 60_000));
  sweep.unref();
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'stopping');
    clearInterval(sweep);
    for (const close of closers) await close();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop('SIGINT'));
  process.once('SIGTERM', () => void stop('SIGTERM'));
}
