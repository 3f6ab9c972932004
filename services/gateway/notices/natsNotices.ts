/**
 * A table's notices across gateways on NATS. Each gateway whose sockets
 * watch a table subscribes to that table's notice subject
 * (`<prefix>.<table>.notices`, core NATS: nothing is stored), so a notice
 * told through one gateway reaches the table's sockets on every gateway and
 * no gateway without them; the notice board (noticeBoard.ts) is a KV bucket
 * the gateways share, its entries expiring `keepMs` after their last write.
 * Only gateways may publish, hear or keep these (services/bus/natsPermissions.ts).
 */
import { Kvm, type KV } from '@nats-io/kv';
import type { NatsConnection } from '@nats-io/nats-core';
import { isWrongLastSequence } from '../../nats/natsErrors.js';
import type { TableSubjects } from '../../bus/subjects.js';
import type { NoticeRelay } from '../tableNotices.js';
import type { NoticeBoard } from './noticeBoard.js';

export interface NatsNoticeBoardOptions {
  /** The bucket (created when missing), e.g. `TABLE_EVENTS-table-notices`. */
  readonly bucket: string;
  readonly keepMs: number;
  /** 1 on one server, 3 on a cluster; an existing bucket keeps its own. */
  readonly replicas?: number;
}

export async function openNatsNoticeBoard(nc: NatsConnection, options: NatsNoticeBoardOptions): Promise<NoticeBoard> {
  // allow_direct off: a read goes to the bucket's leader, so a compare-and-set starts from the last write.
  const bucket: KV = await new Kvm(nc).create(options.bucket, {
    history: 1,
    ttl: options.keepMs,
    replicas: options.replicas ?? 1,
    allow_direct: false,
  });
  return {
    async read(key) {
      const entry = await bucket.get(key);
      return entry === null || entry.operation !== 'PUT' ? null : { value: entry.string(), revision: entry.revision };
    },
    async write(key, value, revision) {
      try {
        if (revision === null) await bucket.create(key, value);
        else await bucket.update(key, value, revision);
        return true;
      } catch (error) {
        if (isWrongLastSequence(error)) return false;
        throw error;
      }
    },
    async remove(key) {
      await bucket.delete(key);
    },
  };
}

export function natsNoticeRelay(
  nc: NatsConnection,
  subjects: TableSubjects,
  onError: (error: unknown, tableId: string) => void,
): NoticeRelay {
  return {
    publish(tableId, text) {
      try {
        nc.publish(subjects.notices(tableId), text);
      } catch (error) {
        onError(error, tableId);
      }
    },
    hear(tableId, onText) {
      const subscription = nc.subscribe(subjects.notices(tableId), {
        callback: (error, message) => (error === null ? onText(message.string()) : onError(error, tableId)),
      });
      return () => subscription.unsubscribe();
    },
  };
}
