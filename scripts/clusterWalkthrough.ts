/**
 * What `npm run cluster` shows once the cluster is up (scripts/cluster.ts):
 * a few tables of bots to watch, then one person's command traced from the
 * gateway through NATS to the worker's append, and from then on, every 2 s,
 * which worker holds which tables, as the operator's page reads them (GET
 * /api/admin/fleet), with each table that moves named. Kill a worker (or
 * pass --kill-worker-after) and its tables show up at the other.
 */
import { createInterface } from 'node:readline';
import { GAMES } from '../machines/table/options.js';
import { gameOf } from '../drivers/remotePlay.js';
import { sleep } from '../drivers/polling.js';
import { SpanPrintout } from '../drivers/printedSpans.js';
import type { ServiceProcesses } from '../drivers/serviceProcesses.js';
import type { OperatorReport } from '../services/gateway/operatorReport.js';
import { SPAN_NAMES } from '../services/tracing/commandSpans.js';

const WATCH_EVERY_MS = 2_000;
/** A command's spans from the outside in (services/tracing/README.md), the order they are shown in. */
const SPAN_ORDER: readonly string[] = Object.values(SPAN_NAMES);
/** The console exporter sends spans in batches, every 5 s. */
const TRACE_WAIT_MS = 20_000;

type Say = (line: string) => void;

interface Walkthrough {
  readonly service: ServiceProcesses;
  readonly adminToken: string;
  readonly tables: number;
  /** SIGKILL worker-1 this many seconds after the tables are shared out; none: never. */
  readonly killWorkerAfter: number | undefined;
  /** The gateway's printed spans (cluster.ts feeds its lines here). */
  readonly gatewaySpans: SpanPrintout;
  readonly say: Say;
  readonly stopped: () => boolean;
}

export async function walkThrough(tour: Walkthrough): Promise<void> {
  const { service, say } = tour;
  const workerSpans = new SpanPrintout();
  for (const worker of service.workers) {
    if (worker.child.stdout !== null) createInterface({ input: worker.child.stdout }).on('line', (line) => workerSpans.take(line));
  }
  const api = apiOf(service.gateways[0].baseUrl);
  say(`\n1. ${tour.tables} tables of bots, to watch (the lobby: ${service.gateways[0].baseUrl}/#/)`);
  for (let index = 0; index < tour.tables; index++) {
    const game = gameOf(index);
    const bots = Array.from({ length: GAMES[game].seats }, (_, seat) => seat);
    const { tableId } = await api<{ tableId: string }>('POST', '/api/tables', { game, bots });
    say(`   ${tableId}: ${game}, every seat a bot`);
  }
  say('\n2. One command traced (SUITORS_TRACING=stdout): Ada passes three cards');
  await adaPasses(api, say);
  const { traceId, spans } = await lastCommandTrace(tour.gatewaySpans, workerSpans);
  for (const span of spans) say(`   ${span.service ?? '?'}: ${span.name}`);
  if (spans.some((span) => span.service === 'suitors-gateway') && spans.some((span) => span.service === 'suitors-worker')) {
    say(`   one trace (${traceId}) from the gateway through NATS to the worker's append`);
  } else {
    say(`   the trace's spans did not all arrive within ${TRACE_WAIT_MS / 1000} s (the gateway's and worker's logs hold them)`);
  }
  const [first] = service.workers;
  say(`\n3. Who holds which table, every ${WATCH_EVERY_MS / 1000} s (the operator's page shows the same)`);
  say(`   kill -9 ${first.child.pid} stops ${first.workerId}: watch its tables move`);
  await watchHoldings(tour, api);
}

type Api = <T>(method: string, path: string, body?: unknown, token?: string) => Promise<T>;

