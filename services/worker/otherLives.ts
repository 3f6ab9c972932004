/**
 * How a worker judges the lives its claims bucket names: whether a table
 * claimed in a life still belongs to that life's worker, or is free to take.
 *
 * A life is over once its key is gone or holds another incarnation, or once
 * it has not been renewed for OVER_SHARE of the TTL (judged by the time the
 * server stored the renewal, not by waiting for the server's expiry timer,
 * which runs a second or more late): its worker stopped trusting it earlier
 * still, at TRUSTED_SHARE of the TTL after *sending* that renewal.
 *
 * A dead worker need not cost its tables that long, though. A life that has
 * missed a renewal is asked on its presence subject; when NATS answers that
 * nobody listens (the worker's connection is gone), the life is ended at
 * once by deleting its key at the revision seen: a renewal that raced the
 * delete makes the delete fail, and a worker that comes back finds its life
 * gone before it serves a table (workerLife.ts).
 */
import type { NatsConnection } from '@nats-io/nats-core';
import { isNoResponders, isWrongLastSequence } from '../nats/natsErrors.js';
import type { KV } from '@nats-io/kv';
import { keepBucketInView } from './bucketWatch.js';
import { lifeSubject, PRESENCE_GRACE_MS, type Claim, type LeaseBuckets } from './leaseBuckets.js';

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
/** How long a presence question waits: an answer late or lost says nothing; only "no responders" says gone. */
const PRESENCE_TIMEOUT_MS = 500;
/**
 * How long nobody must have answered for a life before it is ended: a
 * worker whose NATS node died is away while it reconnects to another, for
 * well under this; a killed one stays away.
 */
const ABSENT_FOR_MS = 1000;

export interface OtherLivesOptions {
  readonly buckets: LeaseBuckets;
  /** Who is judging, for the log. */
  readonly workerId: string;
  readonly ttlMs: number;
  /** How often lives are renewed (every worker renews alike). */
  readonly renewEveryMs: number;
  readonly log: (line: string) => void;
  /** The connection to ask on; without it, lives end by age alone. */
  readonly presence: NatsConnection | null;
}

export class OtherLives {
  private readonly lives: KV;
  /** Lives found over, and when: a take soon after trusts the finding instead of asking again. */
  private readonly overSince = new Map<string, number>();
  /** Workers nobody answered for: since when, and when that was last found (an old finding starts again). */
  private readonly absent = new Map<string, { since: number; lastFound: number }>();
  /** Every life as the lives bucket's watch last showed it, and when the server stored its last renewal. */
  private readonly livesSeen = new Map<string, { incarnation: string; storedAt: number }>();
  private watching: { stop(): void } | null = null;

  constructor(private readonly options: OtherLivesOptions) {
    this.lives = options.buckets.lives;
  }

  /** Whether the claim's life is still on. Rejects when NATS cannot be asked. */
  async isAlive(claim: Claim): Promise<boolean> {
    const key = `${claim.worker} ${claim.incarnation}`;
    // A dead worker's hundreds of tables are taken one by one: one look at its life serves them all for a moment.
    if ((this.overSince.get(key) ?? -Infinity) > Date.now() - OVER_REMEMBERED_MS) return false;
    const life = await this.lives.get(claim.worker);
    const age = life === null ? Infinity : Date.now() - life.created.getTime();
    let alive = life !== null && life.operation === 'PUT' && life.string() === claim.incarnation && age < this.options.ttlMs * OVER_SHARE;
    if (alive && age > this.options.renewEveryMs + PRESENCE_GRACE_MS) alive = !(await this.endedForAbsence(claim.worker, life!.revision));
    else if (!alive) this.absent.delete(claim.worker); // over by itself: nothing more to watch for
    if (alive) this.overSince.delete(key);
    else this.overSince.set(key, Date.now());
    return alive;
  }

  /** Keeps every life in view (bucketWatch.ts), for `onTime`; rejects when the watch cannot be opened. */
  async watchLives(): Promise<void> {
    this.watching = await keepBucketInView(this.lives, {
      what: 'the lives',
      log: (line) => this.options.log(`${this.options.workerId}: ${line}`),
      onOpen: () => this.livesSeen.clear(),
      onEntry: (entry) => {
        if (entry.operation === 'PUT') this.livesSeen.set(entry.key, { incarnation: entry.string(), storedAt: entry.created.getTime() });
        else this.livesSeen.delete(entry.key);
      },
    });
  }

  stopWatching(): void {
    this.watching?.stop();
  }

  /**
   * The lives renewed on time now, the judge's own included: where a table
   * may be handed (rebalancing.ts). A life late for a renewal is left out,
   * though it may not be over: a table is not handed to a worker in doubt.
   */
  onTime(): Claim[] {
    const lateBefore = Date.now() - this.options.renewEveryMs - PRESENCE_GRACE_MS;
    const lives: Claim[] = [];
    for (const [worker, { incarnation, storedAt }] of this.livesSeen) if (storedAt >= lateBefore) lives.push({ worker, incarnation });
    return lives;
  }

  /**
   * Asks a life that missed a renewal whether its worker is still connected;
   * if NATS has said nobody listens for ABSENT_FOR_MS, ends the life by
   * deleting its key at `revision`. True when it was ended so (by this worker
   * or just before by another); false when the worker answered, or may have
   * (a timeout, NATS trouble), or renewed meanwhile, or has been away only
   * a moment.
   */
  private async endedForAbsence(workerId: string, revision: number): Promise<boolean> {
    const { presence, buckets, log } = this.options;
    if (presence === null) return false;
    try {
      await presence.request(lifeSubject(buckets, workerId), undefined, { timeout: PRESENCE_TIMEOUT_MS });
      this.absent.delete(workerId);
      return false;
    } catch (error) {
      if (!isNoResponders(error)) return false;
    }
    const now = Date.now();
    const before = this.absent.get(workerId);
    // Away all along only if it was found away lately too; a finding from long ago says nothing of the time between.
    const since = before !== undefined && now - before.lastFound < ABSENT_FOR_MS ? before.since : now;
    this.absent.set(workerId, { since, lastFound: now });
    if (now - since < ABSENT_FOR_MS) return false;
    this.absent.delete(workerId);
    try {
      await this.lives.delete(workerId, { previousSeq: revision });
      log(`${this.options.workerId}: ${workerId} missed its renewal and is not connected; its life is over`);
      return true;
    } catch (error) {
      if (!isWrongLastSequence(error)) return false;
      // Renewed, or ended by another worker a moment ago: only the second means gone.
      const now = await this.lives.get(workerId).catch(() => null);
      return now !== null && now.operation !== 'PUT';
    }
  }
}
