/**
 * Gateway load benchmark (npm run bench:gateway): the real service
 * (services/main.ts) in a child process, and BENCH_TABLES (1000) tables of
 * client-side bots playing it over WebSocket, one socket per seat, each seat
 * with its own HTTP-issued token. No server-side bots: every move is a
 * player's socket command. Prints accepted moves/s, move latency (send to
 * the `accepted` reply), errors by kind, the gateway's memory and sockets;
 * a progress line every 10 s.
 *
 * Environment:
 * - BENCH_TABLES (1000), BENCH_SECONDS (60), BENCH_GAME (sevenSuitors);
 * - BENCH_THINK_MS (0: a seat moves as soon as it is awaited; more models
 *   players who take about that long, 0.5 to 1.5 times, to choose);
 * - BENCH_CLIENT_ADDRESSES (one per table; 1 = 127.0.0.1 only);
 * - BENCH_SETUP_CONCURRENCY (32 tables set up at a time), BENCH_SETUP_SECONDS
 *   (300: tables not set up by then are left out);
 * - BENCH_GATEWAY_NODE_ARGS (extra node flags for the service alone, e.g.
 *   "--cpu-prof --cpu-prof-dir=/tmp/prof").
 *
 * The bots play as fast as the gateway answers (a closed loop: each table
 * waits for its move's reply before the next), so with the gateway
 * saturated the latency is mostly queueing: about tables / (moves/s).
 *
 * Client addresses: the gateway allows each client address 30 requests a
 * second (bursts of 120), and a table takes 9 requests to set up (create, 4
 * seats, 4 socket upgrades), so from one address 1,000 tables would take 5
 * minutes to set up. Players have their own addresses, so by default each
 * table's players use their own loopback address (127.1.y.z, still the
 * loopback interface, Linux routes all of 127/8 there). The benchmark paces
 * itself under every limit of docs/api.md: HTTP per address, and 5
 * messages a second (bursts of 20) per socket.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { WebSocket, type RawData } from 'ws';
import type { Action, AwaitedAction } from '../machines/table/refusal.js';
import { GAMES, isGameName, type GameName } from '../machines/table/options.js';
import type { TableView } from '../machines/view.js';
import type { CommandBody } from '../services/gateway/schemas.js';
import {
  cpuSeconds,
  getText,
  histogramPercentile,
  metricValue,
  openFilesLimit,
  parseMetrics,
  procStatus,
  sleep,
  startGatewayProcess,
  type GatewayProcess,
  type Sample,
} from './gatewayProcess.js';
import { latencySummary, megabytes, percentile } from './stats.js';

function positiveFromEnv(name: string, fallback: number, { whole = true, zero = false } = {}): number {
  const given = process.env[name];
  if (given === undefined || given === '') return fallback;
  const value = Number(given);
  if (!(value > 0 || (zero && value === 0)) || (whole && !Number.isInteger(value))) {
    throw new Error(`${name} must be a ${whole ? 'whole ' : ''}number ${zero ? 'from 0' : 'above 0'}, not ${JSON.stringify(given)}`);
  }
  return value;
}

const GAME = (process.env.BENCH_GAME || 'sevenSuitors') as GameName;
if (!isGameName(GAME)) throw new Error(`BENCH_GAME must be sevenSuitors, antiCupid or traitorOfLove, not ${JSON.stringify(GAME)}`);
const SEATS = GAMES[GAME].seats;
let TABLES = positiveFromEnv('BENCH_TABLES', 1000);
const SECONDS = positiveFromEnv('BENCH_SECONDS', 60, { whole: false });
const SETUP_CONCURRENCY = positiveFromEnv('BENCH_SETUP_CONCURRENCY', 32);
const SETUP_SECONDS = positiveFromEnv('BENCH_SETUP_SECONDS', 300, { whole: false });
const THINK_MS = positiveFromEnv('BENCH_THINK_MS', 0, { whole: false, zero: true });
const PROGRESS_MS = 10_000;
const STEP_TIMEOUT_MS = 30_000;
/** Replies later than this are counted as late (not as errors: a command never answered is one). */
const REPLY_TIMEOUT_MS = 10_000;
/** The gateway's limits (docs/api.md) and the benchmark's own pace, kept under them. */
const HTTP_PACE = { perSecond: 25, burst: 100 }; // the gateway: 30 a second, bursts of 120, per client address
const SOCKET_PACE = { perSecond: 4, burst: 16 }; // the gateway: 5 a second, bursts of 20, per socket
/** File descriptors each process needs besides its sockets (the SQLite file, pipes, the HTTP requests of setup). */
const SPARE_FDS = 256;

