/**
 * Reads without a consumer (on 2.9 a new consumer is slow on R3, and may be
 * placed on a dead node for over a minute after a node dies). A read asks
 * the stream leader for the table's last message, which fixes what it must
 * return, then fetches the older messages by direct get: any current
 * replica answers, rightly or "not found" (a replica behind, since replicas
 * hold a prefix of the stream and nothing is deleted), never wrongly; a
 * "not found" is asked of the leader instead.
 */
import type { JetStreamManager } from '@nats-io/jetstream';
import type { StoredEvent } from '../eventStore.js';
import type { TableHeads } from './heads.js';
import { subjectOfTable, type JetStreamLayout } from './layout.js';
import type { ServerRequests } from './serverRequests.js';
import { decodeStoredAppend, type DecodedAppend } from './wireFormat.js';

/** How long reads ask the leader only after a direct get failed outright (a stream without allow_direct, say). */
const DIRECT_OFF_MS = 10_000;
/** Anchors a long read fetches at once, so it is about `messages / 32` round trips deep. */
const MAX_ANCHORS = 32;

export class TableReads {
  private directOffUntil = 0;

  constructor(
    private readonly jsm: JetStreamManager,
    private readonly layout: JetStreamLayout,
    private readonly server: ServerRequests,
    private readonly heads: TableHeads,
    private readonly walkLimit: number,
  ) {}

  async read(tableId: string, afterVersion: number): Promise<StoredEvent[]> {
    const { head, last } = await this.heads.lookup(tableId);
    if (last === null || head.version <= afterVersion) return [];
    const events: StoredEvent[] = [];
    for (const decoded of await this.appendsAfter(tableId, last, afterVersion)) {
      decoded.events.forEach((event, index) => {
        const seq = decoded.first + index;
        if (seq > afterVersion) events.push({ seq, type: event.type, at: event.at, data: event.data });
      });
    }
    return events;
  }

  /**
   * One stored message by a direct get, or null when the replica that
   * answered does not hold it (yet). Callers know the message exists and
   * ask the leader on null.
   */
  private async direct(query: { seq: number } | { seq: number; next_by_subj: string }): Promise<DecodedAppend | null> {
    if (Date.now() < this.directOffUntil) return null;
    let message;
    try {
      message = await this.jsm.direct.getMessage(this.layout.streamName, query);
    } catch {
      this.directOffUntil = Date.now() + DIRECT_OFF_MS;
      return null;
    }
    return message === null ? null : decodeStoredAppend(message);
  }

  /** The message at stream sequence `seq` (known to exist): a direct get, else the leader. */
  private async getAppend(seq: number): Promise<DecodedAppend | null> {
    const found = await this.direct({ seq });
    if (found !== null) return found;
    const message = await this.server.persist(() => this.jsm.streams.getMessage(this.layout.streamName, { seq }));
    return message === null ? null : decodeStoredAppend(message);
  }

  /**
   * The table's messages holding events after `afterVersion`, oldest first:
   * walked back from `last` along the chain of previous messages; past
   * `walkLimit` messages, the older part is fetched forward by direct gets
   * in parallel, and walked back if that fails.
   */
  private async appendsAfter(tableId: string, last: DecodedAppend, afterVersion: number): Promise<DecodedAppend[]> {
    const newestFirst: DecodedAppend[] = [last];
    let oldest = last;
    let tryForward = true;
    // Messages the read needs, judging by the table's events per message so far: a long read goes forward at once.
    const wanted = afterVersion === 0 ? last.appends : ((last.version - afterVersion) * last.appends) / last.version;
    while (oldest.first > afterVersion + 1 && oldest.prev > 0) {
      if (tryForward && (newestFirst.length >= this.walkLimit || wanted > 2 * this.walkLimit)) {
        tryForward = false;
        const older = await this.appendsForward(subjectOfTable(this.layout, tableId), oldest, afterVersion).catch(() => null);
        if (older !== null) return [...older, ...newestFirst.reverse()];
      }
      const previous = await this.getAppend(oldest.prev);
      if (previous === null) {
        throw new Error(`table ${tableId}: stream message ${oldest.prev}, before ${oldest.streamSeq}, is missing`);
      }
      oldest = previous;
      newestFirst.push(oldest);
    }
    return newestFirst.reverse();
  }

  /**
   * The subject's messages before `before` (all of them, as the chain
   * says: `before.appends - 1`), those holding events after `afterVersion`:
   * the subject's first message, then anchors (`next_by_subj` from evenly
   * spaced stream sequences up to `before`) fetched at once, then the
   * messages between each anchor and the next walked back along
   * `Suitors-Prev` in parallel, so no message is fetched twice. Null when a
   * replica had not the messages yet or the result is not the chain
   * `before` ends (the caller then walks back by the leader), so nothing
   * acknowledged is missed.
   */
  private async appendsForward(subject: string, before: DecodedAppend, afterVersion: number): Promise<DecodedAppend[] | null> {
    const count = before.appends - 1;
    const untilSeq = before.prev;
    const first = await this.direct({ next_by_subj: subject, seq: 1 });
    if (first === null || first.appends !== 1) return null;
    const span = untilSeq - first.streamSeq;
    const segments = Math.max(1, Math.min(MAX_ANCHORS, Math.ceil(count / 4), span));
    const found = await Promise.all(
      Array.from({ length: segments - 1 }, (_, i) =>
        this.direct({ next_by_subj: subject, seq: first.streamSeq + 1 + Math.floor(((i + 1) * span) / segments) }),
      ),
    );
    if (found.some((anchor) => anchor === null)) return null; // a replica behind: the message at untilSeq exists
    const anchors = [first];
    for (const anchor of found as DecodedAppend[]) {
      if (anchor.streamSeq > untilSeq) break;
      if (anchor.streamSeq > anchors[anchors.length - 1].streamSeq) anchors.push(anchor);
    }
    anchors.push(before);
    let failed = false;
    // Between anchors[i] and anchors[i + 1]: walked back from the later one, the later one included (but not `before`).
    const parts = await Promise.all(
      anchors.slice(1).map(async (later, i) => {
        const earlier = anchors[i];
        const part: DecodedAppend[] = later === before ? [] : [later];
        let at = later;
        while (!failed && at.prev > earlier.streamSeq) {
          const previous = await this.direct({ seq: at.prev });
          if (previous === null) {
            failed = true;
            break;
          }
          part.push(previous);
          at = previous;
        }
        if (at.prev !== earlier.streamSeq) failed = true;
        return part.reverse();
      }),
    );
    if (failed) return null;
    const all = [first, ...parts.flat()];
    return isChainEndingAt(all, count, untilSeq) ? all.filter((message) => message.version > afterVersion) : null;
  }
}

/** Whether `messages` are a table's first `count` messages, each naming the one before it, the last at `untilSeq`. */
function isChainEndingAt(messages: readonly DecodedAppend[], count: number, untilSeq: number): boolean {
  if (messages.length !== count) return false;
  let prevSeq = 0;
  for (const [index, message] of messages.entries()) {
    if (message.appends !== index + 1 || message.prev !== prevSeq) return false;
    prevSeq = message.streamSeq;
  }
  return prevSeq === untilSeq;
}
