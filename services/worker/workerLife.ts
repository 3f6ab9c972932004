/**
 * A worker's own life: its key in the lives bucket, taken by creating it,
 * kept by updating it at the revision last written every `renewEveryMs`
 * (and soon again after a renewal fails: a leader election lasts seconds),
 * over when the worker stops renewing. Each life has a fresh random
 * incarnation, the key's value; the worker's claims name it.
 *
 * The worker trusts its life until TRUSTED_SHARE of the TTL after it *sent*
 * its last successful renewal, which is before any other worker counts the
 * life over (otherLives.ts), and not at all from a dropped connection until
 * a renewal gets through again, unless the connection came back before the
 * life was late for a renewal: while it was away others may have found
 * nobody answering on its presence subject and ended the life. A life found
 * ended, or not renewed in time, is over: the worker is told (`onEnded`),
 * gives up every table, and begins a new life.
 */
import { randomBytes } from 'node:crypto';
import type { NatsConnection, Subscription } from '@nats-io/nats-core';
import type { KV } from '@nats-io/kv';
import { isWrongLastSequence } from '../nats/natsErrors.js';
import { lifeSubject, orRaced, PRESENCE_GRACE_MS, type Claim, type LeaseBuckets } from './leaseBuckets.js';

/**
 * The share of the TTL a worker trusts its life for after sending its last
 * successful renewal. Renewing every fifth of the TTL, a life outlasts
 * half a TTL of NATS trouble.
 */
/**
 * How a worker stops keeping its life: `endLife` deletes it at once (a
 * stop that says goodbye: its tables are free now); without, the life
 * expires after the TTL, as a dead worker's does.
 */
export interface StopOptions {
  readonly endLife: boolean;
}

const TRUSTED_SHARE = 0.7;
/** How soon a renewal that failed is tried again (a leader election lasts seconds; a renewal interval may be longer). */
const RETRY_RENEWAL_MS = 200;

interface Life {
  readonly incarnation: string;
  revision: number;
  /** When the last renewal that got through was sent (ms since the epoch). */
  renewedAt: number;
  /** The worker serves its tables until then (ms since the epoch) unless the life is renewed. */
  validUntil: number;
  /** The connection was lost since the last renewal that got through: others may be ending this life. */
  suspended: boolean;
}

export interface WorkerLifeOptions {
  readonly buckets: LeaseBuckets;
  readonly workerId: string;
  readonly ttlMs: number;
  readonly renewEveryMs: number;
  /** Told when a life is over: every table claimed in it must be given up. */
  readonly onEnded: (why: string) => void;
  readonly log: (line: string) => void;
  /** The worker's connection: the life answers on its presence subject, and is distrusted while it is down. */
  readonly presence: NatsConnection | null;
  /** Told of each renewal of the life, whether it got through (for the metrics). */
  readonly onRenewal?: (ok: boolean) => void;
}

export class WorkerLife {
  private readonly lives: KV;
  private readonly timer: NodeJS.Timeout;
  /** When the last renewal (or attempt at a life) was sent, and whether it worked. */
  private lastTry = { at: 0, ok: false };
  private life: Life | null = null;
  private renewing: Promise<void> | null = null;
  private answering: Subscription | null = null;
  private stopped = false;

  private constructor(private readonly options: WorkerLifeOptions) {
    this.lives = options.buckets.lives;
    this.timer = setInterval(() => void this.renewIfDue(), Math.min(RETRY_RENEWAL_MS, options.renewEveryMs));
  }

  /** Answers on the presence subject, then begins a life, waiting for NATS if need be. */
  static async begin(options: WorkerLifeOptions): Promise<WorkerLife> {
    const own = new WorkerLife(options);
    await own.answerPresence();
    while (own.life === null) {
      await own.renew();
      if (own.life === null) await new Promise((resolve) => setTimeout(resolve, 250));
    }
    return own;
  }

  /** The incarnation of the life the worker may serve in now; null while it has none it may trust. */
  trusted(): string | null {
    const life = this.life;
    return life !== null && !life.suspended && Date.now() < life.validUntil ? life.incarnation : null;
  }

  /** The incarnation of the worker's current life, trusted or not; null between lives. */
  current(): string | null {
    return this.life?.incarnation ?? null;
  }

  /** Whether the claim names this worker's current life. */
  names(claim: Claim): boolean {
    return claim.worker === this.options.workerId && claim.incarnation === this.life?.incarnation;
  }