// --- the open-files limit: each process holds one descriptor per socket ---
const fdLimit = openFilesLimit();
if (fdLimit !== null && TABLES * SEATS + SPARE_FDS > fdLimit) {
  const fitting = Math.max(1, Math.floor((fdLimit - SPARE_FDS) / SEATS));
  console.log(
    `note: the open-files limit (ulimit -n) is ${fdLimit}; ${TABLES} tables need ${TABLES * SEATS} sockets in this process and as many in the gateway. ` +
      `Running ${fitting} tables instead; for ${TABLES}, raise it first (e.g. \`ulimit -n ${TABLES * SEATS + 1024}\`).`,
  );
  TABLES = fitting;
}
const ADDRESSES = Math.min(positiveFromEnv('BENCH_CLIENT_ADDRESSES', TABLES), TABLES);

// --- what the run counts ---
const latencies: number[] = [];
/** Latencies of commands sent after the warm-up: the first moves of every table go out at once. */
const steadyLatencies: number[] = [];
const WARMUP_MS = Math.min(10_000, (SECONDS * 1000) / 3);
let steadyFrom = Number.POSITIVE_INFINITY;
let accepted = 0;
let commandsSent = 0;
let viewsReceived = 0;
let viewBytes = 0;
let pacedSends = 0;
let rateLimitRefusals = 0;
let floodCloses = 0;
let emfile = 0;
let gamesFinished = 0;
let tablesSetUp = 0;
let tablesReplaced = 0;
let lateReplies = 0;
/** Seats taken while playing (new tables): the gateway counts a join as a player command too. */
let joinsWhilePlaying = 0;
const errors = new Map<string, { count: number; example: string }>();

function countError(kind: string, detail = ''): void {
  const entry = errors.get(kind);
  if (entry === undefined) errors.set(kind, { count: 1, example: detail });
  else entry.count++;
}

function errorCount(): number {
  let total = 0;
  for (const { count } of errors.values()) total += count;
  return total;
}

/** Playing starts once every table is set up, so the measured window is the steady state. */
let playing = false;
let stopping = false;
let runEndsAt = Number.POSITIVE_INFINITY;

// --- pacing under the gateway's token buckets ---
class Pacer {
  private tokens: number;
  private updated = performance.now();

  constructor(private readonly limit: { perSecond: number; burst: number }) {
    this.tokens = limit.burst;
  }

  /** Takes a token, borrowing ahead when there is none: how long to wait before using it, in ms. */
  reserve(): number {
    const now = performance.now();
    this.tokens = Math.min(this.limit.burst, this.tokens + ((now - this.updated) / 1000) * this.limit.perSecond);
    this.updated = now;
    this.tokens -= 1;
    return this.tokens >= 0 ? 0 : (-this.tokens / this.limit.perSecond) * 1000;
  }
}

const httpPacers = new Map<string, Pacer>();
async function pacedForAddress(address: string): Promise<void> {
  let pacer = httpPacers.get(address);
  if (pacer === undefined) httpPacers.set(address, (pacer = new Pacer(HTTP_PACE)));
  const wait = pacer.reserve();
  if (wait > 0) await sleep(wait);
}

/** The loopback address the players of table `index` use. */
function addressOf(index: number): string {
  if (ADDRESSES === 1) return '127.0.0.1';
  const n = index % ADDRESSES;
  return `127.1.${Math.floor(n / 250)}.${(n % 250) + 1}`;
}

// --- the HTTP API ---
let gateway!: GatewayProcess;

class Refused extends Error {
  constructor(
    readonly kind: string,
    message: string,
  ) {
    super(message);
  }
}

