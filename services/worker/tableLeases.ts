/**
 * Table ownership in JetStream KV, in two buckets (leaseBuckets.ts), so that
 * keeping a thousand tables costs one renewal, not a thousand:
 *
 * - `<stream>-worker-leases`: one key per worker, its *life* (workerLife.ts:
 *   how a worker keeps its own; otherLives.ts: how the others judge it).
 * - `<stream>-table-owners`: one key per table, its *claim*: `{worker, incarnation}`.
 *   A table with no claim is taken by creating the key; a table whose claim
 *   names a life that is over is taken by compare-and-set on the claim's
 *   revision. A claim naming a live incarnation belongs to that worker.
 *
 * A worker serves a table only while it holds the table's claim and trusts
 * its own life. A life that is over takes every table claimed in it with
 * it: the worker gives them up and begins a new life; its old claims then
 * belong to whoever takes them first, itself included. A worker that sees
 * one of its claims changed by anyone else (a watch on the claims) gives
 * that table up at once.
 *
 * The same watch keeps every claim in view, so a worker can find the tables
 * whose owner's life is over (`orphans`) and take them up itself: a table
 * whose bot or clock is due must not wait for someone to send it a command.
 * It also tells each worker how many tables every other life holds, so an
 * overloaded worker can hand some to one with fewer (`handOver`): a claim
 * rewritten, at the revision held, to name the other's life, which takes
 * the table up as soon as its watch shows it the claim.
 *
 * NATS does the agreeing; nothing here votes or elects. And the event log's
 * expected version stays the real fence: a worker that wrongly believes it
 * owns a table still cannot append over another's events.
 */
import type { KV, KvEntry } from '@nats-io/kv';
import type { NatsConnection } from '@nats-io/nats-core';
import { keepBucketInView } from './bucketWatch.js';
import { claimOf, orRaced, type Claim, type LeaseBuckets } from './leaseBuckets.js';
import { OtherLives } from './otherLives.js';
import { NoLease, type LifeLoad, type SharedOwnership, type TableOwnership, type TakeResult } from './tableOwnership.js';
import { WorkerLife, type StopOptions } from './workerLife.js';

/** How long a worker forwards a table it handed on to the new owner without reading its claim (a couple of commands). */
const HANDED_ON_REMEMBERED_MS = 1000;

export interface TableLeasesOptions {
  readonly buckets: LeaseBuckets;
  readonly workerId: string;
  /** How long a life outlives its last renewal; must be the lives bucket's max age. */
  readonly ttlMs: number;
  /** How often the life is renewed; a fifth of the TTL by default (at most 2 s), so several renewals may fail in a row. */
  readonly renewEveryMs?: number;
  /** Called once for each table this worker stops holding without releasing it. */
  readonly onLost: (tableId: string, why: string) => void;
  readonly log?: (line: string) => void;
  /**
   * The worker's connection, to answer on its life's subject and to ask on
   * others': a dead worker's life then ends within about a renewal, not 0.75
   * of the TTL. Without it, lives end by age alone.
   */
  readonly presence?: NatsConnection;
  /** Told of each renewal of the worker's life, whether it got through (for the metrics). */
  readonly onRenewal?: (ok: boolean) => void;
}

export class TableLeases implements TableOwnership, SharedOwnership {
  private readonly claims: KV;
  private readonly workerId: string;
  private readonly onLost: TableLeasesOptions['onLost'];
  private readonly log: (line: string) => void;
  private readonly others: OtherLives;
  /** This worker's life; absent only until `start` has begun it. */
  private own: WorkerLife | null = null;
  /** Tables claimed in the current life, with the claim's revision. */
  private readonly held = new Map<string, number>();
  private readonly taking = new Map<string, Promise<TakeResult>>();
  /** Tables being handed to another worker, and to whom: a take waits for the hand-off, then finds the new owner. */
  private readonly handing = new Map<string, { readonly done: Promise<boolean>; readonly to: string }>();
  /**
   * Tables handed on a moment ago, and to whom: the commands still sent
   * here before the gateway hears of the new owner go there without asking
   * NATS. For a moment only: should that worker die, its life is asked for
   * again soon.
   */
  private readonly handedOn = new Map<string, string>();
  private handedIn: (tableId: string) => void = () => undefined;
  /** Every table's claim as the watch last saw it: the whole bucket, kept current. */
  private readonly claimsSeen = new Map<string, Claim>();
  private watching: { stop(): void } | null = null;
  private stopped = false;

  private constructor(options: TableLeasesOptions) {
    this.claims = options.buckets.claims;
    this.workerId = options.workerId;
    this.onLost = options.onLost;
    this.log = options.log ?? (() => undefined);
    this.others = new OtherLives({ ...this.lifeOptions(options), workerId: options.workerId });
  }

