/**
 * One table of a pool's run: it creates a table with no bots, takes every
 * seat over HTTP and opens a socket per seat; when the game ends a new
 * table takes its place while the run lasts, and with `reconnect` its seats
 * move together to another gateway when theirs drops them.
 */
import { WebSocket } from 'ws';
import { sleep } from '../polling.js';
import { SeatClient, type SeatPool } from './seatClient.js';
import { Refused, STEP_TIMEOUT_MS, withTimeout } from './steps.js';

/** What a table's slot needs of the pool it belongs to (a PlayerPool), besides what its seats need. */
export interface SlotPool extends SeatPool {
  readonly seatCount: number;
  /** Finished games are replaced by new tables until 5 s before this (performance.now()). */
  readonly replaceUntil: number;
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
    readonly pool: SlotPool,
    readonly index: number,
    readonly address: string,
  ) {}

  /** Creates a table (with the server-side bots and clock asked for), takes its seats over HTTP and opens a socket per seat played here; false (counted) on any failure. */
  async setUp(): Promise<boolean> {
    const { pool } = this;
    const counters = pool.counters;
    const started = performance.now();
    try {
      this.port = pool.options.gatewayFor(this);
      const serverSide = pool.options.serverSide;
      const created = await pool.http.post(
        this.port,
        '/api/tables',
        {
          game: pool.options.game,
          options: pool.options.tableOptions ?? {},
          ...(serverSide === undefined
            ? {}
            : { bots: serverSide.bots, ...(serverSide.turnSeconds === undefined ? {} : { turnSeconds: serverSide.turnSeconds }) }),
        },
        this.address,
      );
      this.tableId = String(created.tableId);
      pool.options.onTableCreated?.(this.tableId);
      const people = Array.from({ length: pool.seatCount }, (_, seat) => seat).filter(
        (seat) => !(serverSide?.bots.includes(seat) ?? false),
      );
      const tokens = await Promise.all(
        people.map(async (seat) => {
          const joined = await pool.http.post(
            this.port,
            `/api/tables/${this.tableId}/seats/${seat}`,
            { name: `bot ${this.index}.${seat}` },
            this.address,
          );
          if (pool.playing) counters.joinsWhilePlaying++;
          return { seat, token: String(joined.token) };
        }),
      );
      const seats: SeatClient[] = [];
      for (const { seat, token } of tokens) {
        // An absent player took the seat and never plays it: the turn clock does.
        if (serverSide?.absent.includes(seat) ?? false) continue;
        await pool.http.paced(this.address);
        seats.push(new SeatClient(this, seat, token));
      }
      this.seats = seats;
      await this.opened();
      // A socket the gateway dropped while the others opened: `dropped` ignores a table still being set up.
      if (seats.some((client) => client.socket.readyState !== WebSocket.OPEN))
        throw new Refused('socket closed during set-up', `table ${this.tableId}`);
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
          await pool.http.paced(this.address);
          client.connect();
        }
        try {
          await withTimeout(Promise.all(seats.map((client) => client.opened)), STEP_TIMEOUT_MS, 'socket open');
          // A socket dropped again while the others opened: its close came while this move was under way, so try again here.
          if (seats.some((client) => client.socket.readyState !== WebSocket.OPEN))
            throw new Refused('socket closed while reconnecting', tableId);
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