function postJson(path: string, body: unknown, localAddress: string): Promise<{ status: number; body: Record<string, unknown>; retryAfter: number }> {
  const text = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        host: '127.0.0.1',
        port: gateway.port,
        method: 'POST',
        path,
        localAddress,
        agent: false,
        timeout: STEP_TIMEOUT_MS,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) },
      },
      (response) => {
        let answer = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (answer += chunk));
        response.on('error', reject);
        response.on('end', () => {
          let parsed: Record<string, unknown>;
          try {
            parsed = JSON.parse(answer) as Record<string, unknown>;
          } catch {
            parsed = { error: 'notJson', message: answer.slice(0, 200) };
          }
          resolve({ status: response.statusCode ?? 0, body: parsed, retryAfter: Number(response.headers['retry-after'] ?? 1) });
        });
      },
    );
    request.on('timeout', () => request.destroy(new Refused('http timeout', `POST ${path}: no answer within ${STEP_TIMEOUT_MS / 1000} s`)));
    request.on('error', reject);
    request.end(text);
  });
}

/** A POST under the address's pace; a 429 is counted and retried (up to 3 times) after Retry-After. */
async function post(path: string, body: unknown, address: string): Promise<Record<string, unknown>> {
  for (let attempt = 1; ; attempt++) {
    await pacedForAddress(address);
    let answer: Awaited<ReturnType<typeof postJson>>;
    try {
      answer = await postJson(path, body, address);
    } catch (error) {
      if (error instanceof Refused) throw error;
      const code = (error as NodeJS.ErrnoException).code ?? 'error';
      if (code === 'EMFILE') emfile++;
      throw new Refused(`http ${code}`, `POST ${path}: ${(error as Error).message}`);
    }
    if (answer.status === 429) {
      rateLimitRefusals++;
      countError('http 429 rateLimited', `POST ${path}: ${String(answer.body.message)}`);
      if (attempt < 3) {
        await sleep(answer.retryAfter * 1000);
        continue;
      }
    }
    if (answer.status >= 200 && answer.status < 300) return answer.body;
    throw new Refused(`http ${answer.status} ${String(answer.body.error)}`, `POST ${path}: ${String(answer.body.message)}`);
  }
}

// --- the bots: one socket per seat ---
type ServerMessage =
  | { type: 'view'; version: number; view: TableView }
  | { type: 'accepted'; id: string | number | null; version: number }
  | { type: 'refused'; id: string | number | null; error: string; message: string };

function pick<T>(items: readonly T[]): T {
  return items[Math.floor(Math.random() * items.length)];
}

/** A random legal command for the awaited action, from the seat's own view. */
function commandFor(view: TableView, action: Action): CommandBody | null {
  const hand = view.hand;
  if (hand === null) return null;
  switch (action) {
    case 'play':
      return hand.legalCards.length === 0 ? null : { type: 'card.played', card: pick(hand.legalCards) };
    case 'pass': {
      const cards = (hand.cards ?? []).slice();
      if (hand.passTo.length === 0 || cards.length < hand.passTo.length) return null;
      for (let i = cards.length - 1; i > 0; i--) {
        const j = Math.floor(Math.random() * (i + 1));
        [cards[i], cards[j]] = [cards[j], cards[i]];
      }
      return { type: 'cards.passed', passes: hand.passTo.map((to, i) => ({ to, card: cards[i] })) };
    }
    case 'accuse':
      return hand.mayAccuse.length === 0 ? null : { type: 'traitor.accused', accused: pick(hand.mayAccuse) };
  }
}

const allSeats = new Set<SeatClient>();

class SeatClient {
  readonly socket: WebSocket;
  readonly opened: Promise<void>;
  readonly firstView: Promise<void>;
  view: TableView | null = null;
  version = 0;
  wasOpen = false;
  closingByUs = false;
  /** The command awaiting its reply. */
  pending: { id: string; sentAt: number; lateCounted: boolean } | null = null;
  private scheduled = false;
  /** The version of this seat's last accepted command: views older than that are stale. */
  private ackedVersion = 0;
  /** The view version a command was refused at: not tried again on that view. */
  private refusedAt = -1;
  private sent = 0;
  private readonly pacer = new Pacer(SOCKET_PACE);

