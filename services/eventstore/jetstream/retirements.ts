/**
 * Retiring a table on JetStream: a tombstone published as the table's last
 * message, expecting the message the caller's version names (so the server
 * refuses it if the table moved on), then the subject purged down to that
 * tombstone and the snapshot purged from its bucket. The tombstone holds the
 * record and what the table's last message said of it, so every process
 * finds a retired table retired, and the server refuses any append to it
 * (its expectation names a message that is no longer the last).
 *
 * The stream must allow purging: one made before tables could be retired
 * denies it, and JetStream cannot change that (README.md).
 */
import type { JetStreamManager } from '@nats-io/jetstream';
import type { KV } from '@nats-io/kv';
import type { TableQueues } from '../../tableQueues/tableQueues.js';
import { isWrongLastSequence } from '../../nats/natsErrors.js';
import { TableRetired, VersionConflict, type RetiredTable, type Retirement } from '../eventStore.js';
import { checkRetirement, checkTableId } from '../storeChecks.js';
import type { TableAppends } from './appends.js';
import type { TableHeads } from './heads.js';
import { subjectOfTable, tableToken, type JetStreamLayout } from './layout.js';
import type { ServerRequests } from './serverRequests.js';
import { checkFitsInMessage, tombstone } from './wireFormat.js';

export interface RetirementParts {
  readonly jsm: JetStreamManager;
  readonly snapshots: KV;
  readonly layout: JetStreamLayout;
  readonly server: ServerRequests;
  readonly heads: TableHeads;
  readonly appends: TableAppends;
  readonly queues: TableQueues;
  readonly maxPayload: number;
  /** Whether the stream allows purging (deny_purge off). */
  readonly mayPurge: boolean;
}

export class TableRetirements {
  constructor(private readonly parts: RetirementParts) {}

  /** Checks the retirement now (throwing what is wrong with it), then retires the table after its queued appends. */
  async retire(tableId: string, retirement: Retirement): Promise<void> {
    const recordJson = checkRetirement(tableId, retirement);
    const { layout, mayPurge, appends, queues } = this.parts;
    if (!mayPurge) {
      throw new Error(
        `stream ${layout.streamName} denies purging (it was made before tables could be retired), so no table of it can be retired; ` +
          'JetStream cannot change that setting of a stream: see docs/operations.md, "Retiring finished games"',
      );
    }
    await appends.settle(tableId);
    return queues.run(tableId, () => this.retireNow(tableId, retirement, recordJson));
  }

  async retired(tableId: string): Promise<RetiredTable | null> {
    checkTableId(tableId);
    const { last } = await this.parts.heads.lookup(tableId);
    return last?.retired === undefined ? null : { ...last.retired, tableId };
  }

  private async retireNow(tableId: string, retirement: Retirement, recordJson: string): Promise<void> {
    const { heads, server, layout, maxPayload, jsm, snapshots } = this.parts;
    const { expectedVersion } = retirement;
    const { head } = await heads.lookup(tableId);
    if (head.retired) throw new TableRetired(tableId);
    if (head.version !== expectedVersion) throw new VersionConflict(tableId, expectedVersion, head.version);
    const status = head.statusJson === null ? null : JSON.parse(head.statusJson);
    const kept = { version: head.version, lastEventAt: head.lastEventAt, status, retiredAt: retirement.at, recordJson };
    const { body, headers } = tombstone(kept, { appends: head.appends + 1, prev: head.streamSeq });
    checkFitsInMessage(body, maxPayload, `the record of table ${tableId}`, "a retired table's record must fit in");
    const subject = subjectOfTable(layout, tableId);
    let ack;
    try {
      // One id per expectation: a retried publish that was stored is recognised, not stored twice.
      ack = await server.publishForAck(
        subject,
        body,
        { lastSubjectSequence: head.streamSeq, msgID: `${tableToken(tableId)}/retire/${head.streamSeq}` },
        headers,
      );
    } catch (error) {
      if (!isWrongLastSequence(error)) throw error;
      const moved = (await heads.lookup(tableId)).head;
      throw moved.retired ? new TableRetired(tableId) : new VersionConflict(tableId, expectedVersion, moved.version);
    }
    heads.learn(tableId, { ...head, version: 0, streamSeq: ack.seq, appends: head.appends + 1, retired: true });
    await server.persist(() => jsm.streams.purge(layout.streamName, { filter: subject, keep: 1 }));
    await server.persist(() => snapshots.purge(tableToken(tableId)));
  }
}
