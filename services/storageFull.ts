/**
 * A full disk is an answer, not a crash (issue 26, item 4). When the
 * service's storage is full (SQLite's SQLITE_FULL: the disk, or the
 * database's own cap, SUITORS_DB_MAX_MB; ENOSPC from the file system) a
 * write is undone whole, so nothing of it is written and nothing acknowledged
 * is lost; the client is answered 507 (refusals.ts, `storageFull`).
 *
 * Every write fails while the storage is full, thousands a second under
 * load: the log gets one line a minute at most, saying how many were refused
 * since the last, and one when a write succeeds again. The metrics
 * (`suitors_storage_full`, `suitors_storage_full_refusals_total`) read
 * this.
 */

/** What a full storage is told apart by, anywhere in an error's chain of causes. */
const FULL_CODES = new Set(['SQLITE_FULL', 'ENOSPC']);

/** Whether `error` (or an error it wraps) says the storage is full. */
export function isStorageFull(error: unknown): boolean {
  for (let cause = error, depth = 0; cause instanceof Error && depth < 8; cause = cause.cause, depth++) {
    if (FULL_CODES.has(String((cause as { code?: unknown }).code))) return true;
  }
  return false;
}

export const STORAGE_FULL_MESSAGE = "the service's storage is full; nothing was written";

/** The most often the log says the storage is full. */
const STORAGE_FULL_LOG_INTERVAL_MS = 60_000;

export interface StorageFullLog {
  error(fields: object, message: string): void;
  info(fields: object, message: string): void;
}

export class StorageFullNotices {
  private isFull = false;
  private refusals = 0;
  private sinceLastLine = 0;
  private loggedAt = -Infinity;

  constructor(
    private readonly log: StorageFullLog,
    private readonly now: () => number = Date.now,
  ) {}

  /** Whether the last write ended with the storage full (until one succeeds). */
  get full(): boolean {
    return this.isFull;
  }

  /** Writes refused because the storage was full, since the process started. */
  get refused(): number {
    return this.refusals;
  }

  /** A write refused because the storage is full (`where`: what was writing); logged once a minute at most. */
  refusedWrite(where: string): void {
    this.isFull = true;
    this.refusals++;
    this.sinceLastLine++;
    if (this.now() - this.loggedAt < STORAGE_FULL_LOG_INTERVAL_MS) return;
    this.log.error(
      { refusedSinceLastLine: this.sinceLastLine, refusedInAll: this.refusals, where },
      `${STORAGE_FULL_MESSAGE}: every write is refused (507) until space is freed; nothing acknowledged is lost`,
    );
    this.loggedAt = this.now();
    this.sinceLastLine = 0;
  }

  /** A write that succeeded: if the storage was full, it has room again, and the log says so once. */
  wrote(): void {
    if (!this.isFull) return;
    this.isFull = false;
    this.log.info(
      { refusedSinceLastLine: this.sinceLastLine, refusedInAll: this.refusals },
      "the service's storage has room again: writes succeed",
    );
    // The next time it fills is news, whenever it comes.
    this.loggedAt = -Infinity;
    this.sinceLastLine = 0;
  }
}
