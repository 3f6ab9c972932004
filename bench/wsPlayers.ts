/**
 * Client-side bots that play the service the way people do: over its HTTP
 * and WebSocket API, one socket per seat, each seat with its own
 * HTTP-issued token, no server-side bots. Each table's players use their
 * own loopback address and stay under every limit of docs/api.md (HTTP per
 * address, messages per socket). Shared by the gateway benchmark
 * (bench/gateway.ts) and the soak and chaos runs (hardening/).
 *
 * A closed loop: a seat sends its move when its view awaits it and waits
 * for the reply before the next; a table whose game ends is replaced by a
 * new one while the run lasts.
 *
 * With `reconnect` (the chaos run), a socket the gateway drops is not an
 * error: every seat of that table reconnects, together, to the gateway
 * `gatewayFor` names then, with its token and `after=<version>`; a refused
 * move is tried again on a fresh read of the view, as a client would after
 * a fault.
 */
import http from 'node:http';
import { WebSocket, type RawData } from 'ws';
import type { Action, AwaitedAction } from '../machines/table/refusal.js';
import { GAMES, type GameName } from '../machines/table/options.js';
import type { TableView } from '../machines/view.js';
import type { CommandBody } from '../services/gateway/schemas.js';
import type { ServerMessage } from '../services/gateway/socketProtocol.js';
import { sleep } from './gatewayProcess.js';

/** The gateway's limits (docs/api.md) and the players' own pace, kept under them. */
export const HTTP_PACE = { perSecond: 25, burst: 100 }; // the gateway: 120 per 4 s per route and client address (new tables: 10 a minute)
export const SOCKET_PACE = { perSecond: 4, burst: 16 }; // the gateway: 5 a second, bursts of 20, per socket
const STEP_TIMEOUT_MS = 30_000;
/** Replies later than this are counted as late (not as errors: a command never answered is one). */
export const REPLY_TIMEOUT_MS = 10_000;
/** With `reconnect`: how long a table may go without an accepted move before its seats read their views again. */
const STALL_MS = 15_000;
/** Refusals a player meets when a fault made its view stale or its table is changing workers: read again and retry. */
const RETRIED_DURING_FAULTS = new Set(['notNow', 'illegal', 'unavailable']);
/** How long a move refused after a fault waits before the seat reads its view again and retries. */
const RETRY_AFTER_REFUSAL_MS = 500;

