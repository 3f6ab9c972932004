/**
 * Table ownership in JetStream KV, in two buckets, so that keeping a
 * thousand tables costs one renewal, not a thousand:
 *
 * - `<stream>-worker-leases`: one key per worker, its *life*. Taken by creating the
 *   key (create-if-absent), kept by updating it with the revision last
 *   written (compare-and-set) every fifth of the TTL, and over when the
 *   worker stops renewing: the others count it over 0.75 of the TTL after
 *   its last write, and the bucket's max age removes the key `ttlMs` after
 *   it. Each life has a fresh random incarnation, the key's value.
 * - `<stream>-table-owners`: one key per table, its *claim*: `{worker, incarnation}`.
 *   A table with no claim is taken by creating the key; a table whose claim
 *   names a life that is gone (the key missing, or holding another
 *   incarnation) is taken by compare-and-set on the claim's revision. A claim
 *   naming a live incarnation belongs to that worker.
 *
 * A worker serves a table only while it holds the table's claim and its own
 * life is valid: until 0.7 of `ttlMs` after it *sent* the last successful
 * renewal, which is before anyone else counts the life over. A worker that cannot renew in time gives up every table and
 * starts a new life; its old claims then belong to whoever takes them first,
 * itself included. A worker that sees one of its claims changed by anyone
 * else (a watch on the claims) gives that table up at once.
 *
 * The same watch keeps every claim in view, so a worker can find the tables
 * whose owner's life is gone (`orphans`) and take them up itself: a table
 * whose bot or clock is due must not wait for someone to send it a command.
 *
 * A worker that dies need not cost its tables most of a TTL, though: each
 * life answers on a subject of its own (`presence`). A life that has missed
 * a renewal is asked there, and when NATS answers that nobody listens (the
 * worker's connection is gone), it is ended at once by deleting its key at
 * the revision seen: a renewal that raced the delete makes the delete fail,
 * and a worker that comes back finds its life gone and gives up its tables
 * before serving any. A worker distrusts its own life from the moment it
 * loses its connection until a renewal gets through again, so it never
 * serves a table while others may count it gone.
 *
 * NATS does the agreeing; nothing here votes or elects. And the event log's
 * expected version stays the real fence: a worker that wrongly believes it
 * owns a table still cannot append over another's events.
 */
import { randomBytes } from 'node:crypto';
import { JetStreamApiCodes, JetStreamApiError } from '@nats-io/jetstream';
import { KvWatchInclude, type KV, type KvEntry } from '@nats-io/kv';
import { RequestError, type NatsConnection, type Subscription } from '@nats-io/nats-core';
import { lifeSubject, type LeaseBuckets } from './leaseBuckets.js';

export interface TableLeasesOptions {
  readonly buckets: LeaseBuckets;
  readonly workerId: string;
  /** How long a life outlives its last renewal; must be the lives bucket's max age. */
  readonly ttlMs: number;
  /** How often the life is renewed; a fifth of the TTL by default, so two renewals may fail in a row. */
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
}

/** `fresh`: the table was not this life's before, so it may have moved on since this worker last saw it. */
export type TakeResult = { readonly taken: true; readonly fresh: boolean } | { readonly taken: false; readonly owner: string };

interface Life {
  readonly incarnation: string;
  revision: number;
  /** This worker serves its tables until then (ms since the epoch) unless the life is renewed. */
  validUntil: number;
  /** The connection was lost since the last renewal that got through: others may be ending this life. */
  suspended: boolean;
}

interface Claim {
  readonly worker: string;
  readonly incarnation: string;
}

/**
 * The share of the TTL a worker trusts its life for after sending its last
 * successful renewal. Renewing every fifth of the TTL, a life outlasts
 * half a TTL of NATS trouble.
 */
const TRUSTED_SHARE = 0.7;
/**
 * The share of the TTL after a life's last renewal was stored at which the
 * other workers count it over. Its holder stopped trusting it earlier (at
 * TRUSTED_SHARE after *sending* that renewal), so the two never overlap;
 * what is left of the TTL is for finding the dead worker's tables and
 * taking them up, so a move due at the moment it died comes within the TTL.
 */
const OVER_SHARE = 0.75;
/**
 * How long a life found over is taken as over without asking again. Should
 * its worker renew it meanwhile after all, the tables taken from it in that
 * moment are theirs who took them: it sees its claims change and gives them up.
 */
const OVER_REMEMBERED_MS = 1000;
/** How soon a renewal that failed is tried again (a leader election lasts seconds; a renewal interval may be longer). */
const RETRY_RENEWAL_MS = 200;
/** How late a renewal may be before the life's worker is asked whether it is still connected. */
const PRESENCE_GRACE_MS = 500;
/** How long a presence question waits: an answer late or lost says nothing; only "no responders" says gone. */
const PRESENCE_TIMEOUT_MS = 500;