  /** Stops renewing; with `endLife`, ends the life at once so every table may be taken now rather than after the TTL. */
  async stop({ endLife }: StopOptions): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    this.answering?.unsubscribe();
    await this.renewing;
    const life = this.life;
    this.life = null;
    if (endLife && life !== null) {
      try {
        await this.lives.delete(this.options.workerId, { previousSeq: life.revision });
      } catch {
        // NATS is away: the life expires by itself.
      }
    }
  }

  /**
   * Answers on this worker's life subject for as long as it runs, and
   * distrusts the life whenever the connection drops (others may be asking
   * then and hear nobody): the next renewal that gets through restores it,
   * or finds the life ended.
   */
  private async answerPresence(): Promise<void> {
    const nc = this.options.presence;
    if (nc === null) return;
    this.answering = nc.subscribe(lifeSubject(this.options.buckets, this.options.workerId), {
      callback: (_error, message) => {
        message.respond();
      },
    });
    await nc.flush();
    void (async () => {
      for await (const status of nc.status()) {
        const life = this.life;
        if (status.type === 'disconnect' && life !== null) life.suspended = true;
        if (status.type === 'reconnect') {
          // Back before the life was late for a renewal: nobody can have asked for it, let alone ended it.
          if (life !== null && Date.now() - life.renewedAt < this.options.renewEveryMs + PRESENCE_GRACE_MS) life.suspended = false;
          // Renew at the next tick rather than after a whole interval: a distrusted life waits for it.
          this.lastTry = { at: 0, ok: false };
        }
      }
    })().catch(() => undefined);
  }

  /** Renews every `renewEveryMs`, and soon again after a renewal that failed. */
  private renewIfDue(): Promise<void> {
    const wait = this.lastTry.ok ? this.options.renewEveryMs : RETRY_RENEWAL_MS;
    return Date.now() - this.lastTry.at >= wait ? this.renew() : Promise.resolve();
  }

  private renew(): Promise<void> {
    if (this.stopped) return Promise.resolve();
    this.renewing ??= (this.life === null ? this.beginLife() : this.renewLife(this.life)).finally(() => (this.renewing = null));
    return this.renewing;
  }

  private async beginLife(): Promise<void> {
    const { workerId, ttlMs } = this.options;
    const incarnation = randomBytes(6).toString('hex');
    const sentAt = Date.now();
    this.lastTry = { at: sentAt, ok: false };
    try {
      let revision = await orRaced(this.lives.create(workerId, incarnation));
      if (revision === 0) {
        // A life of this worker's from before (it gave that one up): replace it.
        const entry = await this.lives.get(workerId);
        revision = await orRaced(this.lives.update(workerId, incarnation, entry?.revision ?? 0));
        if (revision === 0) return; // try again on the next tick
      }
      this.life = { incarnation, revision, renewedAt: sentAt, validUntil: sentAt + ttlMs * TRUSTED_SHARE, suspended: false };
      this.lastTry = { at: sentAt, ok: true };
      this.options.log(`${workerId} began a life (incarnation ${incarnation})`);
    } catch {
      // NATS is away; try again on the next tick.
    }
  }

  private async renewLife(life: Life): Promise<void> {
    const { workerId, ttlMs } = this.options;
    const sentAt = Date.now();
    this.lastTry = { at: sentAt, ok: false };
    try {
      life.revision = await this.lives.update(workerId, life.incarnation, life.revision);
      life.renewedAt = sentAt;
      life.validUntil = sentAt + ttlMs * TRUSTED_SHARE;
      // Got through, so the life was not ended meanwhile (a delete would have changed its revision).
      life.suspended = false;
      this.lastTry = { at: sentAt, ok: true };
      this.options.onRenewal?.(true);
    } catch (error) {
      this.options.onRenewal?.(false);
      if (isWrongLastSequence(error)) {
        // A renewal whose answer was lost (a timeout) may have been stored all the same: the life is still ours.
        const entry = await this.lives.get(workerId).catch(() => null);
        if (entry !== null && entry.operation === 'PUT' && entry.string() === life.incarnation) life.revision = entry.revision;
        else this.end('its lease was taken or removed');
      } else if (Date.now() >= life.validUntil) {
        this.end(`its lease could not be renewed within ${ttlMs} ms (${(error as Error).message})`);
      }
    }
  }

  private end(why: string): void {
    this.life = null;
    this.options.onEnded(why);
  }
}