  constructor(
    readonly table: TableSlot,
    readonly seat: number,
    token: string,
  ) {
    this.socket = new WebSocket(`ws://127.0.0.1:${gateway.port}/api/tables/${table.tableId}/socket?token=${encodeURIComponent(token)}`, {
      localAddress: table.address,
      perMessageDeflate: false,
      handshakeTimeout: STEP_TIMEOUT_MS,
    });
    allSeats.add(this);
    let gotView: () => void = () => undefined;
    this.firstView = new Promise((resolve) => (gotView = resolve));
    this.opened = new Promise((resolve, reject) => {
      this.socket.once('open', () => {
        this.wasOpen = true;
        resolve();
      });
      this.socket.once('unexpected-response', (request, response) => {
        const status = response.statusCode ?? 0;
        if (status === 429) rateLimitRefusals++;
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (body += chunk));
        response.on('end', () => {
          request.destroy();
          reject(new Refused(`upgrade refused: HTTP ${status}`, body.slice(0, 200)));
        });
      });
      this.socket.once('error', (error) => reject(error));
    });
    this.opened.catch(() => undefined);
    this.socket.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EMFILE') emfile++;
      // Before the socket opens the failure is the setup's error, counted there.
      if (this.wasOpen) countError(`socket error ${error.code ?? error.message}`, error.message);
    });
    this.socket.on('close', (code, reason) => {
      allSeats.delete(this);
      if (code === 1008) floodCloses++;
      if (this.wasOpen && !this.closingByUs) countError(`socket closed by the gateway: ${code}`, reason.toString());
    });
    this.socket.on('message', (data: RawData) => {
      const text = data.toString();
      let message: ServerMessage;
      try {
        message = JSON.parse(text) as ServerMessage;
      } catch {
        countError('unreadable socket message', text.slice(0, 200));
        return;
      }
      switch (message.type) {
        case 'view':
          viewsReceived++;
          viewBytes += text.length;
          if (message.version > this.version) {
            this.version = message.version;
            this.view = message.view;
          }
          gotView();
          if (message.view.outcome?.finished === true) this.table.gameOver(this.table.tableId);
          else this.act();
          return;
        case 'accepted':
          if (this.pending === null || this.pending.id !== message.id) {
            countError('accepted reply without a command', JSON.stringify(message));
            return;
          }
          latencies.push(performance.now() - this.pending.sentAt);
          if (this.pending.sentAt >= steadyFrom) steadyLatencies.push(performance.now() - this.pending.sentAt);
          accepted++;
          this.table.lastAcceptedAt = performance.now();
          this.pending = null;
          this.ackedVersion = Math.max(this.ackedVersion, message.version);
          this.act();
          return;
        case 'refused':
          if (message.error === 'rateLimited') rateLimitRefusals++;
          countError(`refused: ${message.error}`, message.message);
          if (this.pending !== null && (message.id === this.pending.id || message.id === null)) {
            this.pending = null;
            this.refusedAt = this.version;
            // A rate-limited command was not looked at: try again a second later.
            if (message.error === 'rateLimited') setTimeout(() => ((this.refusedAt = -1), this.act()), 1000);
          }
          return;
        default:
          countError('unexpected socket message', text.slice(0, 200));
      }
    });
  }

  /** Sends this seat's move if the table awaits it, paced under the socket's limit. */
  act(alreadyPaced = false): void {
    if (!playing || stopping || this.pending !== null || (this.scheduled && !alreadyPaced) || this.closingByUs) return;
    const view = this.view;
    if (view === null || this.version < this.ackedVersion || this.version === this.refusedAt) return;
    const awaited = view.awaiting.find((entry: AwaitedAction) => entry.seat === this.seat);
    if (awaited === undefined) return;
    if (!alreadyPaced) {
      const paced = this.pacer.reserve();
      if (paced > 0) pacedSends++;
      // Think time varies (0.5 to 1.5 times BENCH_THINK_MS), as people's does, so tables drift apart.
      const wait = Math.max(paced, THINK_MS * (0.5 + Math.random()));
      if (wait > 0) {
        this.scheduled = true;
        setTimeout(() => {
          this.scheduled = false;
          this.act(true);
        }, wait);
        return;
      }
    }
    const command = commandFor(view, awaited.action);
    if (command === null) {
      countError(`no move for ${awaited.action}`, `table ${this.table.tableId} seat ${this.seat} at version ${this.version}`);
      this.refusedAt = this.version;
      return;
    }
    if (this.socket.readyState !== WebSocket.OPEN) return;
    const id = `${this.seat}.${++this.sent}`;
    this.pending = { id, sentAt: performance.now(), lateCounted: false };
    commandsSent++;
    this.socket.send(JSON.stringify({ type: 'command', id, command }));
  }

  close(): Promise<void> {
    this.closingByUs = true;
    if (this.socket.readyState === WebSocket.CLOSED) return Promise.resolve();
    const closed = new Promise<void>((resolve) => this.socket.once('close', () => resolve()));
    if (this.socket.readyState === WebSocket.CONNECTING) this.socket.terminate();
    else this.socket.close(1000, 'benchmark over');
    return closed;
  }
}

