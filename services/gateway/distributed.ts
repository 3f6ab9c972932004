/**
 * The gateway of the distributed service (`npm run start:gateway`): the same
 * gateway as `npm start`, with its tables served by the table workers over
 * NATS (RemoteTables) instead of an in-process host, and its seat tokens in
 * a KV bucket every gateway shares. Views are built here, from the
 * gateway's own copy of each table folded from the JetStream log.
 *
 * Settings (services/settings.ts has each one's default and meaning): NATS_URL
 * (required), NATS_CREDS, NATS_CA, NATS_REPLICAS, NATS_STREAM, NATS_PREFIX; PORT, HOST,
 * SUITORS_ADMIN_TOKEN, SUITORS_IDLE_SECONDS (copies of tables idle this long
 * leave memory), LOG_LEVEL, SUITORS_TRUST_PROXY, SUITORS_TRACING(_URL) and the limits; all are read,
 * and a bad one refused, before it connects.
 */
import { pathToFileURL } from 'node:url';
import type { NatsConnection } from '@nats-io/nats-core';
import { RemoteTables } from '../bus/remoteTables.js';
import { deploymentNames } from '../bus/deploymentNames.js';
import { tableOwnerReads } from '../bus/tableOwnerReads.js';
import { workerStatusReads } from '../bus/workerStatus.js';
import { openNatsCheckpoints } from '../projections/natsCheckpoints.js';
import { memoryNoticeBoard, NOTICES_KEPT_MS, type NoticeBoard } from './notices/noticeBoard.js';
import { natsNoticeRelay, openNatsNoticeBoard } from './notices/natsNotices.js';
import type { EventStore } from '../eventstore/eventStore.js';
import { connectAs, describeAccess } from '../nats/connection.js';
import { natsSettingsFrom } from '../settings.js';
import { openStorage } from '../storage/storage.js';
import type { SeatTokens } from '../tokens/seatTokens.js';
import { createGateway, type Gateway, type GatewayOptions } from './gateway.js';
import { closeGateway, gatewaySettingsFromEnv, listen, runUntilSignalled } from './serve.js';
import { startTracing } from '../tracing/tracing.js';
import { tracingSettingsFrom } from '../tracing/tracingSettings.js';

export interface DistributedGatewayOptions extends Omit<GatewayOptions, 'host' | 'tokens'> {
  readonly nc: NatsConnection;
  /** The JetStream event store (read here; the workers write). */
  readonly store: EventStore;
  readonly tokens: SeatTokens;
  /** The deployment's subject prefix (NATS_PREFIX). */
  readonly prefix?: string;
  /** The deployment's event stream (NATS_STREAM), which its buckets are named after; the default one when not given. */
  readonly streamName?: string;
  /**
   * What the gateways share of tables' notices: the rematches as they stand, the seats' chat times (natsNotices.ts).
   * None: this gateway's own, which does for a deployment of one gateway only.
   */
  readonly noticeBoard?: NoticeBoard;
}

/** The gateway over the workers: its app, and the tables it reads and commands through. */
export function createDistributedGateway(options: DistributedGatewayOptions): { app: Gateway; tables: RemoteTables } {
  const { nc, store, prefix, streamName, noticeBoard, ...gatewayOptions } = options;
  const tables = new RemoteTables({
    nc,
    store,
    ...(prefix === undefined ? {} : { prefix }),
    ...(options.tracer === undefined ? {} : { tracer: options.tracer }),
    // The operator hears of a quarantined table in the gateway's log, once (its lobby entry and answers say so too).
    onQuarantined: ({ tableId, seq, eventType, reason, message }) => app.log.error({ tableId, seq, eventType, reason }, message),
  });
  const deployment = streamName === undefined ? {} : { streamName };
  // Chat and rematches reach the table's sockets on every gateway, and are one truth there (docs/distributed.md).
  const relay = natsNoticeRelay(nc, deploymentNames({ prefix }).subjects, (error, tableId) =>
    app.log.error({ err: error, tableId }, "relaying a table's notice over NATS failed"),
  );
  const app: Gateway = createGateway({
    tableOwners: tableOwnerReads(nc, deployment),
    workerStatuses: workerStatusReads(nc, deployment),
    ...gatewayOptions,
    host: tables,
    tableNotices: { relay, board: noticeBoard ?? memoryNoticeBoard({ keepMs: NOTICES_KEPT_MS }) },
  });
  return { app, tables };
}

async function main(): Promise<void> {
  const nats = natsSettingsFrom();
  if (nats === null) {
    throw new Error(
      'NATS_URL is not set: this gateway serves tables of workers over NATS. Set NATS_URL=nats://host:4222[,...]; the single-process service is `npm start`.',
    );
  }
  const settings = gatewaySettingsFromEnv();
  const tracing = startTracing({ service: 'suitors-gateway', settings: tracingSettingsFrom() });
  const { prefix, streamName } = nats;
  settings.logger.info({ servers: nats.servers }, `connecting to NATS ${describeAccess(nats, 'gateway')}`);
  const nc = await connectAs(nats, 'gateway');
  // The workers make the stream and the snapshots bucket: a gateway may not (docs/distributed.md, "Securing NATS").
  const storage = await openStorage({ kind: 'nats', nats, role: 'gateway', connection: nc, createMissing: { eventStream: false } });
  const { store, tokens } = storage;
  // The fleet overlay's checkpoint, shared by the gateways (each folds the same logs, so any one's is a valid start).
  const projectionCheckpoints = await openNatsCheckpoints(nc, {
    bucket: deploymentNames({ streamName, prefix }).buckets.projections,
    replicas: nats.replicas,
  });
  const noticeBoard = await openNatsNoticeBoard(nc, {
    bucket: deploymentNames({ streamName, prefix }).buckets.tableNotices,
    keepMs: NOTICES_KEPT_MS,
    replicas: nats.replicas,
  });
  const { app, tables } = createDistributedGateway({
    nc,
    noticeBoard,
    store,
    tokens,
    prefix,
    streamName,
    projectionCheckpoints,
    adminToken: settings.adminToken,
    logger: settings.logger,
    processMetrics: true,
    limits: settings.limits,
    trustProxy: settings.trustProxy,
    tracer: tracing.tracer,
  });
  console.log(`Seven Suitors gateway on ${await listen(app, settings)} (NATS ${nats.servers.join(',')})`);
  runUntilSignalled(settings, tables, [
    () => closeGateway(app),
    () => tables.close(),
    () => storage.close(),
    () => nc.drain(),
    () => tracing.shutdown(),
  ]);
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error: unknown) => {
    console.error(`the gateway could not start: ${(error as Error)?.message ?? String(error)}`);
    process.exit(1);
  });
}
