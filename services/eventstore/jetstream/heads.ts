/**
 * What the store knows of each table's last message. Versions count a
 * table's events, stream sequences count every message of every table; an
 * append must name the stream sequence of the table's last message as its
 * expectation, so the store keeps the mapping as a head per table, learnt
 * from its own acks or from the stream leader.
 */
import type { JetStreamManager } from '@nats-io/jetstream';
import { subjectOfTable, type JetStreamLayout } from './layout.js';
import type { ServerRequests } from './serverRequests.js';
import { decodeStoredAppend, type DecodedAppend } from './wireFormat.js';

export interface Head {
  readonly version: number;
  /** The stream sequence of the table's last message; 0 for a table without one. */
  readonly streamSeq: number;
  /** How many messages (appends) the table's subject holds. */
  readonly appends: number;
  /** The table's status after its last message, as JSON text. */
  readonly statusJson: string | null;
  /** The `at` of the table's last event; '' for none. */
  readonly lastEventAt: string;
  /** The table was retired: its last message is a tombstone (version 0: it has no log), and it takes no appends. */
  readonly retired?: true;
}

export const EMPTY_HEAD: Head = { version: 0, streamSeq: 0, appends: 0, statusJson: null, lastEventAt: '' };

export class TableHeads {
  /** Only ever moved forward. */
  private readonly heads = new Map<string, Head>();
  private newestSeq: number;

  constructor(
    private readonly jsm: JetStreamManager,
    private readonly layout: JetStreamLayout,
    private readonly server: ServerRequests,
    lastSeqAtOpen: number,
  ) {
    this.newestSeq = lastSeqAtOpen;
  }

  /** The highest stream sequence this store has seen: at open, in acks, lookups and the feed. */
  get highestSeq(): number {
    return this.newestSeq;
  }

  known(tableId: string): Head | undefined {
    return this.heads.get(tableId);
  }

  learn(tableId: string, head: Head): void {
    const known = this.heads.get(tableId);
    if (known === undefined || head.streamSeq > known.streamSeq) this.heads.set(tableId, head);
    this.sawSeq(head.streamSeq);
  }

  sawSeq(seq: number): void {
    if (seq > this.newestSeq) this.newestSeq = seq;
  }

  /** After an append whose fate is unknown: the next one asks the stream first. */
  forget(tableId: string): void {
    this.heads.delete(tableId);
  }

  /** The table's last message, from the stream leader, so a process reads what any process has had acknowledged. */
  async lookup(tableId: string): Promise<{ head: Head; last: DecodedAppend | null }> {
    const message = await this.server.persist(() =>
      this.jsm.streams.getMessage(this.layout.streamName, { last_by_subj: subjectOfTable(this.layout, tableId) }),
    );
    if (message === null) return { head: EMPTY_HEAD, last: null };
    const last = decodeStoredAppend(message);
    const head: Head =
      last.retired === undefined
        ? {
            version: last.version,
            streamSeq: message.seq,
            appends: last.appends,
            statusJson: last.status === null ? null : JSON.stringify(last.status),
            lastEventAt: last.events[last.events.length - 1]?.at ?? '',
          }
        : { ...EMPTY_HEAD, streamSeq: message.seq, appends: last.appends, retired: true };
    this.learn(tableId, head);
    return { head, last };
  }
}
