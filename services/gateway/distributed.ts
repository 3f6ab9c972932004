/**
 * The gateway of the distributed service (`npm run start:gateway`): the same
 * gateway as `npm start`, with its tables served by the table workers over
 * NATS (RemoteTables) instead of an in-process host, and its seat tokens in
 * a KV bucket every gateway shares. Views are built here, from the
 * gateway's own copy of each table folded from the JetStream log.
 *
 * Environment: NATS_URL (required), NATS_REPLICAS, NATS_STREAM, NATS_PREFIX
 * (services/bus/natsSettings.ts); PORT (3000), HOST (127.0.0.1),
 * SUITORS_ADMIN_TOKEN, SUITORS_BOT_DELAY_MS (600), SUITORS_IDLE_SECONDS
 * (600: copies of tables idle this long leave memory), LOG_LEVEL (info).
 */
import { pathToFileURL } from 'node:url';
import type { NatsConnection } from '@nats-io/nats-core';
import pino from 'pino';
import { openKvSeatTokens } from '../bus/kvSeatTokens.js';
import { connectToNats, natsSettingsFrom } from '../bus/natsSettings.js';
import { RemoteTables } from '../bus/remoteTables.js';
import type { EventStore } from '../eventstore/eventStore.js';
import { openJetStreamEventStore } from '../eventstore/jetstreamEventStore.js';
import type { SeatTokens } from '../tokens/seatTokens.js';
import { createGateway, DEFAULT_BOT_DELAY_MS, type Gateway, type GatewayOptions } from './gateway.js';

/** What createGateway uses of its host: the table calls and the count of tables in memory. */

export interface DistributedGatewayOptions extends Omit<GatewayOptions, 'host' | 'tokens'> {
  readonly nc: NatsConnection;
  /** The JetStream event store (read here; the workers write). */
  readonly store: EventStore;
  readonly tokens: SeatTokens;
  /** The deployment's subject prefix (NATS_PREFIX). */
  readonly prefix?: string;
}

/** The gateway over the workers: its app, and the tables it reads and commands through. */
export function createDistributedGateway(options: DistributedGatewayOptions): { app: Gateway; tables: RemoteTables } {
  const { nc, store, prefix, ...gatewayOptions } = options;
  const tables = new RemoteTables({ nc, store, ...(prefix === undefined ? {} : { prefix }) });
  const app = createGateway({ ...gatewayOptions, host: tables });
  return { app, tables };
}

function wholeNumberFromEnv(name: string, fallback: number, max = Number.MAX_SAFE_INTEGER): number {
  const given = process.env[name];
  if (given === undefined || given === '') return fallback;
  const value = Number(given);
  if (!Number.isInteger(value) || value < 0 || value > max) throw new Error(`${name} must be a whole number from 0 to ${max}, not ${JSON.stringify(given)}`);
  return value;
}

async function main(): Promise<void> {
  const settings = natsSettingsFrom();
  if (settings === null) {
    throw new Error('NATS_URL is not set: this gateway serves tables of workers over NATS. Set NATS_URL=nats://host:4222[,...]; the single-process service is `npm start`.');
  }
  const port = wholeNumberFromEnv('PORT', 3000, 65_535);
  const idleMs = Math.max(1, wholeNumberFromEnv('SUITORS_IDLE_SECONDS', 600)) * 1000;
  const hostName = process.env.HOST || '127.0.0.1';
  const logger = pino({ level: process.env.LOG_LEVEL || 'info' });
  const { replicas, streamName, prefix } = settings;

  const nc = await connectToNats(settings.servers, 'suitors-gateway');
  const store = await openJetStreamEventStore({ connection: nc, replicas, streamName, prefix });
  const tokens = await openKvSeatTokens(nc, { replicas, namespace: streamName });
  const { app, tables } = createDistributedGateway({
    nc,
    store,
    tokens,
    prefix,
    adminToken: process.env.SUITORS_ADMIN_TOKEN || undefined,
    botDelayMs: wholeNumberFromEnv('SUITORS_BOT_DELAY_MS', DEFAULT_BOT_DELAY_MS),
    logger,
    processMetrics: true,
  });
  await app.listen({ port, host: hostName });
  const address = app.server.address();
  const boundPort = typeof address === 'object' && address !== null ? address.port : port;
  console.log(`Seven Suitors gateway on http://${hostName.includes(':') ? `[${hostName}]` : hostName}:${boundPort} (NATS ${settings.servers.join(',')})`);

  const sweep = setInterval(() => {
    tables.passivateIdle(idleMs).then(
      (count) => count > 0 && logger.debug({ count }, 'let go of idle tables'),
      (error: unknown) => logger.error({ err: error }, 'letting go of idle tables failed'),
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
    await tables.close();
    await tokens.close();
    await store.close();
    await nc.drain();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop('SIGINT'));
  process.once('SIGTERM', () => void stop('SIGTERM'));
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error: unknown) => {
    console.error('the gateway could not start:', error);
    process.exit(1);
  });
}