// --- pacing under the gateway's token buckets ---
export class Pacer {
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

/** A step of the API that did not go through, by kind (the key errors are counted under). */
export class Refused extends Error {
  constructor(
    readonly kind: string,
    message: string,
  ) {
    super(message);
  }
}

export function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Refused(`${what} timeout`, `no ${what} within ${ms / 1000} s`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** What the players count; read by whoever reports. */
export class PlayerCounters {
  readonly latencies: number[] = [];
  /** Latencies of commands sent after the warm-up (`PlayerPool.steadyFrom`): the first moves of every table go out at once. */
  readonly steadyLatencies: number[] = [];
  /** Latencies since the last `takeRecentLatencies`, for figures per interval. */
  private recentLatencies: number[] = [];
  accepted = 0;
  commandsSent = 0;
  viewsReceived = 0;
  viewBytes = 0;
  pacedSends = 0;
  rateLimitRefusals = 0;
  floodCloses = 0;
  emfile = 0;
  gamesFinished = 0;
  tablesSetUp = 0;
  tablesReplaced = 0;
  lateReplies = 0;
  /** Seats taken while playing (new tables): the gateway counts a join as a player command too. */
  joinsWhilePlaying = 0;
  /** With `reconnect`: tables whose seats moved to a gateway after theirs dropped them, and moves refused after a fault and tried again. */
  tablesReconnected = 0;
  retriedRefusals = 0;
  /** With `reconnect`: commands whose socket dropped before their reply, so whether they were taken is not known. */
  unansweredAtDrop = 0;
  /** Of those, replies that came all the same (accepted: the command is in the log, though not counted as acknowledged). */
  repliesAfterDrop = 0;
  /** How long each table's set-up took (create, take every seat, open every socket, first views), ms. */
  readonly setUpMs: number[] = [];
  /** With `reconnect`: tables whose seats read their views again after STALL_MS without an accepted move. */
  stallRescues = 0;
  /** With `reconnect`: table set-ups a fault cut short, tried again. */
  failedSetUps = 0;
  readonly errors = new Map<string, { count: number; example: string }>();

  recordLatency(ms: number, steady: boolean): void {
    this.latencies.push(ms);
    this.recentLatencies.push(ms);
    if (steady) this.steadyLatencies.push(ms);
  }

  takeRecentLatencies(): number[] {
    const taken = this.recentLatencies;
    this.recentLatencies = [];
    return taken;
  }

  countError(kind: string, detail = ''): void {
    const entry = this.errors.get(kind);
    if (entry === undefined) this.errors.set(kind, { count: 1, example: detail });
    else entry.count++;
  }

  errorCount(): number {
    let total = 0;
    for (const { count } of this.errors.values()) total += count;
    return total;
  }

  /** One line per kind of error, most frequent first, with an example. */
  errorLines(): string[] {
    return [...this.errors]
      .sort((a, b) => b[1].count - a[1].count)
      .map(([kind, { count, example }]) => `${count} × ${kind}${example ? ` — e.g. ${example}` : ''}`);
  }
}

/** A command the service acknowledged (`accepted`), as the client saw it: what the table's log must hold. */
export interface AcknowledgedCommand {
  readonly tableId: string;
  readonly seat: number;
  readonly command: CommandBody;
  /** The view version the command was sent on: its event comes after. */
  readonly sentAtVersion: number;
  /** The version of the `accepted` reply: the last event of the change the command made. */
  readonly version: number;
  /** When the command was sent and its reply came (performance.now()). */
  readonly sentAt: number;
  readonly acknowledgedAt: number;
}

export interface PlayerPoolOptions {
  readonly game: GameName;
  /** The rules options of every table (POST /api/tables `options`); the game's defaults without. */
  readonly tableOptions?: Readonly<Record<string, string>>;
  /** How many tables the run keeps in play (one loopback address each, up to `clientAddresses`). */
  readonly tables: number;
  /** Distinct client addresses (1 = 127.0.0.1 only). */
  readonly clientAddresses: number;
  /** Think time: a seat waits 0.5 to 1.5 times this before its move (0: moves as soon as it is awaited). */
  readonly thinkMs: number;
  /**
   * The port of the gateway (on 127.0.0.1) a table is set up on (no seat),
   * and each of its seats connects (and reconnects) to: seats of one table
   * may use different gateways.
   */
  gatewayFor(slot: TableSlot, seat?: number): number;
  /** Sockets the gateway drops reconnect, the table's seats together; refusals are retried on a fresh view. */
  readonly reconnect?: boolean;
  /** Each acknowledged command, as its reply arrives. */
  readonly onAccepted?: (acknowledged: AcknowledgedCommand) => void;
  /** Each new table, once it is created. */
  readonly onTableCreated?: (tableId: string) => void;
}

/** A pool of tables of client-side bots; `setUp`, then `play`, then `close`. */
export class PlayerPool {
  readonly counters = new PlayerCounters();
  readonly slots: TableSlot[] = [];
  readonly seats = new Set<SeatClient>();
  readonly seatCount: number;
  /** Playing starts once every table is set up, so the measured window is the steady state. */
  playing = false;
  stopping = false;
  /** Finished games are replaced by new tables until 5 s before this (performance.now()). */
  replaceUntil = Number.POSITIVE_INFINITY;
  /** Commands sent from then on count in `steadyLatencies`. */
  steadyFrom = Number.POSITIVE_INFINITY;
  private readonly httpPacers = new Map<string, Pacer>();

  constructor(readonly options: PlayerPoolOptions) {
    this.seatCount = GAMES[options.game].seats;
    for (let index = 0; index < options.tables; index++) this.slots.push(new TableSlot(this, index, this.addressOf(index)));
  }

  /** The loopback address the players of table `index` use. */
  addressOf(index: number): string {
    const addresses = this.options.clientAddresses;
    if (addresses <= 1) return '127.0.0.1';
    const n = index % addresses;
    return `127.1.${Math.floor(n / 250)}.${(n % 250) + 1}`;
  }

  /**
   * Sets up every table, `concurrency` at a time, until `deadline`
   * (performance.now()); `onProgress` every `progressMs`. How many slots
   * were tried: those after it were left out by the deadline or a stop.
   */
  async setUp({ concurrency, deadline, progressMs, onProgress }: { concurrency: number; deadline: number; progressMs: number; onProgress: () => void }): Promise<number> {
    let next = 0;
    let lastReport = performance.now();
    await Promise.all(
      Array.from({ length: Math.min(concurrency, this.slots.length) }, async () => {
        while (next < this.slots.length && !this.stopping && performance.now() < deadline) {
          await this.slots[next++].setUpSurely();
          if (performance.now() - lastReport >= progressMs) {
            lastReport = performance.now();
            onProgress();
          }
        }
      }),
    );
    return next;
  }

  play(): void {
    this.playing = true;
    for (const client of this.seats) client.act();
  }

  /**
   * Counts replies later than REPLY_TIMEOUT_MS, once per command; with
   * `reconnect`, also has the seats of a table with no accepted move for
   * STALL_MS and no command under way read their views again (a view a
   * fault kept from them would otherwise leave every seat waiting). Returns the timer.
   */
  watchLateReplies(): NodeJS.Timeout {
    return setInterval(() => {
      const now = performance.now();
      for (const client of this.seats) {
        if (client.pending !== null && !client.pending.lateCounted && now - client.pending.sentAt > REPLY_TIMEOUT_MS) {
          client.pending.lateCounted = true;
          this.counters.lateReplies++;
        }
      }
      if (!this.options.reconnect || !this.playing || this.stopping) return;
      for (const slot of this.stalledTables(STALL_MS)) {
        if (slot.seats.some((client) => client.pending !== null)) continue;
        this.counters.stallRescues++;
        slot.lastAcceptedAt = now;
        for (const client of slot.seats) void client.reread();
      }
    }, 1000);
  }

  openSockets(): number {
    let open = 0;
    for (const client of this.seats) if (client.socket.readyState === WebSocket.OPEN) open++;
    return open;
  }

  pendingCommands(): number {
    let pending = 0;
    for (const client of this.seats) if (client.pending !== null) pending++;
    return pending;
  }

  /** Waits (up to `ms`) for the replies of commands under way. */
  async drain(ms: number): Promise<void> {
    const until = performance.now() + ms;
    while (this.pendingCommands() > 0 && performance.now() < until) await sleep(20);
  }

  /** Tables in play with no accepted move for `ms`. */
  stalledTables(ms: number): TableSlot[] {
    const now = performance.now();
    return this.slots.filter((slot) => slot.active && now - slot.lastAcceptedAt > ms);
  }

  /** Stops playing and closes every socket (bounded), then cuts those still open. */
  async close(): Promise<void> {
    this.stopping = true;
    await Promise.race([Promise.all(this.slots.map((slot) => slot.close())), sleep(10_000)]);
    for (const client of this.seats) client.socket.terminate();
  }

  async pacedForAddress(address: string): Promise<void> {
    let pacer = this.httpPacers.get(address);
    if (pacer === undefined) this.httpPacers.set(address, (pacer = new Pacer(HTTP_PACE)));
    const wait = pacer.reserve();
    if (wait > 0) await sleep(wait);
  }

  /** A POST under the address's pace; a 429 is counted and retried (up to 3 times) after Retry-After. */
  post(port: number, path: string, body: unknown, address: string): Promise<Record<string, unknown>> {
    return this.request(port, 'POST', path, address, { body });
  }

  /** A GET under the address's pace, as `post`. */
  get(port: number, path: string, address: string, token?: string): Promise<Record<string, unknown>> {
    return this.request(port, 'GET', path, address, { token });
  }

  private async request(port: number, method: string, path: string, address: string, { body, token }: { body?: unknown; token?: string }): Promise<Record<string, unknown>> {
    for (let attempt = 1; ; attempt++) {
      await this.pacedForAddress(address);
      let answer: JsonAnswer;
      try {
        answer = await requestJson({ port, method, path, localAddress: address, body, token });
      } catch (error) {
        if (error instanceof Refused) throw error;
        const code = (error as NodeJS.ErrnoException).code ?? 'error';
        if (code === 'EMFILE') this.counters.emfile++;
        throw new Refused(`http ${code}`, `${method} ${path}: ${(error as Error).message}`);
      }
      if (answer.status === 429) {
        this.counters.rateLimitRefusals++;
        this.counters.countError('http 429 rateLimited', `${method} ${path}: ${String(answer.body.message)}`);
        if (attempt < 3) {
          await sleep(answer.retryAfter * 1000);
          continue;
        }
      }
      if (answer.status >= 200 && answer.status < 300) return answer.body;
      throw new Refused(`http ${answer.status} ${String(answer.body.error)}`, `${method} ${path}: ${String(answer.body.message)}`);
    }
  }
}

interface JsonAnswer {
  status: number;
  body: Record<string, unknown>;
  retryAfter: number;
}

function requestJson({ port, method, path, localAddress, body, token }: { port: number; method: string; path: string; localAddress: string; body?: unknown; token?: string }): Promise<JsonAnswer> {
  const text = body === undefined ? '' : JSON.stringify(body);
  const headers: Record<string, string | number> = {};
  if (body !== undefined) Object.assign(headers, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  if (token !== undefined) headers.authorization = `Bearer ${token}`;
  return new Promise((resolve, reject) => {
    const request = http.request({ host: '127.0.0.1', port, method, path, localAddress, agent: false, timeout: STEP_TIMEOUT_MS, headers }, (response) => {
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
    });
    request.on('timeout', () => request.destroy(new Refused('http timeout', `${method} ${path}: no answer within ${STEP_TIMEOUT_MS / 1000} s`)));
    request.on('error', reject);
    request.end(text);
  });
}

// --- the bots: one socket per seat ---
function pick<T>(items: readonly T[]): T {
  return items[Math.floor(Math.random() * items.length)];
}

/** A random legal command for the awaited action, from the seat's own view. */
export function commandFor(view: TableView, action: Action): CommandBody | null {
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

/** One seat's player: its socket to the gateway (a new one on each reconnection) and what it has seen. */
export class SeatClient {
  socket!: WebSocket;
  opened!: Promise<void>;
  firstView!: Promise<void>;
  view: TableView | null = null;
  version = 0;
  closingByUs = false;
  /** The command awaiting its reply. */
  pending: { id: string; sentAt: number; lateCounted: boolean; command: CommandBody; sentAtVersion: number } | null = null;
  private scheduled = false;
  /** The version of this seat's last accepted command: views older than that are stale. */
  private ackedVersion = 0;
  /** The view version a command was refused at: not tried again on that view. */
  private refusedAt = -1;
  private sent = 0;
  /** Commands forgotten at a drop, whose replies may still come. */
  private readonly forgotten = new Set<string>();
  /** The gateway this seat's socket is on. */
  private port = 0;
  private readonly pacer = new Pacer(SOCKET_PACE);
  private readonly pool: PlayerPool;
  private readonly counters: PlayerCounters;

  /** The table of this seat's game: its slot goes on to other tables when the game ends. */
  readonly tableId: string;

  constructor(
    readonly table: TableSlot,
    readonly seat: number,
    readonly token: string,
  ) {
    this.tableId = table.tableId;
    this.pool = table.pool;
    this.counters = table.pool.counters;
    this.connect();
  }

  /** Opens a socket to the table's gateway; after the first, resuming after the last version seen. */
  connect(): void {
    const resume = this.version > 0 ? `&after=${this.version}` : '';
    this.port = this.pool.options.gatewayFor(this.table, this.seat);
    const socket = new WebSocket(
      `ws://127.0.0.1:${this.port}/api/tables/${this.tableId}/socket?token=${encodeURIComponent(this.token)}${resume}`,
      { localAddress: this.table.address, perMessageDeflate: false, handshakeTimeout: STEP_TIMEOUT_MS },
    );
    this.socket = socket;
    this.closingByUs = false;
    this.pool.seats.add(this);
    let wasOpen = false;
    let gotView: () => void = () => undefined;
    this.firstView = new Promise((resolve) => (gotView = resolve));
    this.opened = new Promise((resolve, reject) => {
      socket.once('open', () => {
        wasOpen = true;
        resolve();
      });
      socket.once('unexpected-response', (request, response) => {
        const status = response.statusCode ?? 0;
        if (status === 429) this.counters.rateLimitRefusals++;
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (body += chunk));
        response.on('end', () => {
          request.destroy();
          reject(new Refused(`upgrade refused: HTTP ${status}`, body.slice(0, 200)));
        });
      });
      socket.once('error', (error) => reject(error));
      socket.once('close', () => reject(new Refused('socket closed before it opened', `table ${this.tableId} seat ${this.seat}`)));
    });
    this.opened.catch(() => undefined);
    socket.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EMFILE') this.counters.emfile++;
      // Before the socket opens the failure is the setup's error, counted there; with reconnect, a drop is the gateway's fault, handled on close.
      if (wasOpen && !this.pool.options.reconnect) this.counters.countError(`socket error ${error.code ?? error.message}`, error.message);
    });
    socket.on('close', (code, reason) => {
      if (this.socket === socket) this.pool.seats.delete(this);
      if (code === 1008) this.counters.floodCloses++;
      if (!wasOpen || this.closingByUs) return;
      if (this.pool.options.reconnect && !this.pool.stopping) this.table.dropped();
      else this.counters.countError(`socket closed by the gateway: ${code}`, reason.toString());
    });
    socket.on('message', (data: RawData) => this.receive(data.toString(), gotView));
  }

  private receive(text: string, gotView: () => void): void {
    const counters = this.counters;
    let message: ServerMessage;
    try {
      message = JSON.parse(text) as ServerMessage;
    } catch {
      counters.countError('unreadable socket message', text.slice(0, 200));
      return;
    }
    switch (message.type) {
      case 'view':
        counters.viewsReceived++;
        counters.viewBytes += text.length;
        this.seeView(message.version, message.view);
        gotView();
        return;
      case 'accepted': {
        const pending = this.pending;
        if (pending === null || pending.id !== message.id) {
          // Reconnecting forgets the command under way (its reply may be lost with the socket); a reply that still came is not an error.
          if (message.id !== null && this.forgotten.delete(String(message.id))) counters.repliesAfterDrop++;
          else counters.countError('accepted reply without a command', JSON.stringify(message));
          return;
        }
        if (this.tableId !== this.table.tableId) counters.countError("a reply from a game its table slot has left", `${this.tableId}, now ${this.table.tableId}`);
        counters.recordLatency(performance.now() - pending.sentAt, pending.sentAt >= this.pool.steadyFrom);
        counters.accepted++;
        this.table.lastAcceptedAt = performance.now();
        this.pending = null;
        this.ackedVersion = Math.max(this.ackedVersion, message.version);
        this.pool.options.onAccepted?.({
          tableId: this.tableId,
          seat: this.seat,
          command: pending.command,
          sentAtVersion: pending.sentAtVersion,
          version: message.version,
          sentAt: pending.sentAt,
          acknowledgedAt: performance.now(),
        });
        this.act();
        return;
      }
      case 'refused': {
        if (message.error === 'rateLimited') counters.rateLimitRefusals++;
        // During faults a move may meet a table that moved on or is changing hands; any other refusal is a fault of ours.
        const retried = this.pool.options.reconnect === true && RETRIED_DURING_FAULTS.has(message.error);
        if (retried) counters.retriedRefusals++;
        else counters.countError(`refused: ${message.error}`, message.message);
        if (this.pending !== null && (message.id === this.pending.id || message.id === null)) {
          this.pending = null;
          this.refusedAt = this.version;
          // A rate-limited command was not looked at: try again a second later. After a fault, the view may be behind: read it again first.
          if (message.error === 'rateLimited') setTimeout(() => ((this.refusedAt = -1), this.act()), 1000);
          else if (retried) setTimeout(() => void this.reread(), RETRY_AFTER_REFUSAL_MS);
        }
        return;
      }
      default:
        counters.countError('unexpected socket message', text.slice(0, 200));
    }
  }

  private seeView(version: number, view: TableView): void {
    if (version > this.version) {
      this.version = version;
      this.view = view;
    }
    if (this.view?.outcome?.finished === true) this.table.gameOver(this.tableId);
    else this.act();
  }

  /** Reads the seat's view over HTTP (after a fault the socket may have missed a change), then moves if awaited. */
  async reread(): Promise<void> {
    if (this.pool.stopping || this.closingByUs) return;
    try {
      const answer = await this.pool.get(this.port, `/api/tables/${this.tableId}/view`, this.table.address, this.token);
      this.refusedAt = -1;
      this.seeView(Number(answer.version), answer.view as TableView);
    } catch {
      this.counters.retriedRefusals++;
      // The gateway may be the one that dropped: the socket's close moves the table; otherwise try again.
      if (this.socket.readyState === WebSocket.OPEN) setTimeout(() => void this.reread(), RETRY_AFTER_REFUSAL_MS * 2);
    }
  }

  /** Sends this seat's move if the table awaits it, paced under the socket's limit. */
  act(alreadyPaced = false): void {
    const pool = this.pool;
    if (!pool.playing || pool.stopping || this.pending !== null || (this.scheduled && !alreadyPaced) || this.closingByUs) return;
    const view = this.view;
    if (view === null || this.version < this.ackedVersion || this.version === this.refusedAt) return;
    const awaited = view.awaiting.find((entry: AwaitedAction) => entry.seat === this.seat);
    if (awaited === undefined) return;
    if (!alreadyPaced) {
      const paced = this.pacer.reserve();
      if (paced > 0) this.counters.pacedSends++;
      // Think time varies (0.5 to 1.5 times thinkMs), as people's does, so tables drift apart.
      const wait = Math.max(paced, pool.options.thinkMs * (0.5 + Math.random()));
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
      this.counters.countError(`no move for ${awaited.action}`, `table ${this.tableId} seat ${this.seat} at version ${this.version}`);
      this.refusedAt = this.version;
      return;
    }
    if (this.socket.readyState !== WebSocket.OPEN) return;
    const id = `${this.seat}.${++this.sent}`;
    this.pending = { id, sentAt: performance.now(), lateCounted: false, command, sentAtVersion: this.version };
    this.counters.commandsSent++;
    this.socket.send(JSON.stringify({ type: 'command', id, command }));
  }

  /** The socket dropped: a command under way has no reply to wait for (it may or may not have been taken). */
  forgetPending(): void {
    if (this.pending !== null) {
      this.counters.unansweredAtDrop++;
      this.forgotten.add(this.pending.id);
    }
    this.pending = null;
    this.refusedAt = -1;
  }

  close(why = 'run over'): Promise<void> {
    this.closingByUs = true;
    const socket = this.socket;
    if (socket.readyState === WebSocket.CLOSED) return Promise.resolve();
    const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    if (socket.readyState === WebSocket.CONNECTING) socket.terminate();
    else socket.close(1000, why);
    return closed;
  }
}

/** One table of the run: the seats of its current game; a new game once one ends (while time remains). */
export class TableSlot {
  tableId = '';
  seats: SeatClient[] = [];
  /** The gateway this table's seats are connected to. */
  port = 0;
  lastAcceptedAt = performance.now();
  active = false;
  private overFor = '';
  private moving: Promise<void> | null = null;