/** One table of the benchmark: the seats of its current game; a new game once one ends (while time remains). */
class TableSlot {
  tableId = '';
  seats: SeatClient[] = [];
  lastAcceptedAt = performance.now();
  active = false;
  private overFor = '';

  constructor(
    readonly index: number,
    readonly address: string,
  ) {}

  /** Creates a table with no bots, takes every seat over HTTP and opens a socket per seat; false (counted) on any failure. */
  async setUp(): Promise<boolean> {
    try {
      const created = await post('/api/tables', { game: GAME }, this.address);
      this.tableId = String(created.tableId);
      const tokens = await Promise.all(
        Array.from({ length: SEATS }, async (_, seat) => {
          const joined = await post(`/api/tables/${this.tableId}/seats/${seat}`, { name: `bench ${this.index}.${seat}` }, this.address);
          if (playing) joinsWhilePlaying++;
          return String(joined.token);
        }),
      );
      const seats: SeatClient[] = [];
      for (const [seat, token] of tokens.entries()) {
        await pacedForAddress(this.address);
        seats.push(new SeatClient(this, seat, token));
      }
      this.seats = seats;
      await withTimeout(Promise.all(seats.map((client) => client.opened)), STEP_TIMEOUT_MS, 'socket open');
      await withTimeout(Promise.all(seats.map((client) => client.firstView)), STEP_TIMEOUT_MS, 'first view');
      this.active = true;
      this.lastAcceptedAt = performance.now();
      tablesSetUp++;
      for (const client of seats) client.act();
      return true;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EMFILE') emfile++;
      const kind = error instanceof Refused ? error.kind : `setup: ${code ?? (error as Error).message}`;
      countError(`setting up a table failed: ${kind}`, (error as Error).message);
      await Promise.all(this.seats.map((client) => client.close()));
      this.seats = [];
      this.active = false;
      return false;
    }
  }

  /** The game at `tableId` is over: its sockets close (after their last replies), and a new table takes its place while time remains. */
  gameOver(tableId: string): void {
    if (this.overFor === tableId) return;
    this.overFor = tableId;
    gamesFinished++;
    this.active = false;
    const seats = this.seats;
    void (async () => {
      const settled = performance.now() + 5_000;
      while (seats.some((client) => client.pending !== null) && performance.now() < settled) await sleep(20);
      await Promise.all(seats.map((client) => client.close()));
      if (!stopping && runEndsAt - performance.now() > 5_000 && (await this.setUp())) tablesReplaced++;
    })();
  }

