/**
 * The embedded service in this process, as `npm start` runs it but on a
 * memory store by default, for the tests and the fuzzer's gateway path:
 * `startService`, then `listen` for real HTTP and WebSocket clients.
 */
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import type { EventStore } from '../services/eventstore/eventStore.js';
import { createGateway, type Gateway, type GatewayOptions } from '../services/gateway/gateway.js';
import { DEFAULT_LIMITS } from '../services/gateway/limits.js';
import { TableHost } from '../services/host/tableHost.js';
import { openLocalStorage } from '../services/storage/storage.js';
import type { SeatTokens } from '../services/tokens/seatTokens.js';
import type { Timers } from '../services/clock/timers.js';

export interface TestService {
  readonly app: Gateway;
  readonly host: TableHost;
  readonly store: EventStore;
  readonly tokens: SeatTokens;
  /** Closes the gateway and the host (not the store or tokens, which a restart may reuse). */
  close(): Promise<void>;
}

export interface TestServiceOptions extends Omit<Partial<GatewayOptions>, 'host'> {
  /** The tables' owner; by default a host whose tables drive themselves, as `npm start` has, with `botDelayMs`. */
  readonly host?: TableHost;
  readonly store?: EventStore;
  readonly tokens?: SeatTokens;
  /** The default host's wait before each bot move (0). */
  readonly botDelayMs?: number;
  /** The default host's clock: its events' times, the bots' delay and the turn clock (the system's by default). */
  readonly timers?: Timers;
}

/**
 * The embedded service as `npm start` runs it, on a memory store by
 * default: a gateway in front of a host that has taken up the tables under
 * way in its store.
 */
export function startService(options: TestServiceOptions = {}): TestService {
  const { botDelayMs = 0, timers, ...gatewayOptions } = options;
  // In memory, unless the test brings its own: what it does not bring costs nothing to make.
  const memory = openLocalStorage({ kind: 'memory' });
  const store = options.store ?? memory.store;
  const tokens = options.tokens ?? memory.tokens;
  const host =
    options.host ??
    new TableHost({
      store,
      autopilot: { botDelayMs, ...(timers === undefined ? {} : { timers }) },
      ...(timers === undefined ? {} : { now: () => new Date(timers.now()) }),
    });
  let stopping = false;
  const takingUp = host
    .takeUpTablesUnderWay(
      8,
      () => stopping,
      () => undefined,
    )
    .catch(() => undefined);
  const app = createGateway({
    logger: pino({ level: 'silent' }),
    adminToken: 'admin-secret-for-tests',
    webRoot: '/nonexistent',
    ...gatewayOptions,
    // No load shedding unless a test asks for it: a test machine's loop stalls now and then (compiling, collecting
    // garbage, other test files), and a 503 there would be a flaky failure of a test about something else.
    limits: { loadShedding: { ...DEFAULT_LIMITS.loadShedding, maxEventLoopDelayMs: Number.POSITIVE_INFINITY }, ...options.limits },
    host,
    tokens,
  });
  return {
    app,
    host,
    store,
    tokens,
    async close() {
      stopping = true;
      await takingUp;
      await app.close();
      await host.close();
    },
  };
}

export const ADMIN = { authorization: 'Bearer admin-secret-for-tests' };

export function bearer(token: string): { authorization: string } {
  return { authorization: `Bearer ${token}` };
}

/** Starts listening on a free port; the ws:// base URL. */
export async function listen(app: Gateway): Promise<string> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as AddressInfo;
  return `ws://127.0.0.1:${port}`;
}

/** The http:// base of a gateway listen() started, for requests over real loopback HTTP. */
export function httpBaseOf(socketBase: string): string {
  return socketBase.replace(/^ws:/, 'http:');
}