  constructor(
    readonly pool: PlayerPool,
    readonly index: number,
    readonly address: string,
  ) {}

  /** Creates a table with no bots, takes every seat over HTTP and opens a socket per seat; false (counted) on any failure. */
  async setUp(): Promise<boolean> {
    const { pool } = this;
    const counters = pool.counters;
    const started = performance.now();
    try {
      this.port = pool.options.gatewayFor(this);
      const created = await pool.post(this.port, '/api/tables', { game: pool.options.game, options: pool.options.tableOptions ?? {} }, this.address);
      this.tableId = String(created.tableId);
      pool.options.onTableCreated?.(this.tableId);
      const tokens = await Promise.all(
        Array.from({ length: pool.seatCount }, async (_, seat) => {
          const joined = await pool.post(this.port, `/api/tables/${this.tableId}/seats/${seat}`, { name: `bot ${this.index}.${seat}` }, this.address);
          if (pool.playing) counters.joinsWhilePlaying++;
          return String(joined.token);
        }),
      );
      const seats: SeatClient[] = [];
      for (const [seat, token] of tokens.entries()) {
        await pool.pacedForAddress(this.address);
        seats.push(new SeatClient(this, seat, token));
      }
      this.seats = seats;
      await this.opened();
      // A socket the gateway dropped while the others opened: `dropped` ignores a table still being set up.
      if (seats.some((client) => client.socket.readyState !== WebSocket.OPEN)) throw new Refused('socket closed during set-up', `table ${this.tableId}`);
      this.active = true;
      this.lastAcceptedAt = performance.now();
      counters.tablesSetUp++;
      counters.setUpMs.push(performance.now() - started);
      for (const client of seats) client.act();
      return true;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EMFILE') counters.emfile++;
      const kind = error instanceof Refused ? error.kind : `setup: ${code ?? (error as Error).message}`;
      if (pool.options.reconnect) counters.failedSetUps++;
      else counters.countError(`setting up a table failed: ${kind}`, (error as Error).message);
      await Promise.all(this.seats.map((client) => client.close()));
      this.seats = [];
      this.active = false;
      return false;
    }
  }