/** Thrown by `take` while the worker has no valid life (NATS unreachable, or a new life not yet begun). */
export class NoLease extends Error {
  constructor(workerId: string) {
    super(`worker ${workerId} has no valid lease on its life right now (it cannot reach NATS, or is starting a new one)`);
    this.name = 'NoLease';
  }
}

/** What a worker asks of table ownership; TableLeases is the real one. */
export interface TableOwnership {
  holds(tableId: string): boolean;
  heldTables(): string[];
  take(tableId: string): Promise<TakeResult>;
  verify(tableId: string): Promise<void>;
  release(tableId: string): Promise<void>;
  /** Tables claimed in a life that is over (the worker died or gave its life up): free for anyone to take. */
  orphans(): Promise<string[]>;
  stop(release: boolean): Promise<void>;
}

export class TableLeases implements TableOwnership {
  private readonly buckets: LeaseBuckets;
  private readonly lives: KV;
  private readonly claims: KV;
  private readonly workerId: string;
  private readonly ttlMs: number;
  private readonly onLost: TableLeasesOptions['onLost'];
  private readonly log: (line: string) => void;
  /** Tables claimed in the current life, with the claim's revision. */
  private readonly held = new Map<string, number>();
  private readonly taking = new Map<string, Promise<TakeResult>>();
  /** Lives found over, and when: a take soon after trusts the finding instead of asking again. */
  private readonly overSince = new Map<string, number>();
  /** Every table's claim as the watch last saw it: the whole bucket, kept current. */
  private readonly claimsSeen = new Map<string, Claim>();
  private readonly timer: NodeJS.Timeout;
  private readonly renewEveryMs: number;
  /** When the last renewal (or attempt at a life) was sent, and whether it worked. */
  private lastTry = { at: 0, ok: false };
  private life: Life | null = null;
  private renewing: Promise<void> | null = null;
  private watching: { stop(): void } | null = null;
  private readonly presence: NatsConnection | null;
  private answering: Subscription | null = null;
  private stopped = false;

  private constructor(options: TableLeasesOptions) {
    this.buckets = options.buckets;
    this.lives = options.buckets.lives;
    this.claims = options.buckets.claims;
    this.workerId = options.workerId;
    this.ttlMs = options.ttlMs;
    this.onLost = options.onLost;
    this.log = options.log ?? (() => undefined);
    this.renewEveryMs = options.renewEveryMs ?? Math.max(50, Math.floor(options.ttlMs / 5));
    this.presence = options.presence ?? null;
    this.timer = setInterval(() => void this.renewIfDue(), Math.min(RETRY_RENEWAL_MS, this.renewEveryMs));
  }

  /** Begins the worker's first life (waiting for NATS if need be) and watches its claims. */
  static async start(options: TableLeasesOptions): Promise<TableLeases> {
    const leases = new TableLeases(options);
    await leases.answerPresence();
    await leases.watchClaims();
    while (leases.life === null) {
      await leases.renew();
      if (leases.life === null) await new Promise((resolve) => setTimeout(resolve, 250));
    }
    return leases;
  }

