/**
 * Appends: optimistic concurrency decided by the server. Each append is
 * published expecting the stream sequence of the table's last message
 * (from the table's head), so a stale writer is refused by the server and
 * gets the typed VersionConflict; two processes can never both append after
 * one version.
 *
 * Appends to one table run one after another in call order (the second
 * needs the stream sequence the first is given); appends to different
 * tables are published without waiting for each other's acks.
 *
 * An append that got no answer even after the retries (a leader election
 * that outlasted them) may still be stored later, by a publish that was on
 * its way: a table read before it lands would be a copy that the log then
 * overtakes. So such an append is in doubt until it is published again with
 * the same message id, before the table is next read or appended to: the
 * server then stores it, or answers that it has it, or refuses it because
 * the table moved on (so it can never land). Either way the log is settled.
 */
import { randomBytes } from 'node:crypto';
import type { TableQueues } from '../../tableQueues/tableQueues.js';
import { TableRetired, VersionConflict, type NewEvent, type TableStatus } from '../eventStore.js';
import { checkAppend, toJson } from '../storeChecks.js';
import { EMPTY_HEAD, type Head, type TableHeads } from './heads.js';
import { subjectOfTable, tableToken, type JetStreamLayout } from './layout.js';
import type { Expectation, ServerRequests } from './serverRequests.js';
import { isWrongLastSequence } from '../../nats/natsErrors.js';
import { appendBody, appendHeaders, checkFitsInMessage, eventsJsonOf } from './wireFormat.js';

/**
 * How often a refused publish is tried again while a fresh look finds the
 * table where the caller expects it (only this store's head was stale);
 * another writer racing us each time is reported as a conflict after that.
 */
const RETRIES_AFTER_REFUSAL = 3;

interface EncodedAppend {
  /** The message body with the table's status after the append, checked to fit in one message. */
  readonly body: (statusJson: string | null) => Uint8Array;
  readonly count: number;
  readonly expectedVersion: number;
  /** Undefined: the table keeps the status of its last message. */
  readonly statusJson: string | undefined;
  readonly lastEventAt: string;
}

/** A publish that got no answer: sent again as it was, with its message id, to learn its fate. */
interface PublishInDoubt {
  readonly subject: string;
  readonly payload: Uint8Array;
  readonly expected: Expectation;
  readonly headers: ReturnType<typeof appendHeaders>;
}

export class TableAppends {
  /** Message ids end with this store's random nonce and a counter: unique across processes without a random draw each. */
  private readonly msgIdNonce = `${randomBytes(9).toString('base64url')}.`;
  private msgIdCount = 0;
  /** Each table's append whose fate is unknown, until it is settled. */
  private readonly inDoubt = new Map<string, PublishInDoubt>();

  constructor(
    private readonly layout: JetStreamLayout,
    private readonly server: ServerRequests,
    private readonly heads: TableHeads,
    private readonly queues: TableQueues,
    private readonly maxPayload: number,
  ) {}

  /** Checks and encodes the append now (throwing what is wrong with it), then queues it after the table's earlier work. */
  append(tableId: string, events: readonly NewEvent[], expectedVersion: number, status?: TableStatus): Promise<number> {
    checkAppend(tableId, events, expectedVersion);
    const eventsJson = eventsJsonOf(tableId, events);
    const statusJson = status === undefined ? undefined : toJson(status, `status of table ${tableId}`);
    const body = (effectiveStatus: string | null) => {
      const bytes = appendBody(eventsJson, effectiveStatus);
      checkFitsInMessage(bytes, this.maxPayload, `append to table ${tableId}`, 'one append (all its events) must fit in');
      return bytes;
    };
    body(statusJson ?? null); // refuse an oversized append before it is queued
    const encoded: EncodedAppend = { body, count: events.length, expectedVersion, statusJson, lastEventAt: events[events.length - 1].at };
    return this.queues.run(tableId, () => this.publish(tableId, encoded));
  }

  /**
   * Settles the table's append in doubt, if there is one, in the table's
   * queue: afterwards the log holds it, or never will. Rejects (the table
   * stays in doubt) while NATS still cannot answer.
   */
  settle(tableId: string): Promise<void> {
    if (!this.inDoubt.has(tableId)) return Promise.resolve();
    return this.queues.run(tableId, () => this.settleNow(tableId));
  }

  private async settleNow(tableId: string): Promise<void> {
    const doubt = this.inDoubt.get(tableId);
    if (doubt === undefined) return;
    try {
      await this.server.publishForAck(doubt.subject, doubt.payload, doubt.expected, doubt.headers);
    } catch (error) {
      // Refused because the table moved on: its expectation can no longer be met, so it was not stored and never will be.
      if (!isWrongLastSequence(error)) throw error;
    }
    this.inDoubt.delete(tableId);
    this.heads.forget(tableId);
  }

  private async publish(tableId: string, append: EncodedAppend): Promise<number> {
    await this.settleNow(tableId);
    const { expectedVersion } = append;
    let head = this.heads.known(tableId);
    let fresh = false; // whether `head` was just read from the stream
    if (head === undefined) {
      // A table this store has not seen: expect it new when the caller does (the server says if it is not).
      if (expectedVersion === 0) head = EMPTY_HEAD;
      else [head, fresh] = [(await this.heads.lookup(tableId)).head, true];
    }
    for (let attempt = 0; ; attempt++) {
      if (head.retired) throw new TableRetired(tableId);
      if (head.version !== expectedVersion) {
        // What we knew may be behind another writer: ask before refusing.
        if (!fresh) [head, fresh] = [(await this.heads.lookup(tableId)).head, true];
        if (head.retired) throw new TableRetired(tableId);
        if (head.version !== expectedVersion) throw new VersionConflict(tableId, expectedVersion, head.version);
      }
      const effectiveStatus = append.statusJson ?? head.statusJson;
      const payload = append.body(effectiveStatus);
      const headers = appendHeaders({
        first: expectedVersion + 1,
        version: expectedVersion + append.count,
        appends: head.appends + 1,
        prev: head.streamSeq,
      });
      // One id per (append, expectation): retries of this very publish are deduplicated by the server.
      const expected = {
        msgID: `${tableToken(tableId)}/${expectedVersion}/${head.streamSeq}/${this.msgIdNonce}${(++this.msgIdCount).toString(36)}`,
        lastSubjectSequence: head.streamSeq,
      };
      let ack;
      const subject = subjectOfTable(this.layout, tableId);
      try {
        ack = await this.server.publishForAck(subject, payload, expected, headers);
      } catch (error) {
        if (!isWrongLastSequence(error)) {
          // No answer even after the retries: the append may or may not be stored, now or a little later.
          this.heads.forget(tableId);
          this.inDoubt.set(tableId, { subject, payload, expected, headers });
          throw error;
        }
        // Another writer moved the table on since we last looked. If it is still where the caller expects (our
        // knowledge was stale, the caller's was not), try again with a fresh expectation and a fresh id.
        [head, fresh] = [(await this.heads.lookup(tableId)).head, true];
        if (head.retired) throw new TableRetired(tableId);
        if (head.version !== expectedVersion || attempt >= RETRIES_AFTER_REFUSAL) {
          throw new VersionConflict(tableId, expectedVersion, head.version === expectedVersion ? null : head.version);
        }
        continue;
      }
      const appended: Head = {
        version: expectedVersion + append.count,
        streamSeq: ack.seq,
        appends: head.appends + 1,
        statusJson: effectiveStatus,
        lastEventAt: append.lastEventAt,
      };
      this.heads.learn(tableId, appended);
      return appended.version;
    }
  }
}
