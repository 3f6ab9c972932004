/**
 * Every limit the gateway keeps on what one client can cost, with its
 * default, in one place (docs/api.md, "Limits", lists the same). A client is
 * its address: the TCP peer, or with `trustProxy` the address the proxy
 * says it forwards for.
 */
import { MAX_PENDING_IMPORTS } from '../host/recordImport/recordImports.js';
import type { RateLimit } from './rateLimit.js';

/** The routes that cost more than a read of a table in memory, each with its own, tighter, limit per client. */
export type CostlyRoute = 'createTable' | 'forkTable' | 'importRecord' | 'joinSeat' | 'wholeGame' | 'replay' | 'openSocket';

/** A costly route's budget for the whole gateway (costlyWork.ts). */
export interface WorkBudget {
  /** Requests of the route being worked on at once. */
  readonly atOnce: number;
  /** Requests waiting for one of those to finish; the next is refused (503). */
  readonly waiting: number;
}

export type WorkBudgets = Readonly<Record<'createTable' | 'forkTable' | 'importRecord' | 'replay', WorkBudget>>;

/** The import worker folds one record at a time and holds 4 (recordImports.ts): more at once would only wait there. */
const IMPORT_BUDGET: WorkBudget = { atOnce: MAX_PENDING_IMPORTS, waiting: 0 };

export interface GatewayLimits {
  /**
   * Requests per client address to each route that has no tighter limit (the
   * lobby, views, commands, leaving, static files, /docs, /metrics,
   * /machines, unknown paths): `burst` in each window of burst / perSecond
   * seconds, counted for each route apart.
   */
  readonly requests: RateLimit;
  /** The routes that cost more, per client address, each counted apart. */
  readonly routes: Readonly<Record<CostlyRoute, RateLimit>>;
  /**
   * The network prefix an IPv6 client is counted by, in bits (clientIdentity.ts): every address of one /64 is one
   * client, as one subscriber is given a /64. 128 counts each address apart. IPv4 clients are each address.
   */
  readonly ipv6ClientPrefix: number;
  /** Sockets open at once per client address. */
  readonly socketsPerClient: number;
  /**
   * Connections (HTTP and WebSocket) the gateway holds open at once, whoever opened them: past it a new connection
   * is closed as it arrives (suitors_connections_refused_total), so that many addresses together, each within its
   * own limits, cannot take every file descriptor of the process. Keep it below the open-files limit (ulimit -n).
   */
  readonly connectionsInAll: number;
  /** Messages per socket (a token bucket: `burst` at once, `perSecond` after). */
  readonly socketMessages: RateLimit;
  /**
   * Bytes a socket may have waiting to be sent, past what the operating
   * system's buffers took, before it is closed: its client is not reading, and
   * whatever the gateway queued for it would otherwise grow with the game.
   */
  readonly socketUnsentBytes: number;
  /** The shortest turn clock a table may be created with, in seconds. */
  readonly minTurnSeconds: number;
  /** Tables still seating players that one client address may have created (the rest are 429). */
  readonly seatingTablesPerClient: number;
  /**
   * Events one client may add to the store in a UTC day through new tables, forks and imports (storageBudget.ts):
   * past it, 429 until 00:00 UTC. The request that crosses it is written, so a client overshoots by one at most.
   */
  readonly storageEventsPerDay: number;
  /** Clients the daily storage budget counts at once; past it the one charged longest ago is forgotten. */
  readonly storageBudgetClients: number;
  /**
   * Tables still seating players that the clients of one network (an IPv4 /24, an IPv6 /48) may have created together
   * (the rest are 429): a network's share of `seatingTablesInAll`, so addresses taken from one range cannot fill it.
   */
  readonly seatingTablesPerNetwork: number;
  /** Tables still seating players, in all (the rest are 503). */
  readonly seatingTablesInAll: number;
  /** A table still seating players, with no person at it and no event for this long, is closed. */
  readonly seatingIdleSeconds: number;
  /**
   * A table still seating players with a person at it and no event for this long is closed too: its person waited
   * for players who never came (an old rematch's maker, a friend who never opened the invite) and has gone.
   */
  readonly seatedIdleSeconds: number;
  /** Tables of bots alone in play (made so, or forked with nobody seated) that one client may have made (the rest are 429). */
  readonly botTablesPerClient: number;
  /** Tables of bots alone in play, in all (the rest are 503): each plays at bot pace with nobody at it. */
  readonly botTablesInAll: number;
  /** A finished game stays in the lobby this long after its last event; after that only in the recent games. */
  readonly finishedInLobbySeconds: number;
  /** Lobby pages: `default` tables unless the client asks for fewer or more, at most `max`. */
  readonly lobbyPage: { readonly default: number; readonly max: number };
  /**
   * Load shedding: when the event loop's longest lag in the last sample period
   * (`sampleMs`) was over `maxEventLoopDelayMs`, new requests are answered 503
   * with Retry-After until a period passes without; work already accepted goes on.
   */
  readonly loadShedding: { readonly maxEventLoopDelayMs: number; readonly sampleMs: number; readonly retryAfterSeconds: number };
  /**
   * The budgets of the costly routes for the whole gateway, whoever sends them (costlyWork.ts): so many under way at
   * once, so many waiting, and the rest 503 with Retry-After.
   */
  readonly budgets: WorkBudgets;
}