  /** setUp; with `reconnect`, a set-up cut short by a fault is tried again (backing off) while the run lasts. */
  async setUpSurely(): Promise<boolean> {
    for (let attempt = 1; ; attempt++) {
      if (await this.setUp()) return true;
      if (!this.pool.options.reconnect || this.pool.stopping || performance.now() > this.pool.replaceUntil) return false;
      await sleep(Math.min(5_000, 500 * attempt));
    }
  }

  private async opened(): Promise<void> {
    await withTimeout(Promise.all(this.seats.map((client) => client.opened)), STEP_TIMEOUT_MS, 'socket open');
    await withTimeout(Promise.all(this.seats.map((client) => client.firstView)), STEP_TIMEOUT_MS, 'first view');
  }

  /**
   * A seat's socket was dropped by its gateway (reconnect mode): every seat
   * of the table moves, together, to the gateway `gatewayFor` names now,
   * resuming after its last version; tried again until it holds or the run stops.
   */
  dropped(): void {
    if (this.moving !== null || !this.active) return;
    this.moving = (async () => {
      const { pool } = this;
      // The seats of this game: should it end meanwhile (the slot goes on to another table), they stay closed.
      const { tableId, seats } = this;
      const stillThisGame = () => !pool.stopping && this.active && this.tableId === tableId;
      for (const client of seats) client.forgetPending();
      await Promise.all(seats.map((client) => client.close('moving to another gateway')));
      for (let attempt = 1; stillThisGame(); attempt++) {
        this.port = pool.options.gatewayFor(this);
        for (const client of seats) {
          await pool.pacedForAddress(this.address);
          client.connect();
        }
        try {
          await withTimeout(Promise.all(seats.map((client) => client.opened)), STEP_TIMEOUT_MS, 'socket open');
          // A socket dropped again while the others opened: its close came while this move was under way, so try again here.
          if (seats.some((client) => client.socket.readyState !== WebSocket.OPEN)) throw new Refused('socket closed while reconnecting', tableId);
          pool.counters.tablesReconnected++;
          this.lastAcceptedAt = performance.now();
          // With after=<version> a table that did not move sends nothing: act on the view held, re-reading it where a reply went missing.
          for (const client of seats) void client.reread();
          return;
        } catch {
          await Promise.all(seats.map((client) => client.close('reconnecting')));
          await sleep(Math.min(5_000, 250 * attempt));
        }
      }
    })().finally(() => (this.moving = null));
  }

  /** The game at `tableId` is over: its sockets close (after their last replies), and a new table takes its place while time remains. */
  gameOver(tableId: string): void {
    if (this.overFor === tableId || tableId !== this.tableId) return;
    this.overFor = tableId;
    const { pool } = this;
    pool.counters.gamesFinished++;
    this.active = false;
    const seats = this.seats;
    void (async () => {
      const settled = performance.now() + 5_000;
      while (seats.some((client) => client.pending !== null) && performance.now() < settled) await sleep(20);
      await Promise.all(seats.map((client) => client.close('game over')));
      if (!pool.stopping && pool.replaceUntil - performance.now() > 5_000 && (await this.setUpSurely())) pool.counters.tablesReplaced++;
    })();
  }

  async close(): Promise<void> {
    await Promise.all(this.seats.map((client) => client.close()));
  }
}
