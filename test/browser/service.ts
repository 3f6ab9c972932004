/**
 * The real service in-process for browser tests: a memory event store, the
 * table host and the gateway serving the web client freshly built from
 * source (into a folder of its own, so other tests' dist/ is never touched),
 * on a free port of 127.0.0.1, with bots that move at once.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { WaitSettings } from '../../drivers/polling.js';
import { buildWeb } from '../../scripts/build-web.js';
import { createMemoryEventStore } from '../../services/eventstore/memoryEventStore.js';
import { createGateway } from '../../services/gateway/gateway.js';
import type { GatewayLimitSettings } from '../../services/gateway/limits.js';
import { TableHost } from '../../services/host/tableHost.js';
import { createMemorySeatTokens } from '../../services/tokens/memorySeatTokens.js';

/**
 * Every test page and the screenshot script come from one address, and a
 * test opens tables faster than any person: the service's limits (docs/api.md,
 * "Limits") are raised so that only what a test checks can refuse it, and
 * load shedding waits for a lag no busy test machine reaches.
 */
const plenty = { perSecond: 1_000, burst: 1_000 };
const ROOMY_LIMITS: GatewayLimitSettings = {
  requests: plenty,
  routes: { createTable: plenty, joinSeat: plenty, wholeGame: plenty, replay: plenty, openSocket: plenty },
  socketsPerClient: 1_000,
  seatingTablesPerClient: 1_000,
  loadShedding: { maxEventLoopDelayMs: 60_000, sampleMs: 500, retryAfterSeconds: 1 },
};

export interface RunningService {
  readonly url: string;
  close(): Promise<void>;
}

export async function startService(): Promise<RunningService> {
  const webRoot = await mkdtemp(join(tmpdir(), 'suitors-web-'));
  await buildWeb(webRoot);
  const store = createMemoryEventStore();
  const host = new TableHost({ store, autopilot: { botDelayMs: 0 } });
  const tokens = createMemorySeatTokens();
  const gateway = createGateway({ host, tokens, webRoot, limits: ROOMY_LIMITS });
  const url = await gateway.listen({ host: '127.0.0.1', port: 0 });
  return {
    url,
    close: async () => {
      await gateway.close();
      await host.close();
      await tokens.close();
      await store.close();
      await rm(webRoot, { recursive: true, force: true });
    },
  };
}

/** Calls the API as a script would. */
export async function apiCall<T>(url: string, method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${url}${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const answer = (await response.json()) as T;
  if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${JSON.stringify(answer)}`);
  return answer;
}

/** How the browser tests and the screenshots wait: a page, or a bot game through the API, takes longer than a call in-process, and each look costs more. */
export const PAGE_WAIT: WaitSettings = { timeoutMs: 30_000, everyMs: 50 };
