/**
 * The gateway: the service's HTTP API, WebSocket, OpenAPI docs, metrics and
 * web client (docs/api.md), in front of the tables' owner (the in-process
 * TableHost, or the table workers over NATS). It holds nothing a table
 * needs: the owner plays the bots and runs the turn clocks, and any gateway
 * may stop at any moment without a table noticing.
 */
import type { TableService } from '../host/tableService.js';
import fastifyStatic from '@fastify/static';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
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
import { createAuthenticator } from './auth.js';
import type { GatewayContext } from './context.js';
import { createMetrics } from './metrics.js';
import { resolveLimits, type GatewayLimitSettings } from './limits.js';
import { Lobby } from './lobby.js';
import type { RateLimit } from './rateLimit.js';
import { closeIfUpgrade, registerRequestLimits } from './requestLimits.js';
import { refusalOf, STATUS_OF } from './refusals.js';
import { machineRoutes } from './routes/machineRoutes.js';
import { recordRoutes } from './routes/recordRoutes.js';
import { forkRoutes } from './routes/forkRoutes.js';
import { chatRoutes } from './routes/chatRoutes.js';
import { rematchRoutes } from './routes/rematchRoutes.js';
import { repairRoutes } from './routes/repairRoutes.js';
import { seatRoutes } from './routes/seatRoutes.js';
import { socketRoute } from './routes/socketRoute.js';
import { tableRoutes } from './routes/tableRoutes.js';
import { createSeating } from './seating.js';
import { TableFeed } from './tableFeed.js';
import { TableNotices } from './tableNotices.js';
import { tellTimeouts } from './turnTimeouts.js';
import { relayChangesMadeElsewhere, TableWatchers } from './tableWatchers.js';
import { GATEWAY_GOING_AWAY } from './socketProtocol.js';
import { validatorCompiler } from './validation.js';
import { parseWholeNumber } from '../wholeNumber.js';
import { StorageFullNotices } from '../storageFull.js';
import { registerWorkBudgets } from './costlyWork.js';

export interface GatewayOptions {
  readonly host: TableService;
  readonly tokens: SeatTokens;
  /** The operator's token (SUITORS_ADMIN_TOKEN): reads any log and record. None: no admin. */
  readonly adminToken?: string;
  readonly logger?: Logger;
  /** Every limit on what a client may cost (limits.ts; the defaults there). */
  readonly limits?: GatewayLimitSettings;
  /** The same as `limits.requests`. */
  readonly httpRateLimit?: RateLimit;
  /** The same as `limits.socketMessages`. */
  readonly socketRateLimit?: RateLimit;
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
}

export type Gateway = FastifyInstance<
  import('node:http').Server,
  IncomingMessage,
  import('node:http').ServerResponse,
  FastifyBaseLogger,
  TypeBoxTypeProvider
>;

const DEFAULT_BODY_LIMIT = 16 * 1024;
/** A full storage is made room on by an operator, not in a second: a client need not ask again sooner. */
const STORAGE_FULL_RETRY_AFTER_SECONDS = 60;
const DEFAULT_WEB_ROOT = fileURLToPath(new URL('./web/dist', import.meta.url));
const REQUEST_ID = /^[\w.-]{1,64}$/;

export function defaultLogger(): Logger {
  return pino({ level: defaultLogLevel() });
}

