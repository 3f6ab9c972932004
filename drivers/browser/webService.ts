/**
 * The real service in-process for the browser tests and the screenshots:
 * the embedded service (drivers/embeddedService.ts: memory store, table
 * host, bots that move at once) serving the web client freshly built from
 * source into a folder of its own (so the repository's dist/ is never
 * touched), on a free port of 127.0.0.1.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Timers } from '../../services/clock/timers.js';
import type { GatewayLimitSettings } from '../../services/gateway/limits.js';
import { ADMIN, httpBaseOf, listen, startService } from '../embeddedService.js';
import type { WaitSettings } from '../polling.js';
import { buildWeb } from './webBuild.js';

/**
 * Every page comes from one address, and a test opens tables faster than
 * any person: the service's limits (docs/api.md, "Limits") are raised so
 * that only what a test checks can refuse it, and load shedding waits for a
 * lag no busy machine reaches.
 */
const plenty = { perSecond: 1_000, burst: 1_000 };
const ROOMY_LIMITS: GatewayLimitSettings = {
  requests: plenty,
  routes: { createTable: plenty, joinSeat: plenty, wholeGame: plenty, replay: plenty, openSocket: plenty },
  socketsPerClient: 1_000,
  seatingTablesPerClient: 1_000,
  seatingTablesPerNetwork: 1_000,
  botTablesPerClient: 1_000,
  botTablesInAll: 1_000,
  loadShedding: { maxEventLoopDelayMs: 60_000, sampleMs: 500, retryAfterSeconds: 1 },
};

export interface RunningWebService {
  /** The http:// address the pages are opened at. */
  readonly url: string;
  /** Headers that read any table's log before its game is over (the operator's admin token). */
  readonly admin: { readonly authorization: string };
  close(): Promise<void>;
}

export interface WebServiceOptions {
  /** The tables' clock (the system's by default): a test's own, to move the turn clock on without waiting it out. */
  readonly timers?: Timers;
}

export async function startWebService({ timers }: WebServiceOptions = {}): Promise<RunningWebService> {
  const webRoot = await mkdtemp(join(tmpdir(), 'suitors-web-'));
  await buildWeb(webRoot);
  const service = startService({ webRoot, limits: ROOMY_LIMITS, ...(timers === undefined ? {} : { timers }) });
  const url = httpBaseOf(await listen(service.app));
  return {
    url,
    admin: ADMIN,
    close: async () => {
      await service.close();
      await service.tokens.close();
      await service.store.close();
      await rm(webRoot, { recursive: true, force: true });
    },
  };
}

/** Calls the API as a script would; `headers` for the admin token. */
export async function apiCall<T>(
  url: string,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<T> {
  const response = await fetch(`${url}${path}`, {
    method,
    headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const answer = (await response.json()) as T;
  if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${JSON.stringify(answer)}`);
  return answer;
}

/** How the browser tests and the screenshots wait: a page, or a bot game through the API, takes longer than a call in-process, and each look costs more. */
export const PAGE_WAIT: WaitSettings = { timeoutMs: 30_000, everyMs: 50 };
