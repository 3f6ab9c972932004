/**
 * What the gateways must agree on about a table's notices: the rematch as it
 * stands (whose answers count, when it expires, whether it started) and the
 * times each seat last chatted (its rate limit). On `npm start` one process
 * holds them; on NATS they are a KV bucket every gateway reads and writes
 * (natsNotices.ts). Each entry changes by compare-and-set, so two gateways
 * answering at once never both win: one retries on what the other wrote.
 * Entries are forgotten `keepMs` after their last write, so what a client
 * can leave here is bounded by the tables and seats it can reach.
 */

/**
 * How long the board keeps an entry after its last write: longer than a
 * rematch stays open (rematchRoutes.ts, 60 s), so it is still there to be
 * settled at its time, and than a seat's chat window (a minute).
 */
export const NOTICES_KEPT_MS = 120_000;

/** An entry and the revision a write must name to replace it. */
interface BoardEntry {
  readonly value: string;
  readonly revision: number;
}

export interface NoticeBoard {
  read(key: string): Promise<BoardEntry | null>;
  /** Writes `value` if the entry is still at `revision` (null: still absent); false when someone wrote first. */
  write(key: string, value: string, revision: number | null): Promise<boolean>;
  remove(key: string): Promise<void>;
}

/** How many times a change is tried again on what another writer wrote meanwhile, before it is refused. */
const ATTEMPTS = 8;

/**
 * Reads the entry, lets `change` decide its next value from what is there
 * (undefined: leave it as it is), and writes it by compare-and-set, again
 * from what is there should another writer have come first. Resolves to
 * what `change` returned last, with whether it was written.
 */
export async function changeEntry<T>(
  board: NoticeBoard,
  key: string,
  change: (current: string | null) => { readonly next?: string; readonly result: T },
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    const entry = await board.read(key);
    const { next, result } = change(entry?.value ?? null);
    if (next === undefined || (await board.write(key, next, entry?.revision ?? null))) return result;
    if (attempt >= ATTEMPTS) throw new Error(`the notice board entry ${key} kept changing under ${ATTEMPTS} attempts to write it`);
  }
}

/** The board of one process, its entries in the order of their last writes so the stale ones are found first. */
export function memoryNoticeBoard({ keepMs, now = Date.now }: { readonly keepMs: number; readonly now?: () => number }): NoticeBoard {
  const entries = new Map<string, { value: string; revision: number; writtenAt: number }>();
  let revisions = 0;
  const forgetStale = () => {
    const cutoff = now() - keepMs;
    for (const [key, entry] of entries) {
      if (entry.writtenAt > cutoff) break;
      entries.delete(key);
    }
  };
  return {
    async read(key) {
      forgetStale();
      const entry = entries.get(key);
      return entry === undefined ? null : { value: entry.value, revision: entry.revision };
    },
    async write(key, value, revision) {
      forgetStale();
      if ((entries.get(key)?.revision ?? null) !== revision) return false;
      entries.delete(key);
      entries.set(key, { value, revision: ++revisions, writtenAt: now() });
      return true;
    },
    async remove(key) {
      entries.delete(key);
    },
  };
}