export function createGateway(options: GatewayOptions): Gateway {
  const { host, tokens } = options;
  const logger = (options.logger ?? defaultLogger()).child({}, { serializers: { req: requestForLog } });
  const limits = resolveLimits({
    ...(options.httpRateLimit === undefined ? {} : { requests: options.httpRateLimit }),
    ...(options.socketRateLimit === undefined ? {} : { socketMessages: options.socketRateLimit }),
    ...options.limits,
  });
  const app = Fastify({
    loggerInstance: logger as FastifyBaseLogger,
    trustProxy: options.trustProxy ?? false,
    bodyLimit: options.bodyLimit ?? DEFAULT_BODY_LIMIT,
    genReqId: (request) => {
      const given = request.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    },
    frameworkErrors: (error, request, reply) => {
      // A path the router cannot read (bad percent-encoding, a part over 100 characters) never reaches a hook: an
      // upgrade refused here must have its socket closed by hand, and Fastify's own answer repeated the whole URL,
      // a socket's seat token with it.
      closeIfUpgrade(request, reply as FastifyReply);
      const message =
        error.code === 'FST_ERR_MAX_PARAM_LENGTH'
          ? 'a part of the path is over 100 characters; table ids are much shorter (GET /api/tables lists them)'
          : 'the path is not a valid URL (a % must start an escape like %20)';
      return (reply as FastifyReply).code(STATUS_OF.badRequest).header('x-request-id', request.id).send({ error: 'badRequest', message });
    },
  })
    .withTypeProvider<TypeBoxTypeProvider>()
    .setValidatorCompiler(validatorCompiler)
    // Response schemas document the API; replies are sent as they are.
    .setSerializerCompiler(() => (data) => JSON.stringify(data));
  // Every body is JSON; Fastify would otherwise hand a text/plain body to the routes as a string.
  app.removeContentTypeParser('text/plain');

  const storageFull = options.storageFull ?? new StorageFullNotices(logger);
  const metrics = createMetrics({
    storage: storageFull,
    residentTables: () => host.residentTables,
    tablesInPlay: async () => (await host.listTables()).filter(({ status }) => status !== null && status.finished !== true).length,
    quarantinedTables: () => host.quarantinedTables().length,
    processMetrics: options.processMetrics,
  });
  const feed = new TableFeed({
    host,
    metrics,
    onError: (error, tableId) => app.log.error({ err: error, tableId }, 'announcing a table change failed'),
  });
  const watchers = new TableWatchers();
  const lobby = new Lobby({ list: () => host.listTables(), current: (tableId) => feed.current(tableId), limits });
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
    storageFull,
  };

  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  registerRequestLimits(app as unknown as FastifyInstance, limits);
  registerWorkBudgets(app as unknown as FastifyInstance, limits.budgets);

  app.setErrorHandler((error, request, reply) => {
    const refusal = refusalOf(error);
    if (refusal?.error === 'storageFull') {
      // Every write fails while the storage is full: one line a minute, not one a request.
      storageFull.refusedWrite(`${request.method} ${request.routeOptions.url ?? 'unknown path'}`);
      return reply.code(STATUS_OF.storageFull).header('retry-after', String(STORAGE_FULL_RETRY_AFTER_SECONDS)).send(refusal);
    }
    if (refusal !== null) {
      request.log.info({ refusal: refusal.error }, refusal.message);
      // Unavailable is for now only (a table between owners, imports all busy): say when to come back.
      if (refusal.error === 'unavailable' && !reply.hasHeader('retry-after')) reply.header('retry-after', '1');
      return reply.code(STATUS_OF[refusal.error]).send(refusal);
    }
    request.log.error({ err: error }, 'request failed');
    return reply
      .code(500)
      .send({ error: 'internal', message: `the service failed (request ${request.id}); the operator can find it in the log` });
  });

  app.register(fastifySwagger, {
    openapi: {
      info: {
        title: 'Seven Suitors service',
        description: 'Tables of Seven Suitors, Anti-Cupid and A Traitor of Love (docs/api.md).',
        version: '0.1.0',
      },
      components: { securitySchemes: { seatToken: { type: 'http', scheme: 'bearer' } } },
    },
  });
  app.register(fastifySwaggerUi, { routePrefix: '/docs' });
  app.register(fastifyWebsocket, { options: { maxPayload: options.socketMessageLimit ?? DEFAULT_BODY_LIMIT } });
  app.register(tableRoutes(context));
  app.register(seatRoutes(context));
  app.register(recordRoutes(context));
  app.register(forkRoutes(context));
  app.register(repairRoutes(context));
  const notices = new TableNotices();
  const stopTellingTimeouts = tellTimeouts((onChange) => host.subscribe(onChange), notices);
  app.register(rematchRoutes(context, notices));
  app.register(chatRoutes(context, notices));
  app.register(socketRoute(context, notices));
  app.register(machineRoutes());
  // In a plugin, as every route is: a route added at the root now would be added before the rate limit is loaded.
  app.register(async (operations) => {
    operations.get('/metrics', { schema: { summary: 'Prometheus metrics', tags: ['operations'] } }, async (_, reply) => {
      reply.header('content-type', metrics.registry.contentType);
      return metrics.registry.metrics();
    });
  });
  const webRoot = options.webRoot ?? DEFAULT_WEB_ROOT;
  if (existsSync(webRoot)) app.register(fastifyStatic, { root: webRoot, prefix: '/' });

  app.addHook('preClose', async () => {
    stopRelaying();
    stopTellingTimeouts();
    stopCountingOwnMoves();
    watchers.closeAll(GATEWAY_GOING_AWAY, 'this gateway is stopping: connect again, here or to another gateway');
  });
  return app as unknown as Gateway;
}

/** Requests as logged: socket URLs carry seat tokens, which must never reach a log. */
function requestForLog(request: { method: string; url: string; ip?: string; id?: string }) {
  return { method: request.method, url: urlForLog(request.url), remoteAddress: request.ip };
}

/** Query keys the API defines whose values, whole numbers, hold nothing secret; every other value is logged as <redacted>. */
const PLAIN_QUERY_KEYS = new Set(['after', 'at', 'seat', 'page', 'limit']);

/**
 * A URL with every query value redacted unless its key, decoded as the
 * router decodes it, is one of PLAIN_QUERY_KEYS and the value a whole number
 * as the API takes it: a token sent under any spelling of "token"
 * (`%74oken`, `tok%65n`), under any other key, or in the place of a number
 * (`after=<token>`) is never written out.
 */
export function urlForLog(url: string): string {
  const start = url.indexOf('?');
  if (start < 0) return url;
  const parts = url
    .slice(start + 1)
    .split('&')
    .map((part) => {
      const equals = part.indexOf('=');
      const key = equals < 0 ? part : part.slice(0, equals);
      if (PLAIN_QUERY_KEYS.has(decodedQueryKey(key)) && parseWholeNumber(part.slice(equals + 1)) !== null) return part;
      return equals < 0 ? '<redacted>' : `${key}=<redacted>`;
    });
  return `${url.slice(0, start)}?${parts.join('&')}`;
}

function decodedQueryKey(key: string): string {
  try {
    return decodeURIComponent(key.replace(/\+/g, ' '));
  } catch {
    return key;
  }
}