  async close(): Promise<void> {
    await Promise.all(this.seats.map((client) => client.close()));
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Refused(`${what} timeout`, `no ${what} within ${ms / 1000} s`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

// --- figures ---
async function scrapeMetrics(): Promise<Sample[] | null> {
  try {
    const { status, body } = await getText(`${gateway.baseUrl}/metrics`);
    return status === 200 ? parseMetrics(body) : null;
  } catch {
    return null;
  }
}

function rssNow(): string {
  const status = procStatus(gateway.pid);
  return status === null ? 'n/a' : megabytes(status.rss);
}

function openSockets(): number {
  let open = 0;
  for (const client of allSeats) if (client.socket.readyState === WebSocket.OPEN) open++;
  return open;
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)}s`;
}

// --- the run ---
const directory = mkdtempSync(join(tmpdir(), 'suitors-gateway-bench-'));
let interrupted = false;
const onSignal = (signal: NodeJS.Signals) => {
  if (interrupted) return;
  interrupted = true;
  console.log(`\n${signal}: stopping early`);
  stopping = true;
  runEndsAt = Math.min(runEndsAt, performance.now());
  wakeEnd();
};
process.once('SIGINT', onSignal);
process.once('SIGTERM', onSignal);
let wakeEnd: () => void = () => undefined;

console.log(
  `gateway benchmark: ${TABLES} concurrent ${GAMES[GAME].title} tables × ${SEATS} seats = ${TABLES * SEATS} WebSockets of client-side bots, ` +
    `one gateway process (SQLite in ${directory}), ${SECONDS}s${THINK_MS > 0 ? `, ${THINK_MS} ms think time per move` : ''}; open-files limit ${fdLimit ?? 'unknown'}; ` +
    `client addresses: ${ADDRESSES === 1 ? '127.0.0.1 only' : `${ADDRESSES} loopback addresses (127.1.y.z), one per table`}`,
);

const loopDelay = monitorEventLoopDelay({ resolution: 10 });
let exitCode = 0;
const slots: TableSlot[] = [];
try {
  gateway = await startGatewayProcess(directory);
  gateway.child.on('exit', (code, signal) => {
    if (stopping) return;
    countError('the gateway process ended during the run', `code ${code}, signal ${signal}`);
    stopping = true;
    runEndsAt = performance.now();
    wakeEnd();
  });
  console.log(`gateway pid ${gateway.pid} on ${gateway.baseUrl}, RSS ${rssNow()} at start`);

  // Set up every table (bounded: workers stop taking tables after BENCH_SETUP_SECONDS).
  const setupStarted = performance.now();
  const setupDeadline = setupStarted + SETUP_SECONDS * 1000;
  for (let index = 0; index < TABLES; index++) slots.push(new TableSlot(index, addressOf(index)));
  let next = 0;
  let lastReport = setupStarted;
  await Promise.all(
    Array.from({ length: Math.min(SETUP_CONCURRENCY, TABLES) }, async () => {
      while (next < TABLES && !stopping && performance.now() < setupDeadline) {
        await slots[next++].setUp();
        if (performance.now() - lastReport >= PROGRESS_MS) {
          lastReport = performance.now();
          console.log(`[setup ${seconds(lastReport - setupStarted)}] ${tablesSetUp}/${TABLES} tables, ${openSockets()} sockets open, errors ${errorCount()}, gateway RSS ${rssNow()}`);
        }
      }
    }),
  );
  const setupSeconds = (performance.now() - setupStarted) / 1000;
  if (next < TABLES && !stopping) countError('tables left out: setup ran past BENCH_SETUP_SECONDS', `${TABLES - next} tables`);
  const rssAfterSetup = procStatus(gateway.pid);
  console.log(
    `set up ${tablesSetUp}/${TABLES} tables and ${openSockets()} sockets in ${setupSeconds.toFixed(1)}s; gateway RSS ${rssAfterSetup === null ? 'n/a' : megabytes(rssAfterSetup.rss)}; errors so far ${errorCount()}`,
  );

  // Play.
  const metricsBefore = await scrapeMetrics();
  const gatewayCpuBefore = cpuSeconds(gateway.pid);
  const clientCpuBefore = process.cpuUsage();
  loopDelay.enable();
  const started = performance.now();
  runEndsAt = started + SECONDS * 1000;
  steadyFrom = started + WARMUP_MS;
  playing = true;
  for (const client of allSeats) client.act();

  let lastTick = started;
  let acceptedAtTick = 0;
  const viewsAtStart = viewsReceived;
  const viewBytesAtStart = viewBytes;
  let viewsAtTick = viewsReceived;
  let viewBytesAtTick = viewBytes;
  const progress = setInterval(() => {
    const now = performance.now();
    const rate = (accepted - acceptedAtTick) / ((now - lastTick) / 1000);
    lastTick = now;
    acceptedAtTick = accepted;
    const viewKb = viewsReceived === viewsAtTick ? 0 : (viewBytes - viewBytesAtTick) / (viewsReceived - viewsAtTick) / 1024;
    viewsAtTick = viewsReceived;
    viewBytesAtTick = viewBytes;
    const sorted = latencies.slice().sort((a, b) => a - b);
    const line =
      `[${seconds(now - started)}] ${rate.toFixed(0)} moves/s, p99 so far ${percentile(sorted, 99).toFixed(1)} ms, errors ${errorCount()}, ` +
      `gateway RSS ${rssNow()}, ${openSockets()} sockets, games finished ${gamesFinished}, views ${viewKb.toFixed(1)} KB`;
    // The gateway's heap and event-loop lag since the last scrape (prom-client resets the lag histogram when read).
    void scrapeMetrics().then((samples) => {
      const heap = samples === null ? null : metricValue(samples, 'nodejs_heap_size_used_bytes');
      const lagP99 = samples === null ? null : metricValue(samples, 'nodejs_eventloop_lag_p99_seconds');
      const lagMax = samples === null ? null : metricValue(samples, 'nodejs_eventloop_lag_max_seconds');
      console.log(
        line +
          (heap === null ? '' : `; gateway heap ${megabytes(heap)}`) +
          (lagP99 === null || lagMax === null || lagMax === 0 ? '' : `, its event-loop lag p99 ${(lagP99 * 1000).toFixed(0)} ms, max ${(lagMax * 1000).toFixed(0)} ms`),
      );
    });
  }, PROGRESS_MS);
  const watchdog = setInterval(() => {
    const now = performance.now();
    for (const client of allSeats) {
      if (client.pending !== null && !client.pending.lateCounted && now - client.pending.sentAt > REPLY_TIMEOUT_MS) {
        client.pending.lateCounted = true;
        lateReplies++;
      }
    }
  }, 1000);
  await new Promise<void>((resolve) => {
    wakeEnd = resolve;
    setTimeout(resolve, Math.max(0, runEndsAt - performance.now()));
  });
  stopping = true;
  const ended = performance.now();
  const acceptedInRun = accepted;
  const elapsed = (ended - started) / 1000;
  clearInterval(progress);
  const gatewayCpuAfter = cpuSeconds(gateway.pid);
  const clientCpu = process.cpuUsage(clientCpuBefore);
  loopDelay.disable();

  // The last replies (bounded), then the figures while every socket is still open.
  const drainUntil = performance.now() + 5_000;
  const anyPending = () => [...allSeats].some((client) => client.pending !== null);
  while (anyPending() && performance.now() < drainUntil) await sleep(20);
  clearInterval(watchdog);
  const unanswered = [...allSeats].filter((client) => client.pending !== null).length;
  if (unanswered > 0) countError('commands unanswered 5 s after the run', `${unanswered} commands`);
  const now = performance.now();
  const stalled = slots.filter((slot) => slot.active && now - slot.lastAcceptedAt > REPLY_TIMEOUT_MS).length;
  const metricsAfter = gateway.exited === null ? await scrapeMetrics() : null;
  const rss = procStatus(gateway.pid);
  const clientSockets = openSockets();

  console.log('');
  console.log(
    `accepted moves: ${acceptedInRun} in ${elapsed.toFixed(1)}s = ${(acceptedInRun / elapsed).toFixed(0)} moves/s (${commandsSent} commands sent, ${accepted} accepted with the last replies; ` +
      `${gamesFinished} games finished, ${tablesReplaced} new tables set up in their place)`,
  );
  console.log(`move latency, socket send to 'accepted': ${latencySummary(latencies)} (max ${latencies.reduce((most, value) => Math.max(most, value), 0).toFixed(1)} ms, ${latencies.length} samples)`);
  console.log(`  after the first ${(WARMUP_MS / 1000).toFixed(0)} s (every table's first moves go out at once): ${latencySummary(steadyLatencies)} (${steadyLatencies.length} samples)`);
  if (metricsBefore !== null && metricsAfter !== null) {
    const where = { source: 'player' };
    const p50 = histogramPercentile(metricsBefore, metricsAfter, 'suitors_command_duration_seconds', where, 50);
    const p99 = histogramPercentile(metricsBefore, metricsAfter, 'suitors_command_duration_seconds', where, 99);
    const serverAccepted =
      (metricValue(metricsAfter, 'suitors_commands_total', { source: 'player', outcome: 'accepted' }) ?? 0) -
      (metricValue(metricsBefore, 'suitors_commands_total', { source: 'player', outcome: 'accepted' }) ?? 0) -
      joinsWhilePlaying;
    console.log(`  the gateway's own count: ${serverAccepted} moves accepted; its command duration (histogram buckets): p50 ${p50 ?? 'n/a'}, p99 ${p99 ?? 'n/a'}`);
  }
  const total = errorCount();
  console.log(`errors: ${total}${total === 0 ? '' : ':'}`);
  for (const [kind, { count, example }] of [...errors].sort((a, b) => b[1].count - a[1].count)) console.log(`  ${count} × ${kind}${example ? ` — e.g. ${example}` : ''}`);
  console.log(
    `rate limits: ${rateLimitRefusals} 429/rateLimited refusals, ${floodCloses} flood closes (1008); ` +
      `${pacedSends} socket sends held back by the benchmark's own pace (${SOCKET_PACE.perSecond}/s, bursts of ${SOCKET_PACE.burst}; the gateway allows 5/s, 20)`,
  );
  if (lateReplies > 0) console.log(`late: ${lateReplies} commands waited more than ${REPLY_TIMEOUT_MS / 1000} s for their reply`);
  if (stalled > 0) console.log(`stalled: ${stalled} tables in play had no accepted move in the last ${REPLY_TIMEOUT_MS / 1000} s`);
  const heapUsed = metricsAfter === null ? null : metricValue(metricsAfter, 'nodejs_heap_size_used_bytes');
  const heapTotal = metricsAfter === null ? null : metricValue(metricsAfter, 'nodejs_heap_size_total_bytes');
  console.log(
    `gateway memory: RSS ${rss === null ? 'n/a' : `${megabytes(rss.rss)} (peak ${megabytes(rss.peakRss)})`}` +
      (heapUsed === null ? ' (no heap figures: /metrics has no process metrics)' : `, heap used ${megabytes(heapUsed)} of ${megabytes(heapTotal ?? NaN)}`) +
      (rssAfterSetup === null ? '' : `; RSS after setup, before play: ${megabytes(rssAfterSetup.rss)}`),
  );
  const serverSockets = metricsAfter === null ? null : metricValue(metricsAfter, 'suitors_sockets_connected', { role: 'seat' });
  const resident = metricsAfter === null ? null : metricValue(metricsAfter, 'suitors_tables_resident');
  console.log(`connected sockets: ${clientSockets} open in the benchmark, ${serverSockets ?? 'n/a'} seat sockets by the gateway's metric; ${resident ?? 'n/a'} tables resident`);
  const lag = metricsAfter === null ? null : metricValue(metricsAfter, 'nodejs_eventloop_lag_p99_seconds');
  const lagMax = metricsAfter === null ? null : metricValue(metricsAfter, 'nodejs_eventloop_lag_max_seconds');
  console.log(
    `CPU during play: gateway ${gatewayCpuBefore === null || gatewayCpuAfter === null ? 'n/a' : `${(((gatewayCpuAfter - gatewayCpuBefore) / elapsed) * 100).toFixed(0)}%`}` +
      `${lag === null || !lagMax ? '' : ` (event-loop lag p99 ${(lag * 1000).toFixed(1)} ms, max ${((lagMax ?? NaN) * 1000).toFixed(1)} ms, since the last progress line)`}, ` +
      `benchmark ${(((clientCpu.user + clientCpu.system) / 1e6 / elapsed) * 100).toFixed(0)}% (event-loop delay p99 ${(loopDelay.percentile(99) / 1e6).toFixed(1)} ms) — 100% = one core`,
  );
  const views = viewsReceived - viewsAtStart;
  console.log(
    `views received while playing: ${views} (${(views / elapsed).toFixed(0)}/s, ${views === 0 ? 0 : ((viewBytes - viewBytesAtStart) / views / 1024).toFixed(1)} KB each on average)`,
  );
  if (emfile > 0) console.log(`EMFILE: ${emfile} times the process ran out of file descriptors; raise the limit (ulimit -n, now ${fdLimit}) or lower BENCH_TABLES`);
  if (gateway.complaints.length > 0) {
    console.log(`the gateway logged ${gateway.complaints.length} lines at warn or above; the first:`);
    for (const line of gateway.complaints.slice(0, 10)) console.log(`  ${line}`);
  }
  if (total > 0) exitCode = 1;
} catch (error) {
  console.error('the benchmark failed:', error);
  exitCode = 1;
} finally {
  stopping = true;
  await Promise.race([Promise.all(slots.map((slot) => slot.close())), sleep(10_000)]);
  for (const client of allSeats) client.socket.terminate();
  if (gateway !== undefined) console.log(`gateway process ${gateway.pid}: ${await gateway.stop()}`);
  rmSync(directory, { recursive: true, force: true });
}
process.exit(exitCode);
