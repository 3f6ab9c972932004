/**
 * A pool of client-side bots that play the service the way people do: over
 * its HTTP and WebSocket API, one socket per seat, each seat with its own
 * HTTP-issued token, no server-side bots. Each table's players use their
 * own loopback address and stay under every limit of docs/api.md (HTTP per
 * address, messages per socket). The gateway benchmark and the soak, chaos
 * and abuse runs play with it.
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
import { WebSocket } from 'ws';
import { GAMES } from '../../machines/table/options.js';
import { sleep } from '../polling.js';
import { PlayerCounters } from './counters.js';
import { PacedHttp } from './pacedHttp.js';
import type { PlayerPoolOptions } from './poolOptions.js';
import type { SeatClient } from './seatClient.js';
import { TableSlot } from './tableSlot.js';

export type { AcknowledgedCommand, PlayerPoolOptions } from './poolOptions.js';

/** Replies later than this are counted as late (not as errors: a command never answered is one). */
export const REPLY_TIMEOUT_MS = 10_000;
/** With `reconnect`: how long a table may go without an accepted move before its seats read their views again. */
const STALL_MS = 15_000;

/** A pool of tables of client-side bots; `setUp`, then `play`, then `close`. */
export class PlayerPool {
  readonly counters = new PlayerCounters();
  /** The players' HTTP calls, paced per client address. */
  readonly http = new PacedHttp(this.counters);
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
  async setUp({
    concurrency,
    deadline,
    progressMs,
    onProgress,
  }: {
    concurrency: number;
    deadline: number;
    progressMs: number;
    onProgress: () => void;
  }): Promise<number> {
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
}