  /** Whether this worker holds the table's claim in a valid life now (and may serve it). */
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
    if (this.stopped || !this.alive()) return Promise.reject(new NoLease(this.workerId));
    if (this.held.has(tableId)) return Promise.resolve({ taken: true, fresh: false });
    let pending = this.taking.get(tableId);
    if (pending === undefined) {
      pending = this.tryTake(tableId, this.life!).finally(() => this.taking.delete(tableId));
      this.taking.set(tableId, pending);
    }
    return pending;
  }

  private async tryTake(tableId: string, life: Life): Promise<TakeResult> {
    const mine = JSON.stringify({ worker: this.workerId, incarnation: life.incarnation } satisfies Claim);
    for (let attempt = 0; attempt < 3; attempt++) {
      const entry = await this.claims.get(tableId);
      let revision: number;
      if (entry === null || entry.operation !== 'PUT') {
        revision = await this.orRaced(this.claims.create(tableId, mine));
      } else {
        const claim = entry.json<Claim>();
        if (claim.worker === this.workerId && claim.incarnation === life.incarnation) {
          revision = entry.revision;
        } else if (await this.isAlive(claim)) {
          return { taken: false, owner: claim.worker };
        } else {
          revision = await this.orRaced(this.claims.update(tableId, mine, entry.revision));
        }
      }
      if (revision === 0) continue; // another worker moved first: look again
      if (this.life !== life) throw new NoLease(this.workerId); // the life ended while we were asking
      this.held.set(tableId, revision);
      return { taken: true, fresh: true };
    }
    const entry = await this.claims.get(tableId);
    return { taken: false, owner: entry?.operation === 'PUT' ? entry.json<Claim>().worker : 'nobody yet (the table is changing hands)' };
  }

  /** The write's revision, or 0 when another writer got there first. */
  private async orRaced(write: Promise<number>): Promise<number> {
    try {
      return await write;
    } catch (error) {
      if (isWrongRevision(error)) return 0;
      throw error;
    }
  }

  /**
   * Whether the claim's life is still on. A life not renewed for the TTL is
   * over even before the server gets round to removing its key (its expiry
   * runs on a timer of its own, a second or more late): the worker that held
   * it stopped trusting it earlier still, at 0.9 of the TTL after it sent
   * the renewal, which the server stored after that.
   */
  private async isAlive(claim: Claim): Promise<boolean> {
    const key = `${claim.worker} ${claim.incarnation}`;
    // A dead worker's hundreds of tables are taken one by one: one look at its life serves them all for a moment.
    if ((this.overSince.get(key) ?? -Infinity) > Date.now() - OVER_REMEMBERED_MS) return false;
    const life = await this.lives.get(claim.worker);
    const age = life === null ? Infinity : Date.now() - life.created.getTime();
    let alive = life !== null && life.operation === 'PUT' && life.string() === claim.incarnation && age < this.ttlMs * OVER_SHARE;
    if (alive && age > this.renewEveryMs + PRESENCE_GRACE_MS) alive = !(await this.endedForAbsence(claim.worker, life!.revision));
    if (alive) this.overSince.delete(key);
    else this.overSince.set(key, Date.now());
    return alive;
  }

  /**
   * Asks a life that missed a renewal whether its worker is still connected;
   * if NATS says nobody listens, ends the life by deleting its key at
   * `revision`. True when it was ended so (by this worker or just before by
   * another); false when the worker answered, or may have (a timeout, NATS
   * trouble), or renewed meanwhile.
   */
  private async endedForAbsence(workerId: string, revision: number): Promise<boolean> {
    if (this.presence === null) return false;
    try {
      await this.presence.request(lifeSubject(this.buckets, workerId), undefined, { timeout: PRESENCE_TIMEOUT_MS });
      return false;
    } catch (error) {
      if (!(error instanceof RequestError && error.isNoResponders())) return false;
    }
    try {
      await this.lives.delete(workerId, { previousSeq: revision });
      this.log(`${this.workerId}: ${workerId} missed its renewal and is not connected; its life is over`);
      return true;
    } catch (error) {
      if (!isWrongRevision(error)) return false;
      // Renewed, or ended by another worker a moment ago: only the second means gone.
      const now = await this.lives.get(workerId).catch(() => null);
      return now !== null && now.operation !== 'PUT';
    }
  }

  /**
   * Answers on this worker's life subject for as long as it runs, and
   * distrusts the life whenever the connection drops (others may be asking
   * then and hear nobody): the next renewal that gets through restores it,
   * or finds the life ended and gives up every table.
   */
  private async answerPresence(): Promise<void> {
    const nc = this.presence;
    if (nc === null) return;
    this.answering = nc.subscribe(lifeSubject(this.buckets, this.workerId), {
      callback: (_error, message) => {
        message.respond();
      },
    });
    await nc.flush();
    void (async () => {
      for await (const status of nc.status()) {
        if (status.type === 'disconnect' && this.life !== null) this.life.suspended = true;
        // Renew at the next tick rather than after a whole interval: until then the life is distrusted.
        if (status.type === 'reconnect') this.lastTry = { at: 0, ok: false };
      }
    })().catch(() => undefined);
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

  /** Stops renewing; with `release`, ends the life at once so every table may be taken now rather than after the TTL. */
  async stop(release: boolean): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    this.watching?.stop();
    this.answering?.unsubscribe();
    await this.renewing;
    const life = this.life;
    this.life = null;
    this.held.clear();
    if (release && life !== null) {
      try {
        await this.lives.delete(this.workerId, { previousSeq: life.revision });
      } catch {
        // NATS is away: the life expires by itself.
      }
    }
  }

  async orphans(): Promise<string[]> {
    const byLife = new Map<string, { claim: Claim; tables: string[] }>();
    const mineUnheld: string[] = [];
    for (const [tableId, claim] of this.claimsSeen) {
      if (this.held.has(tableId)) continue;
      // Claimed in this very life but not held: a take whose answer was lost (a timeout) after it was stored.
      if (this.isThisLife(claim)) {
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
      if (!(await this.isAlive(claim).catch(() => true))) orphans.push(...tables);
    }
    return orphans;
  }

  private isThisLife(claim: Claim): boolean {
    return claim.worker === this.workerId && claim.incarnation === this.life?.incarnation;
  }

  private alive(): boolean {
    return this.life !== null && !this.life.suspended && Date.now() < this.life.validUntil;
  }

  /** Renews every `renewEveryMs`, and soon again after a renewal that failed. */
  private renewIfDue(): Promise<void> {
    const wait = this.lastTry.ok ? this.renewEveryMs : RETRY_RENEWAL_MS;
    return Date.now() - this.lastTry.at >= wait ? this.renew() : Promise.resolve();
  }

  private renew(): Promise<void> {
    if (this.stopped) return Promise.resolve();
    this.renewing ??= (this.life === null ? this.beginLife() : this.renewLife(this.life)).finally(() => (this.renewing = null));
    return this.renewing;
  }

  private async beginLife(): Promise<void> {
    const incarnation = randomBytes(6).toString('hex');
    const sentAt = Date.now();
    this.lastTry = { at: sentAt, ok: false };
    try {
      let revision = await this.orRaced(this.lives.create(this.workerId, incarnation));
      if (revision === 0) {
        // A life of this worker's from before (it gave that one up): replace it.
        const entry = await this.lives.get(this.workerId);
        revision = await this.orRaced(this.lives.update(this.workerId, incarnation, entry?.revision ?? 0));
        if (revision === 0) return; // try again on the next tick
      }
      this.life = { incarnation, revision, validUntil: sentAt + this.ttlMs * TRUSTED_SHARE, suspended: false };
      this.lastTry = { at: sentAt, ok: true };
      this.log(`${this.workerId} began a life (incarnation ${incarnation})`);
    } catch {
      // NATS is away; try again on the next tick.
    }
  }

  private async renewLife(life: Life): Promise<void> {
    const sentAt = Date.now();
    this.lastTry = { at: sentAt, ok: false };
    try {
      life.revision = await this.lives.update(this.workerId, life.incarnation, life.revision);
      life.validUntil = sentAt + this.ttlMs * TRUSTED_SHARE;
      // Got through, so the life was not ended meanwhile (a delete would have changed its revision).
      life.suspended = false;
      this.lastTry = { at: sentAt, ok: true };
    } catch (error) {
      if (isWrongRevision(error)) {
        // A renewal whose answer was lost (a timeout) may have been stored all the same: the life is still ours.
        const entry = await this.lives.get(this.workerId).catch(() => null);
        if (entry !== null && entry.operation === 'PUT' && entry.string() === life.incarnation) life.revision = entry.revision;
        else this.endLife('its lease was taken or removed');
      } else if (Date.now() >= life.validUntil) {
        this.endLife(`its lease could not be renewed within ${this.ttlMs} ms (${(error as Error).message})`);
      }
    }
  }

  /** Gives up every table: they are this life's, and it is over. */
  private endLife(why: string): void {
    this.life = null;
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
   * Keeps every claim in view, and gives up at once any table whose claim
   * anyone else changes. A watch can end or fail when NATS nodes restart
   * (its consumer lost with them): it is then opened again, from the
   * bucket's last values, for as long as the worker runs.
   */
  private async watchClaims(): Promise<void> {
    const updates = await this.claims.watch({ include: KvWatchInclude.LastValue });
    this.watching = { stop: () => updates.stop() };
    this.claimsSeen.clear();
    void (async () => {
      for await (const entry of updates) {
        if (entry.operation === 'PUT') this.claimsSeen.set(entry.key, entry.json<Claim>());
        else this.claimsSeen.delete(entry.key);
        const revision = this.held.get(entry.key);
        const mine = entry.operation === 'PUT' && this.isThisLife(entry.json<Claim>());
        // A claim of this life written again (a take retried after its answer was lost) is still this worker's.
        if (revision !== undefined && entry.revision > revision && mine) this.held.set(entry.key, entry.revision);
        else if (revision !== undefined && entry.revision > revision) {
          this.lose(entry.key, entry.operation === 'PUT' ? `${entry.json<Claim>().worker} took the table over` : 'its claim was removed');
        }
      }
    })()
      .catch((error: unknown) => this.log(`${this.workerId}: watching the claims failed: ${(error as Error).message}`))
      .finally(() => {
        if (!this.stopped) void this.watchAgain();
      });
  }

  private async watchAgain(): Promise<void> {
    for (let attempt = 1; !this.stopped; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, Math.min(5000, 250 * attempt)));
      if (this.stopped) return;
      try {
        await this.watchClaims();
        this.log(`${this.workerId}: watching the claims again`);
        return;
      } catch {
        // NATS is away: try again.
      }
    }
  }
}

function isWrongRevision(error: unknown): boolean {
  return (
    error instanceof JetStreamApiError &&
    (error.code === JetStreamApiCodes.StreamWrongLastSequence || error.code === JetStreamApiCodes.StreamWrongLastSequenceUnknown)
  );
}
