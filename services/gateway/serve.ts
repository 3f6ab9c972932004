/**
 * What both gateway processes — the embedded service (`npm start`) and the
 * distributed gateway (`npm run start:gateway`) — do around createGateway:
 * read their settings (services/settings.ts), listen and say where, let idle
 * tables go, and stop cleanly on a signal.
 */
import pino, { type Logger } from 'pino';
import { gatewayEnvironment } from '../settings.js';
import type { Environment } from '../settingReaders.js';
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

/** The settings of services/settings.ts a gateway process runs with (its environment's, by default). */
export function gatewaySettingsFromEnv(env: Environment = process.env): GatewaySettings {
  const given = gatewayEnvironment(env);
  const { maxEventLoopDelayMs, ...limits } = given.limits;
  return {
    port: given.port,
    hostName: given.hostName,
    idleMs: given.idleSeconds * 1000,
    adminToken: given.adminToken,
    botDelayMs: given.botDelayMs,
    logger: pino({ level: given.logLevel }),
    limits: { ...limits, loadShedding: { ...DEFAULT_LIMITS.loadShedding, maxEventLoopDelayMs } },
    trustProxy: given.trustProxy,
  };
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
 * Closes the gateway: no new connection or request is taken, requests under
 * way are answered, sockets are closed with 1012. A keep-alive connection
 * whose request was under way at the signal would keep close() waiting for
 * the keep-alive timeout (72 s) after its answer, as Fastify ends only the
 * connections idle when it starts closing; each is ended once it falls idle.
 */
export async function closeGateway(app: Gateway): Promise<void> {
  const endIdle = setInterval(() => app.server.closeIdleConnections(), 20);
  try {
    await app.close();
  } finally {
    clearInterval(endIdle);
  }
}

/** What holds tables in memory and can let the idle ones go: a host, or a gateway's copies of remote tables. */
interface PassivatesIdle {
  passivateIdle(idleMs: number): Promise<number>;
}

/**
 * Lets tables idle for `idleMs` go from memory every so often; the returned
 * call stops it. Without it a process keeps a copy of every table it ever
 * read (bench:scale's gateway held 80,000 and slowed to a third).
 */
export function sweepIdleTables(tables: PassivatesIdle, idleMs: number, logger: Pick<Logger, 'debug' | 'error'>): () => void {
  const sweep = setInterval(
    () => {
      tables.passivateIdle(idleMs).then(
        (count) => count > 0 && logger.debug({ count }, 'let idle tables go'),
        (error: unknown) => logger.error({ err: error }, 'letting idle tables go failed'),
      );
    },
    Math.min(idleMs, 60_000),
  );
  sweep.unref();
  return () => clearInterval(sweep);
}

/**
 * Lets tables idle for `idleMs` go from memory on a timer, and on SIGINT or
 * SIGTERM stops the timer and closes `closers` in order, then exits.
 */
export function runUntilSignalled(settings: GatewaySettings, tables: PassivatesIdle, closers: readonly (() => Promise<unknown>)[]): void {
  const { logger, idleMs } = settings;
  const stopSweeping = sweepIdleTables(tables, idleMs, logger);
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'stopping');
    stopSweeping();
    for (const close of closers) await close();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop('SIGINT'));
  process.once('SIGTERM', () => void stop('SIGTERM'));
}
