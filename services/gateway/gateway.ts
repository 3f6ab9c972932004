/**
 * The gateway: the service's HTTP API, WebSocket, OpenAPI docs, metrics and
 * web client (docs/api.md), in front of the tables' owner (the in-process
 * TableHost, or the table workers over NATS). It holds nothing a table
 * needs: the owner plays the bots and runs the turn clocks, and any gateway
 * may stop at any moment without a table noticing.
 */
import type { TableService } from '../host/tableService.js';
import fastifyStatic from '@fastify/static';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import fastifyWebsocket from '@fastify/websocket';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyReply } from 'fastify';
import { existsSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { fileURLToPath } from 'node:url';
import pino, { type Logger } from 'pino';
import { defaultLogLevel } from '../settings.js';
import type { SeatTokens } from '../tokens/seatTokens.js';
import { registerApiDocs } from './apiDocs.js';
import { createAuthenticator } from './auth.js';
import type { GatewayContext } from './context.js';
import { registerErrorReplies, unreadablePathReply } from './errorReplies.js';
import { createMetrics } from './metrics.js';
import { resolveLimits, type GatewayLimits, type GatewayLimitSettings } from './limits.js';
import type { LagSource } from '../eventLoopLag.js';
import { Lobby } from './lobby.js';
import { registerRequestLimits } from './requestLimits.js';
import { requestForLog } from './requestLog.js';
import { gatewayFleet } from './fleetOverlay.js';
import { fleetRoutes } from './routes/fleetRoutes.js';
import { forkRoutes } from './routes/forkRoutes.js';
import { gameLogRoutes } from './routes/gameLogRoutes.js';
import { machineRoutes } from './routes/machineRoutes.js';
import { metricsRoutes } from './routes/metricsRoutes.js';
import { operatorRoutes } from './routes/operatorRoutes.js';
import { recordRoutes } from './routes/recordRoutes.js';
import { chatRoutes } from './routes/chatRoutes.js';
import { rematchRoutes } from './routes/rematchRoutes.js';
import { repairRoutes } from './routes/repairRoutes.js';
import { replayRoutes } from './routes/replayRoutes.js';
import { seatRoutes } from './routes/seatRoutes.js';
import { socketRoute } from './routes/socketRoute.js';
import { tableRoutes } from './routes/tableRoutes.js';
import { labRoutes } from './routes/labRoutes.js';
import { viewRoutes } from './routes/viewRoutes.js';
import { createSeating } from './seating.js';
import { TableFeed } from './tableFeed.js';
import { TableNotices, type NoticeRelay } from './tableNotices.js';
import { memoryNoticeBoard, NOTICES_KEPT_MS, type NoticeBoard } from './notices/noticeBoard.js';
import { tellTimeouts } from './turnTimeouts.js';
import { relayChangesMadeElsewhere, TableWatchers } from './tableWatchers.js';
import { GATEWAY_GOING_AWAY } from './socketProtocol.js';
import { validatorCompiler } from './validation.js';
import { StorageFullNotices } from '../storageFull.js';
import { StorageBudget } from './storageBudget.js';
import { registerWorkBudgets } from './costlyWork.js';
import type { ProjectionCheckpoints } from '../projections/checkpoints.js';
import type { WorkerStatuses } from '../bus/workerStatus.js';
import type { TableOwners } from '../bus/tableOwnerReads.js';
import type { Tracer } from '@opentelemetry/api';
import { NO_TRACING } from '../tracing/tracing.js';

export interface GatewayOptions {
  readonly host: TableService;
  readonly tokens: SeatTokens;
  /** The operator's token (SUITORS_ADMIN_TOKEN): reads any log and record. None: no admin. */
  readonly adminToken?: string;
  readonly logger?: Logger;
  /** Every limit on what a client may cost (limits.ts; the defaults there). */
  readonly limits?: GatewayLimitSettings;
  /**
   * Behind a reverse proxy: whose X-Forwarded-For to believe for the client's address (Fastify's `trustProxy`: true,
   * or the proxies' addresses and CIDR ranges). Off by default: every client is its TCP peer, and a header naming
   * another address is ignored (a client could otherwise pick a fresh address for each request).
   */
  readonly trustProxy?: boolean | string | string[];
  /** The largest request body, in bytes (default 16 KiB; records may be 1 MiB). */
  readonly bodyLimit?: number;
  /** The largest socket message, in bytes (default 16 KiB). */
  readonly socketMessageLimit?: number;
  /** The built web client, served at `/` if the folder exists (default services/gateway/web/dist). */
  readonly webRoot?: string;
  /** Export the process's own metrics too (CPU, memory, event loop). */
  readonly processMetrics?: boolean;
  /**
   * Where writes refused for a full storage are told (storageFull.ts): shared with the store and the host, so the
   * log says it once a minute whoever was writing. By default the gateway's own, logging to its logger.
   */
  readonly storageFull?: StorageFullNotices;
  /** The bytes the storage holds on disk, for suitors_storage_bytes (Storage.bytes); none: no such metric. */
  readonly storageBytes?: () => number;
  /** How many tables the storage has retired, for suitors_tables_retired (Storage.retiredTables); none: no such metric. */
  readonly retiredTables?: () => number;
  /** The clock the daily storage budget's days are read from (Date.now; a test sets its own). */
  readonly storageBudgetNow?: () => number;
  /** What load shedding reads the event loop's lag from (this process's loop; a test sets its own). */
  readonly eventLoopLag?: LagSource;
  /** Where the fleet overlay (GET /api/fleet) keeps its state and checkpoint; none: folded from the logs at its first request. */
  readonly projectionCheckpoints?: ProjectionCheckpoints;
  /** On NATS: which worker holds each table, for the operator's page (bus/tableOwnerReads.ts). */
  readonly tableOwners?: TableOwners;
  /** On NATS: what each worker says of itself, for the operator's page (bus/workerStatus.ts). */
  readonly workerStatuses?: WorkerStatuses;
  /** Makes a span of each player's command, the root of its trace (services/tracing); none: the no-op tracer. */
  readonly tracer?: Tracer;
  /**
   * A table's notices (chat, the rematch) shared with the other gateways: how they travel to them and what is kept of
   * them (notices/natsNotices.ts). None: this process's own, as on `npm start`.
   */
  readonly tableNotices?: { readonly relay: NoticeRelay; readonly board: NoticeBoard };
}

export type Gateway = FastifyInstance<
  import('node:http').Server,
  IncomingMessage,
  import('node:http').ServerResponse,
  FastifyBaseLogger,
  TypeBoxTypeProvider
>;

const DEFAULT_BODY_LIMIT = 16 * 1024;
const DEFAULT_WEB_ROOT = fileURLToPath(new URL('./web/dist', import.meta.url));
const REQUEST_ID = /^[\w.-]{1,64}$/;

function defaultLogger(): Logger {
  return pino({ level: defaultLogLevel() });
}

export function createGateway(options: GatewayOptions): Gateway {
  const logger = (options.logger ?? defaultLogger()).child({}, { serializers: { req: requestForLog } });
  const limits = resolveLimits(options.limits);
  const app = newFastify(options, logger);
  const storageFull = options.storageFull ?? new StorageFullNotices(logger);
  const { context, stopListening } = wireContext(app, options, limits, storageFull);
  app.server.maxConnections = limits.connectionsInAll;
  app.server.on('drop', () => context.metrics.connectionRefused());

  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  registerRequestLimits(app, limits, { lag: options.eventLoopLag });
  registerWorkBudgets(app, limits.budgets);
  registerErrorReplies(app, storageFull);
  registerApiDocs(app);
  app.register(fastifyWebsocket, { options: { maxPayload: options.socketMessageLimit ?? DEFAULT_BODY_LIMIT } });
  for (const routes of [
    tableRoutes,
    viewRoutes,
    gameLogRoutes,
    replayRoutes,
    seatRoutes,
    recordRoutes,
    forkRoutes,
    repairRoutes,
    labRoutes,
  ]) {
    app.register(routes(context));
  }
  // What a table's sockets are told beside its game: rematch proposals, quick chat, a bot's move when time ran out.
  const notices = new TableNotices(options.tableNotices?.relay);
  const board = options.tableNotices?.board ?? memoryNoticeBoard({ keepMs: NOTICES_KEPT_MS });
  const stopTellingTimeouts = tellTimeouts((onChange) => context.host.subscribe(onChange), notices);
  app.register(rematchRoutes(context, notices, board));
  app.register(chatRoutes(context, notices, board));
  app.register(socketRoute(context, notices));
  const fleet = gatewayFleet(context.host, { checkpoints: options.projectionCheckpoints, log: app.log });
  app.register(fleetRoutes(fleet));
  app.register(machineRoutes(fleet));
  app.register(
    operatorRoutes(context, fleet, { lag: options.eventLoopLag, owners: options.tableOwners, workerStatuses: options.workerStatuses }),
  );
  app.register(metricsRoutes(context.metrics));
  const webRoot = options.webRoot ?? DEFAULT_WEB_ROOT;
  if (existsSync(webRoot)) app.register(fastifyStatic, { root: webRoot, prefix: '/' });

  app.addHook('preClose', async () => {
    stopListening();
    stopTellingTimeouts();
    context.watchers.closeAll(GATEWAY_GOING_AWAY, 'this gateway is stopping: connect again, here or to another gateway');
  });
  return app as unknown as Gateway;
}

/** Fastify as the gateway runs it: request ids, body limit, proxies believed, JSON only, TypeBox-validated. */
function newFastify(options: GatewayOptions, logger: Logger): FastifyInstance {
  const app = Fastify({
    loggerInstance: logger as FastifyBaseLogger,
    trustProxy: options.trustProxy ?? false,
    bodyLimit: options.bodyLimit ?? DEFAULT_BODY_LIMIT,
    genReqId: (request) => {
      const given = request.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    },
    frameworkErrors: (error, request, reply) => unreadablePathReply(error, request, reply as FastifyReply),
  })
    .withTypeProvider<TypeBoxTypeProvider>()
    .setValidatorCompiler(validatorCompiler)
    // Response schemas document the API; replies are sent as they are.
    .setSerializerCompiler(() => (data) => JSON.stringify(data));
  // Every body is JSON; Fastify would otherwise hand a text/plain body to the routes as a string.
  app.removeContentTypeParser('text/plain');
  return app as unknown as FastifyInstance;
}

/**
 * What the routes share (context.ts), wired to the tables' owner: the feed
 * this gateway changes tables through, the sockets and the lobby it
 * announces every change to, wherever it was made, and the metrics.
 */
function wireContext(
  app: FastifyInstance,
  options: GatewayOptions,
  limits: GatewayLimits,
  storageFull: StorageFullNotices,
): { context: GatewayContext; stopListening: () => void } {
  const { host, tokens } = options;
  const metrics = createMetrics({
    storage: storageFull,
    residentTables: () => host.residentTables,
    tablesInPlay: async () => (await host.listTables()).filter(({ status }) => status !== null && status.finished !== true).length,
    quarantinedTables: () => host.quarantinedTables().length,
    processMetrics: options.processMetrics,
    storageBytes: options.storageBytes,
    retiredTables: options.retiredTables,
  });
  const feed = new TableFeed({
    host,
    metrics,
    onError: (error, tableId) => app.log.error({ err: error, tableId }, 'announcing a table change failed'),
  });
  const watchers = new TableWatchers();
  const lobby = new Lobby({
    list: () => host.listTables(),
    current: (tableId) => feed.current(tableId),
    playerThere: (tableId) => watchers.seatWatches(tableId),
    limits,
  });
  feed.subscribe((change) => {
    lobby.tableChanged(change);
    watchers.publish(change);
  });
  // Bot moves and timeouts are made by the tables' owner, and other gateways' moves by them: sockets here hear of
  // both from the log.
  const stopRelaying = relayChangesMadeElsewhere(
    (onChange) => host.subscribe(onChange),
    watchers,
    (tableId) => feed.current(tableId),
    (error, tableId) => app.log.error({ err: error, tableId }, 'sending a change made elsewhere failed'),
  );
  const stopCountingOwnMoves =
    host.onOwnMove?.(({ source, outcome, seconds }) => metrics.commandSettled(source, outcome, seconds)) ?? (() => undefined);
  const context: GatewayContext = {
    host,
    feed,
    auth: createAuthenticator(tokens, options.adminToken, async (tableId) => (await host.snapshot(tableId)).snapshot.context),
    seating: createSeating(feed, tokens, watchers),
    tokens,
    watchers,
    metrics,
    limits,
    lobby,
    storageBudget: new StorageBudget(
      { eventsPerDay: limits.storageEventsPerDay, clients: limits.storageBudgetClients },
      options.storageBudgetNow,
    ),
    storageFull,
    tracer: options.tracer ?? NO_TRACING.tracer,
  };
  return {
    context,
    stopListening: () => {
      stopRelaying();
      stopCountingOwnMoves();
    },
  };
}
