/**
 * One seat's player: its socket to the gateway (a new one on each
 * reconnection), the view it last saw, and the command awaiting its reply.
 * It moves when its view awaits it, paced under the socket's limit, and
 * counts what it meets in its pool's counters.
 */
import { WebSocket, type RawData } from 'ws';
import type { AwaitedAction } from '../../machines/table/refusal.js';
import { nextVersionOf } from '../../machines/viewChanges.js';
import type { TableView } from '../../machines/view.js';
import type { CommandBody } from '../../services/gateway/schemas.js';
import type { ServerMessage, VersionedView } from '../../services/gateway/socketProtocol.js';
import { ClosedBeforeOpen, UpgradeRefused, whenOpen } from '../socketClient.js';
import type { PlayerCounters } from './counters.js';
import { commandFor } from './moves.js';
import { Pacer, SOCKET_PACE } from './pace.js';
import type { PacedHttp } from './pacedHttp.js';
import type { PlayerPoolOptions } from './poolOptions.js';
import { Refused, STEP_TIMEOUT_MS } from './steps.js';

/** Refusals a player meets when a fault made its view stale or its table is changing workers: read again and retry. */
const RETRIED_DURING_FAULTS = new Set(['notNow', 'illegal', 'unavailable']);
/** How long a move refused after a fault waits before the seat reads its view again and retries. */
const RETRY_AFTER_REFUSAL_MS = 500;

/** What a seat needs of the pool it plays in (a PlayerPool). */
export interface SeatPool {
  readonly options: PlayerPoolOptions;
  readonly counters: PlayerCounters;
  readonly http: PacedHttp;
  /** The seats with a socket open. */
  readonly seats: Set<SeatClient>;
  readonly playing: boolean;
  readonly stopping: boolean;
  readonly steadyFrom: number;
}

/** What a seat needs of the table it sits at (a TableSlot). */
export interface SeatTable {
  readonly pool: SeatPool;
  readonly index: number;
  readonly tableId: string;
  readonly address: string;
  lastAcceptedAt: number;
  /** A seat's socket was dropped: the table's seats reconnect together. */
  dropped(): void;
  gameOver(tableId: string): void;
}

/** One seat's player: its socket to the gateway (a new one on each reconnection) and what it has seen. */
export class SeatClient {
  socket!: WebSocket;
  opened!: Promise<void>;
  firstView!: Promise<void>;
  view: TableView | null = null;
  version = 0;
  /** The last view the socket brought, which its next `changes` message applies to. */
  private socketView: VersionedView | undefined;
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
  private readonly pool: SeatPool;
  private readonly counters: PlayerCounters;

  /** The table of this seat's game: its slot goes on to other tables when the game ends. */
  readonly tableId: string;

  constructor(
    readonly table: SeatTable,
    readonly seat: number,
    readonly token: string,
  ) {
    this.tableId = table.tableId;
    this.pool = table.pool;
    this.counters = table.pool.counters;
    this.connect();
  }

  /**
   * Opens a socket to the table's gateway; after the first, resuming after
   * the last version seen (sent as changes: the version whose view the
   * socket's changes apply to, which a view read over HTTP may have passed).
   */
  connect(): void {
    const views = this.pool.options.views ?? 'changes';
    const after = views === 'changes' ? (this.socketView?.version ?? 0) : this.version;
    const resume = after > 0 ? `&after=${after}` : '';
    this.port = this.pool.options.gatewayFor(this.table, this.seat);
    const socket = new WebSocket(
      `ws://127.0.0.1:${this.port}/api/tables/${this.tableId}/socket?token=${encodeURIComponent(this.token)}&views=${views}${resume}`,
      { localAddress: this.table.address, perMessageDeflate: false, handshakeTimeout: STEP_TIMEOUT_MS },
    );
    this.socket = socket;
    this.closingByUs = false;
    this.pool.seats.add(this);
    let wasOpen = false;
    let gotView: () => void = () => undefined;
    this.firstView = new Promise((resolve) => (gotView = resolve));
    socket.once('open', () => (wasOpen = true));
    this.opened = whenOpen(socket).catch((error: unknown) => {
      if (error instanceof UpgradeRefused) {
        if (error.status === 429) this.counters.rateLimitRefusals++;
        throw new Refused(`upgrade refused: HTTP ${error.status}`, error.body.slice(0, 200));
      }
      if (error instanceof ClosedBeforeOpen) throw new Refused('socket closed before it opened', `table ${this.tableId} seat ${this.seat}`);
      throw error;
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
        this.socketView = message;
        this.seeView(message.version, message.view);
        gotView();
        return;
      case 'changes': {
        counters.viewsReceived++;
        counters.viewBytes += text.length;
        const next = this.socketView === undefined ? null : nextVersionOf(this.socketView, message);
        if (next === null) {
          counters.countError(
            'changes to a view the socket does not hold',
            `from ${message.from}, holding ${this.socketView?.version ?? 'none'}`,
          );
          return;
        }
        this.socketView = next;
        this.seeView(next.version, next.view);
        gotView();
        return;
      }
      case 'accepted': {
        const pending = this.pending;
        if (pending === null || pending.id !== message.id) {
          // Reconnecting forgets the command under way (its reply may be lost with the socket); a reply that still came is not an error.
          if (message.id !== null && this.forgotten.delete(String(message.id))) counters.repliesAfterDrop++;
          else counters.countError('accepted reply without a command', JSON.stringify(message));
          return;
        }
        if (this.tableId !== this.table.tableId)
          counters.countError('a reply from a game its table slot has left', `${this.tableId}, now ${this.table.tableId}`);
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
          if (message.error === 'rateLimited')
            setTimeout(() => {
              this.refusedAt = -1;
              this.act();
            }, 1000);
          else if (retried) setTimeout(() => void this.reread(), RETRY_AFTER_REFUSAL_MS);
        }
        return;
      }
      // What a table tells its people beside the views (socketProtocol.ts NoticeMessage): nothing a bot's next move needs.
      case 'rematch':
      case 'timedOut':
      case 'chat':
        counters.noticesReceived++;
        return;
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
      const answer = await this.pool.http.get(this.port, `/api/tables/${this.tableId}/view`, this.table.address, this.token);
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
