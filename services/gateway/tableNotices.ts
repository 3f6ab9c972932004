/**
 * What a table's sockets are told beside its views: news that is no game
 * event (a rematch proposed and answered, a move a bot made for a seat
 * whose time ran out).
 * None of it enters a table's log or record, and it reaches only the
 * sockets of that table on this gateway: a notice is sent to the sockets
 * watching the table it names, and to no one else. A standing notice (the
 * rematch as it stands) is also sent to each socket that opens while it
 * stands, so a reload or a reconnect does not miss it.
 */
import type { NoticeMessage } from './socketProtocol.js';

export interface NoticeListener {
  send(text: string): void;
}

export class TableNotices {
  private readonly byTable = new Map<string, Set<NoticeListener>>();
  private readonly standing = new Map<string, Map<NoticeMessage['type'], string>>();

  /** Adds a table's socket, sending it the notices that stand; the returned function removes it. */
  listen(tableId: string, listener: NoticeListener): () => void {
    const listeners = this.byTable.get(tableId) ?? new Set();
    listeners.add(listener);
    this.byTable.set(tableId, listeners);
    for (const text of this.standing.get(tableId)?.values() ?? []) listener.send(text);
    return () => {
      listeners.delete(listener);
      if (listeners.size === 0 && this.byTable.get(tableId) === listeners) this.byTable.delete(tableId);
    };
  }

  /** Whether any socket here listens to the table. */
  hears(tableId: string): boolean {
    return this.byTable.has(tableId);
  }

  /** Sends every socket of the table the notice. */
  tell(tableId: string, notice: NoticeMessage): void {
    this.send(tableId, JSON.stringify(notice));
  }

  /** Sends the notice, and keeps it for the sockets that open until it is replaced or withdrawn. */
  stand(tableId: string, notice: NoticeMessage): void {
    const text = JSON.stringify(notice);
    const kept = this.standing.get(tableId) ?? new Map<NoticeMessage['type'], string>();
    kept.set(notice.type, text);
    this.standing.set(tableId, kept);
    this.send(tableId, text);
  }

  /** Stops sending a standing notice of this kind to sockets that open. */
  withdraw(tableId: string, type: NoticeMessage['type']): void {
    const kept = this.standing.get(tableId);
    kept?.delete(type);
    if (kept?.size === 0) this.standing.delete(tableId);
  }

  private send(tableId: string, text: string): void {
    for (const listener of [...(this.byTable.get(tableId) ?? [])]) listener.send(text);
  }
}