function apiOf(baseUrl: string): Api {
  return async (method, path, body, token) => {
    const response = await fetch(`${baseUrl}${path}`, {
      method,
      headers: {
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${text}`);
    return JSON.parse(text);
  };
}

/** A table of Seven Suitors with Ada in seat 0, who passes a card to each of the others: the only person's command here. */
async function adaPasses(api: Api, say: Say): Promise<void> {
  const { tableId } = await api<{ tableId: string }>('POST', '/api/tables', { game: 'sevenSuitors', bots: [1, 2, 3] });
  const { token } = await api<{ token: string }>('POST', `/api/tables/${tableId}/seats/0`, { name: 'Ada' });
  const { view } = await api<{ view: { hand: { cards: string[] } } }>('GET', `/api/tables/${tableId}/view`, undefined, token);
  const passes = view.hand.cards.slice(0, 3).map((card, index) => ({ to: index + 1, card }));
  await api('POST', `/api/tables/${tableId}/commands`, { type: 'cards.passed', passes }, token);
  say(`   ${tableId}: Ada's pass accepted`);
}

/**
 * The trace of the gateway's last player's command (bots' moves are the
 * workers' own and not traced, so it is Ada's), as both processes print it,
 * once both have, or what came within TRACE_WAIT_MS.
 */
async function lastCommandTrace(gateway: SpanPrintout, worker: SpanPrintout) {
  const deadline = Date.now() + TRACE_WAIT_MS;
  const traceId = () => gateway.spans.filter((span) => span.name === SPAN_NAMES.gatewayCommand).at(-1)?.traceId ?? '';
  while (Date.now() < deadline && (gateway.ofTrace(traceId()).length < 2 || worker.ofTrace(traceId()).length < 4)) await sleep(250);
  const place = (name: string) => (SPAN_ORDER.includes(name) ? SPAN_ORDER.indexOf(name) : SPAN_ORDER.length);
  const spans = [...gateway.ofTrace(traceId()), ...worker.ofTrace(traceId())].sort((a, b) => place(a.name) - place(b.name));
  return { traceId: traceId(), spans };
}

/** Prints each worker's tables when they change, and each table that moved; kills worker-1 when told to. */
async function watchHoldings(tour: Walkthrough, api: Api): Promise<void> {
  let last = new Map<string, string>();
  let shared = false;
  let killAt: number | undefined;
  while (!tour.stopped()) {
    const report = await api<OperatorReport>('GET', '/api/admin/fleet', undefined, tour.adminToken).catch((error: Error) => {
      tour.say(`   the operator's figures could not be read: ${error.message}`);
      return null;
    });
    if (report !== null) {
      const held = new Map(report.workers.flatMap(({ worker, status }) => (status?.tables ?? []).map((tableId) => [tableId, worker])));
      const moved = [...held].filter(([tableId, worker]) => last.has(tableId) && last.get(tableId) !== worker);
      for (const [tableId, worker] of moved) tour.say(`   ${tableId} moved: ${last.get(tableId)} → ${worker}`);
      if (
        moved.length > 0 ||
        [...held.keys()].join() !== [...last.keys()].join() ||
        [...held.values()].join() !== [...last.values()].join()
      ) {
        tour.say(`   ${holdingsLine(report)}`);
      }
      last = held;
      shared ||= report.workers.filter((worker) => (worker.status?.tablesHeld ?? 0) > 0).length > 1;
      if (shared && killAt === undefined && tour.killWorkerAfter !== undefined) killAt = Date.now() + tour.killWorkerAfter * 1000;
    }
    if (killAt !== undefined && Date.now() >= killAt) {
      killAt = Number.POSITIVE_INFINITY;
      const [first] = tour.service.workers;
      tour.say(`   killing ${first.workerId} (SIGKILL, pid ${first.child.pid}): its tables go to the other worker`);
      await first.kill();
    }
    await sleep(WATCH_EVERY_MS);
  }
}

function holdingsLine(report: OperatorReport): string {
  const workers = report.workers.map(({ worker, status }) =>
    status === null
      ? `${worker}: says nothing`
      : `${worker}: ${status.tablesHeld} table${status.tablesHeld === 1 ? '' : 's'} (${status.tables.join(', ')}), ${Math.round(status.rssBytes / 1_048_576)} MB, ${status.commandsPerSecond ?? '–'} commands/s, lag ${status.eventLoopLagMs} ms${status.heardSecondsAgo > 2 ? `, silent for ${status.heardSecondsAgo} s` : ''}`,
  );
  return workers.length === 0 ? 'no worker says it runs' : workers.join(' | ');
}
