/**
 * Limits on what one client's requests may cost, applied to the route the
 * router chose, never to the URL as written (`/%61pi/tables` is
 * `/api/tables` and is counted as such):
 *
 * - a rate limit per client address and route (@fastify/rate-limit), with
 *   tighter limits for the routes a route marks costly (`config.cost`);
 *   unknown paths are counted too;
 * - load shedding: while the event loop lags (eventLoopLag.ts), new
 *   requests are refused 503 with Retry-After. Commands already accepted,
 *   and socket messages, are never dropped.
 *
 * Both refuse before the body is read, and a refused WebSocket upgrade has
 * its socket closed.
 */
import fastifyRateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { clientOf } from './clientIdentity.js';
import { EventLoopLag, type LagSource } from '../eventLoopLag.js';
import { windowOf, type CostlyRoute, type GatewayLimits } from './limits.js';
import { GatewayRefusal, STATUS_OF } from './refusals.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** What the route costs: its own rate limit (limits.ts); routes without one have the general limit. */
    cost?: CostlyRoute;
  }
}

export interface RequestLimitParts {
  /** What load shedding reads the loop's lag from: this process's loop by default, measured every `sampleMs`. */
  readonly lag?: LagSource;
}

/** Registers the limits on `app`; call before any route is added. */
export function registerRequestLimits(app: FastifyInstance, limits: GatewayLimits, parts: RequestLimitParts = {}): void {
  // Every route gets its own count per client: the plugin shares one count among routes without a config.
  app.addHook('onRoute', (route) => {
    const config = (route.config ?? {}) as { cost?: CostlyRoute; rateLimit?: unknown };
    if (config.rateLimit !== undefined) return;
    const limit = config.cost === undefined ? limits.requests : limits.routes[config.cost];
    route.config = { ...config, rateLimit: windowOf(limit) } as typeof route.config;
  });
  app.register(fastifyRateLimit, {
    global: true,
    // Not onRequest: an answer from there skips the WebSocket plugin's hook that closes a refused upgrade's socket.
    hook: 'preParsing',
    ...windowOf(limits.requests),
    keyGenerator: (request) => clientOf(request.ip, limits.ipv6ClientPrefix),
    errorResponseBuilder: (request, context) => {
      const route = request.routeOptions.url === undefined ? 'unknown paths' : `${request.method} ${request.routeOptions.url}`;
      const seconds = Math.max(1, Math.ceil(context.ttl / 1000));
      return new GatewayRefusal(
        'rateLimited',
        `too many requests from ${clientOf(request.ip, limits.ipv6ClientPrefix)} to ${route} (at most ${context.max} per window); try again in ${seconds} s`,
      );
    },
  });
  app.after(() => {
    // Paths no route serves are counted too, one count for all of them.
    const limitUnknownPaths = (
      app as FastifyInstance & { rateLimit(options?: object): (request: FastifyRequest, reply: FastifyReply) => Promise<void> }
    ).rateLimit(windowOf(limits.requests));
    app.setNotFoundHandler({ preHandler: limitUnknownPaths }, (request, reply) =>
      reply.code(404).send({
        error: 'notFound',
        message: `there is no ${request.method} ${pathOf(request.url)}; the API is under /api, described at /docs`,
      }),
    );
  });

  const { maxEventLoopDelayMs, sampleMs, retryAfterSeconds } = limits.loadShedding;
  const lag = parts.lag ?? ownLag(app, sampleMs);
  // Before the route's rate limit (route hooks run after these), so a shed request is not counted against its client.
  let shedSinceWarning = 0;
  let warnedAt = -Infinity;
  app.addHook('preParsing', async (request, reply, payload) => {
    const lagMs = lag.currentMs;
    if (lagMs <= maxEventLoopDelayMs) return payload;
    // One line a second at most: a log line per refused request would flood the log just when the service is busiest.
    shedSinceWarning++;
    if (performance.now() - warnedAt >= 1000) {
      request.log.warn(
        { eventLoopLagMs: lagMs, shed: shedSinceWarning },
        'shedding load: the event loop lags; new requests are answered 503',
      );
      warnedAt = performance.now();
      shedSinceWarning = 0;
    }
    return reply
      .code(STATUS_OF.unavailable)
      .header('retry-after', String(retryAfterSeconds))
      .send({ error: 'unavailable', message: `the service is overloaded (it lags ${lagMs} ms); try again in ${retryAfterSeconds} s` });
  });
}

/** The loop's lag measured for `app`, for as long as it is open. */
function ownLag(app: FastifyInstance, sampleMs: number): LagSource {
  const lag = new EventLoopLag(sampleMs);
  app.addHook('onClose', async () => lag.stop());
  return lag;
}

/** A refused WebSocket upgrade answered before the WebSocket plugin saw it: its socket is closed once answered. */
export function closeIfUpgrade(request: FastifyRequest, reply: FastifyReply): void {
  if (request.headers.upgrade !== undefined) reply.raw.once('finish', () => request.raw.socket.destroy());
}

/** A request's path without its query (which may hold a token). */
function pathOf(url: string): string {
  return url.split('?')[0];
}
