/**
 * What a table's sockets are told beside its views: news that is no game
 * event (a rematch proposed and answered, a phrase of quick chat, a move a
 * bot made for a seat whose time ran out).
 * None of it enters a table's log or record, and it reaches only the
 * sockets watching the table it names, on this gateway and, through the
 * relay (notices/natsNotices.ts), on every other gateway with sockets there.
 * What stands (the rematch as it stands) is also sent to each socket that
 * opens, read from where it is kept, so a reload or a reconnect does not
 * miss it.
 */
import type { NoticeMessage } from './socketProtocol.js';

export interface NoticeListener {
  send(text: string): void;
}

/** Carries a table's notices to the gateways whose sockets watch it, this one included. */
export interface NoticeRelay {
  publish(tableId: string, text: string): void;
  /** Hears the table's notices until the returned function is called. */
  hear(tableId: string, onText: (text: string) => void): () => void;
}

/** The notices that stand at a table now, for a socket that opens. */
export type StandingNotices = (tableId: string) => Promise<readonly NoticeMessage[]>;

/** The relay of one process: a notice told is a notice heard. */
function localRelay(): NoticeRelay {
  const hearers = new Map<string, (text: string) => void>();
  return {
    publish: (tableId, text) => hearers.get(tableId)?.(text),
    hear(tableId, onText) {
      hearers.set(tableId, onText);
      return () => hearers.delete(tableId);
    },
  };
}

export class TableNotices {
  private readonly byTable = new Map<string, { readonly listeners: Set<NoticeListener>; readonly stopHearing: () => void }>();
  private readonly standingSources: StandingNotices[] = [];

  constructor(private readonly relay: NoticeRelay = localRelay()) {}

  /** Adds a table's socket, sending it the notices that stand; the returned function removes it. */
  listen(tableId: string, listener: NoticeListener, onError: (error: unknown) => void = () => undefined): () => void {
    let heard = this.byTable.get(tableId);
    if (heard === undefined) {
      const listeners = new Set<NoticeListener>();
      heard = { listeners, stopHearing: this.relay.hear(tableId, (text) => this.deliver(listeners, text)) };
      this.byTable.set(tableId, heard);
    }
    const { listeners } = heard;
    listeners.add(listener);
    for (const standing of this.standingSources) {
      standing(tableId).then((notices) => {
        if (listeners.has(listener)) for (const notice of notices) listener.send(JSON.stringify(notice));
      }, onError);
    }
    return () => {
      listeners.delete(listener);
      if (listeners.size > 0 || this.byTable.get(tableId) !== heard) return;
      this.byTable.delete(tableId);
      heard.stopHearing();
    };
  }

  /** Where the notices that stand at a table are read from, for each socket that opens from now on. */
  standFrom(source: StandingNotices): void {
    this.standingSources.push(source);
  }

  /** Whether any socket here listens to the table. */
  hears(tableId: string): boolean {
    return this.byTable.has(tableId);
  }

  /** Sends every socket of the table, on every gateway, the notice. */
  tell(tableId: string, notice: NoticeMessage): void {
    this.relay.publish(tableId, JSON.stringify(notice));
  }

  /**
   * Sends the table's sockets on this gateway alone the notice: for news every
   * gateway learns by itself from the log (a turn that timed out), which
   * relayed would reach each socket once per gateway.
   */
  tellHere(tableId: string, notice: NoticeMessage): void {
    const heard = this.byTable.get(tableId);
    if (heard !== undefined) this.deliver(heard.listeners, JSON.stringify(notice));
  }

  private deliver(listeners: ReadonlySet<NoticeListener>, text: string): void {
    for (const listener of [...listeners]) listener.send(text);
  }
}