  /** Watches the claims, then begins the worker's first life (waiting for NATS if need be). */
  static async start(options: TableLeasesOptions): Promise<TableLeases> {
    const leases = new TableLeases(options);
    await leases.watchClaims();
    await leases.others.watchLives();
    leases.own = await WorkerLife.begin({
      ...leases.lifeOptions(options),
      workerId: options.workerId,
      onEnded: (why) => leases.giveUpAll(why),
    });
    return leases;
  }

  private lifeOptions(options: TableLeasesOptions) {
    return {
      buckets: options.buckets,
      ttlMs: options.ttlMs,
      // At most every 2 s, however long the TTL: a dead worker's life is asked for once a renewal is late.
      renewEveryMs: options.renewEveryMs ?? Math.max(50, Math.min(2000, Math.floor(options.ttlMs / 5))),
      log: this.log,
      presence: options.presence ?? null,
      onRenewal: options.onRenewal,
    };
  }

  /** Whether this worker holds the table's claim in a life it trusts now (and may serve it). */
  holds(tableId: string): boolean {
    return this.held.has(tableId) && this.alive();
  }

  heldTables(): string[] {
    return this.alive() ? [...this.held.keys()] : [];
  }

  /**
   * Takes the table if nobody holds it, or its holder's life is gone (or
   * this worker already holds it); otherwise says who holds it. Rejects with
   * NoLease without a valid life, and when NATS cannot be asked.
   */
  take(tableId: string): Promise<TakeResult> {
    const handing = this.handing.get(tableId);
    // Handed, the owner is known without asking NATS: the command waiting for it goes on at once.
    if (handing !== undefined) return handing.done.then((handed) => (handed ? { taken: false, owner: handing.to } : this.take(tableId)));
    const incarnation = this.own?.trusted() ?? null;
    if (this.stopped || incarnation === null) return Promise.reject(new NoLease(this.workerId));
    if (this.held.has(tableId)) return Promise.resolve({ taken: true, fresh: false });
    const handedTo = this.handedOn.get(tableId);
    if (handedTo !== undefined) return Promise.resolve({ taken: false, owner: handedTo });
    let pending = this.taking.get(tableId);
    if (pending === undefined) {
      pending = this.tryTake(tableId, incarnation).finally(() => this.taking.delete(tableId));
      this.taking.set(tableId, pending);
    }
    return pending;
  }

  private async tryTake(tableId: string, incarnation: string): Promise<TakeResult> {
    const mine = JSON.stringify({ worker: this.workerId, incarnation } satisfies Claim);
    for (let attempt = 0; attempt < 3; attempt++) {
      const entry = await this.claims.get(tableId);
      const claim = claimOf(entry);
      let revision: number;
      if (entry === null || entry.operation !== 'PUT') {
        revision = await orRaced(this.claims.create(tableId, mine));
      } else if (claim === null) {
        // A value no worker wrote: nobody holds the table.
        revision = await orRaced(this.claims.update(tableId, mine, entry.revision));
      } else {
        if (claim.worker === this.workerId && claim.incarnation === incarnation) {
          revision = entry.revision;
        } else if (await this.others.isAlive(claim)) {
          return { taken: false, owner: claim.worker };
        } else {
          revision = await orRaced(this.claims.update(tableId, mine, entry.revision));
        }
      }
      if (revision === 0) continue; // another worker moved first: look again
      if (this.own?.current() !== incarnation) throw new NoLease(this.workerId); // the life ended while we were asking
      this.held.set(tableId, revision);
      return { taken: true, fresh: true };
    }
    const claim = claimOf(await this.claims.get(tableId));
    return { taken: false, owner: claim?.worker ?? 'nobody yet (the table is changing hands)' };
  }

  /**
   * Checks the table's claim now; if it is no longer this life's, the table
   * is given up at once. Never rejects: callers fire it and go on, and with
   * NATS away the fence on appends still holds until the next check.
   */
  async verify(tableId: string): Promise<void> {
    const revision = this.held.get(tableId);
    if (revision === undefined) return;
    let entry: KvEntry | null;
    try {
      entry = await this.claims.get(tableId);
    } catch (error) {
      this.log(`${this.workerId}: could not check its claim on ${tableId} (${(error as Error).message})`);
      return;
    }
    if (this.held.get(tableId) === revision && (entry === null || entry.revision !== revision)) {
      this.lose(tableId, 'its claim on the table was changed by someone else');
    }
  }

  /** Gives the table up, so another worker may take it at once. */
  async release(tableId: string): Promise<void> {
    const revision = this.held.get(tableId);
    if (revision === undefined) return;
    this.held.delete(tableId);
    try {
      await this.claims.delete(tableId, { previousSeq: revision });
    } catch {
      // Taken over already, or NATS is away: the claim dies with this life anyway.
    }
  }

