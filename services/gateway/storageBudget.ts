/**
 * What one client may add to the store in a day (issue 26): events written
 * by its imports, forks and new tables, counted per UTC day in this process.
 * A client at its budget is refused 429 until 00:00 UTC; the request that
 * crosses the budget is let through (its size is known only once it is
 * written), so a client overshoots by one request at most, which the record
 * body limit and the source game's length bound.
 */
import { GatewayRefusal } from './refusals.js';

const DAY_MS = 24 * 60 * 60 * 1000;

export interface StorageBudgetLimit {
  /** Events one client may add in a UTC day (limits.ts, `storageEventsPerDay`). */
  readonly eventsPerDay: number;
  /** Clients counted at once (limits.ts, `storageBudgetClients`). */
  readonly clients: number;
}

export class StorageBudget {
  /** Events added today by each client, in the order they were last charged (a Map keeps insertion order). */
  private readonly added = new Map<string, number>();
  private day: number;

  constructor(
    private readonly limit: StorageBudgetLimit,
    private readonly now: () => number = Date.now,
  ) {
    this.day = dayOf(now());
  }

  /** Refuses (429, with when it resets) a client that has used up today's budget. */
  private check(client: string): void {
    this.turnDay();
    const added = this.added.get(client) ?? 0;
    if (added < this.limit.eventsPerDay) return;
    const resetsAt = (this.day + 1) * DAY_MS;
    const retryAfterSeconds = Math.ceil((resetsAt - this.now()) / 1000);
    throw new StorageBudgetSpent(
      `this client has added ${added} events to the store today, which uses up its daily storage budget of ${this.limit.eventsPerDay} events (imports, forks and new tables); it resets at 00:00 UTC, in ${retryAfterSeconds} seconds`,
      retryAfterSeconds,
    );
  }

  /**
   * Counts the events a client's request wrote. Past `clients` the client charged longest ago is forgotten (its day
   * starts afresh): forgetting one takes that many other clients storing the same day, each through the global
   * budgets of the costly routes.
   */
  private charge(client: string, events: number): void {
    this.turnDay();
    const added = (this.added.get(client) ?? 0) + events;
    this.added.delete(client);
    this.added.set(client, added);
    if (this.added.size > this.limit.clients) {
      const longestAgo = this.added.keys().next().value;
      if (longestAgo !== undefined) this.added.delete(longestAgo);
    }
  }

  /** Runs a request that writes a new table once the client's budget allows it, and counts the events it wrote. */
  async spend<Written extends { readonly version: number }>(client: string, write: () => Promise<Written>): Promise<Written> {
    this.check(client);
    const written = await write();
    this.charge(client, written.version);
    return written;
  }

  private turnDay(): void {
    const today = dayOf(this.now());
    if (today === this.day) return;
    this.day = today;
    this.added.clear();
  }
}

/** A 429 that says when the budget resets, as Retry-After too. */
export class StorageBudgetSpent extends GatewayRefusal {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super('rateLimited', message);
  }
}

function dayOf(ms: number): number {
  return Math.floor(ms / DAY_MS);
}