export type GatewayLimitSettings = Partial<Omit<GatewayLimits, 'routes' | 'budgets'>> & {
  readonly routes?: Partial<Record<CostlyRoute, RateLimit>>;
  readonly budgets?: Partial<WorkBudgets>;
};

export const DEFAULT_LIMITS: GatewayLimits = {
  requests: { perSecond: 30, burst: 120 },
  routes: {
    createTable: { perSecond: 1 / 6, burst: 10 },
    forkTable: { perSecond: 1 / 6, burst: 10 },
    importRecord: { perSecond: 1 / 10, burst: 3 },
    joinSeat: { perSecond: 1, burst: 30 },
    wholeGame: { perSecond: 1, burst: 30 },
    replay: { perSecond: 2, burst: 60 },
    openSocket: { perSecond: 1, burst: 30 },
  },
  ipv6ClientPrefix: 64,
  socketsPerClient: 64,
  connectionsInAll: 10_000,
  socketMessages: { perSecond: 5, burst: 20 },
  socketUnsentBytes: 1024 * 1024,
  minTurnSeconds: 5,
  seatingTablesPerClient: 10,
  // A tenth of the cap in all: ten networks' addresses, not one, are needed to fill it.
  seatingTablesPerNetwork: 100,
  seatingTablesInAll: 1_000,
  // About 16 games of 100 hands imported (6,000 events each, 643 KiB in SQLite), or 10 MB a client a day.
  storageEventsPerDay: 100_000,
  storageBudgetClients: 100_000,
  seatingIdleSeconds: 600,
  seatedIdleSeconds: 14_400,
  botTablesPerClient: 10,
  botTablesInAll: 100,
  finishedInLobbySeconds: 600,
  lobbyPage: { default: 50, max: 100 },
  loadShedding: { maxEventLoopDelayMs: 500, sampleMs: 500, retryAfterSeconds: 1 },
  budgets: {
    createTable: { atOnce: 8, waiting: 64 },
    forkTable: { atOnce: 2, waiting: 8 },
    importRecord: IMPORT_BUDGET,
    replay: { atOnce: 4, waiting: 32 },
  },
};

/** The defaults with `settings` over them. */
export function resolveLimits(settings: GatewayLimitSettings = {}): GatewayLimits {
  return {
    ...DEFAULT_LIMITS,
    ...settings,
    routes: { ...DEFAULT_LIMITS.routes, ...settings.routes },
    budgets: { ...DEFAULT_LIMITS.budgets, ...settings.budgets },
  };
}

/** A rate limit as @fastify/rate-limit counts it: `burst` requests in each fixed window of burst / perSecond seconds. */
export function windowOf(limit: RateLimit): { max: number; timeWindow: number } {
  return { max: Math.max(1, Math.floor(limit.burst)), timeWindow: Math.max(1, Math.round((limit.burst / limit.perSecond) * 1000)) };
}

/** Every rate limit lifted (the fuzzer and the leak scan play far faster than any person); the other caps stay. */
export function liftedRateLimits(): GatewayLimitSettings {
  const unlimited: RateLimit = { perSecond: 1e9, burst: 1e9 };
  const routes = Object.fromEntries(Object.keys(DEFAULT_LIMITS.routes).map((route) => [route, unlimited])) as Record<
    CostlyRoute,
    RateLimit
  >;
  return { requests: unlimited, routes, socketMessages: unlimited, socketsPerClient: 1e9 };
}