  handOver(tableId: string, to: Claim, quiet: () => Promise<void>): Promise<boolean> {
    const revision = this.held.get(tableId);
    if (revision === undefined || !this.alive() || this.handing.has(tableId)) return Promise.resolve(false);
    this.held.delete(tableId);
    const done = (async () => {
      await quiet().catch(() => undefined);
      const claim = { worker: to.worker, incarnation: to.incarnation, handedBy: this.workerId } satisfies Claim;
      const written = await orRaced(this.claims.update(tableId, JSON.stringify(claim), revision)).catch(() => 0);
      // Seen at once, not when the watch brings it: the sweep must not take back a table handed on.
      if (written === 0) return false;
      this.claimsSeen.set(tableId, claim);
      this.handedOn.set(tableId, to.worker);
      setTimeout(() => this.handedOn.delete(tableId), HANDED_ON_REMEMBERED_MS).unref();
      return true;
    })().finally(() => this.handing.delete(tableId));
    this.handing.set(tableId, { done, to: to.worker });
    return done;
  }

  onHandedIn(listener: (tableId: string) => void): void {
    this.handedIn = listener;
  }

  liveLoads(): LifeLoad[] {
    const lives = this.others.onTime();
    const own = lives.find((life) => this.own?.names(life) === true);
    // A worker whose own life is late hands nothing: it may not be trusted to hold what it would hand.
    if (own === undefined) return [];
    const held = new Map<string, number>();
    for (const claim of this.claimsSeen.values()) {
      const key = `${claim.worker} ${claim.incarnation}`;
      held.set(key, (held.get(key) ?? 0) + 1);
    }
    const others = lives
      .filter((life) => life.worker !== this.workerId)
      .map((life) => ({ life, tables: held.get(`${life.worker} ${life.incarnation}`) ?? 0 }));
    // Its own count from what it holds: the watch may not have shown it its latest claims yet.
    return [{ life: own, tables: this.held.size }, ...others];
  }

  /** Stops renewing; with `endLife`, ends the life at once so every table may be taken now rather than after the TTL. */
  async stop(how: StopOptions): Promise<void> {
    this.stopped = true;
    this.watching?.stop();
    this.others.stopWatching();
    this.held.clear();
    await this.own?.stop(how);
  }

  async orphans(): Promise<string[]> {
    const byLife = new Map<string, { claim: Claim; tables: string[] }>();
    const mineUnheld: string[] = [];
    for (const [tableId, claim] of this.claimsSeen) {
      if (this.held.has(tableId)) continue;
      // Claimed in this very life but not held: a take whose answer was lost (a timeout) after it was stored.
      if (this.own?.names(claim) === true) {
        mineUnheld.push(tableId);
        continue;
      }
      const key = `${claim.worker} ${claim.incarnation}`;
      const life = byLife.get(key) ?? { claim, tables: [] };
      life.tables.push(tableId);
      byLife.set(key, life);
    }
    const orphans: string[] = mineUnheld;
    // One look per life, not per table: a thousand tables of one dead worker cost one read.
    for (const { claim, tables } of byLife.values()) {
      // A life that cannot be looked at now is left for the next look, not taken as dead.
      if (!(await this.others.isAlive(claim).catch(() => true))) orphans.push(...tables);
    }
    return orphans;
  }

  private alive(): boolean {
    return this.own?.trusted() != null;
  }

  /** Gives up every table: they are this life's, and it is over. */
  private giveUpAll(why: string): void {
    const tables = [...this.held.keys()];
    this.held.clear();
    this.log(`${this.workerId} lost its lease (${why}); giving up ${tables.length} tables`);
    for (const tableId of tables) this.onLost(tableId, why);
  }

  private lose(tableId: string, why: string): void {
    this.held.delete(tableId);
    this.onLost(tableId, why);
  }

  /**
   * Keeps every claim in view (bucketWatch.ts), gives up at once any table
   * whose claim anyone else changes, and takes any handed to this life.
   */
  private async watchClaims(): Promise<void> {
    this.watching = await keepBucketInView(this.claims, {
      what: 'the claims',
      log: (line) => this.log(`${this.workerId}: ${line}`),
      onOpen: () => this.claimsSeen.clear(),
      onEntry: (entry) => this.claimChanged(entry),
    });
  }

  private claimChanged(entry: KvEntry): void {
    const claim = claimOf(entry);
    if (claim !== null) this.claimsSeen.set(entry.key, claim);
    else this.claimsSeen.delete(entry.key);
    const revision = this.held.get(entry.key);
    const mine = claim !== null && this.own?.names(claim) === true;
    // A claim of this life written again (a take retried after its answer was lost) is still this worker's.
    if (revision !== undefined && entry.revision > revision && mine) this.held.set(entry.key, entry.revision);
    else if (revision === undefined && mine && claim?.handedBy !== undefined && !this.taking.has(entry.key) && !this.stopped) {
      // Handed to this life by another worker: held from its claim's revision, and taken up.
      this.held.set(entry.key, entry.revision);
      this.handedIn(entry.key);
    } else if (revision !== undefined && entry.revision > revision) {
      this.lose(entry.key, claim !== null ? `${claim.worker} took the table over` : 'its claim was removed or overwritten');
    }
  }
}
