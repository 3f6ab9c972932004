/**
 * The sockets watching each table. Every change is sent to each of them as
 * the viewer's own view, tagged with the version it shows; a socket is never
 * sent a version it already has, so a client resuming from the last version
 * it saw gets no duplicate. Each viewer's view of a version is built and
 * serialised once for every socket here (changeViews.ts), whichever path the
 * change came by: this gateway's feed, the log, or a socket's first view.
 */
import type { Seat } from '../../machines/rules/trick.js';
import { seatHeldBy } from '../../machines/table/context.js';
import type { Viewer } from '../../machines/view.js';
import type { StoredEvent } from '../eventstore/eventStore.js';
import { ChangeViews } from './changeViews.js';
import { SEAT_CHANGED_HANDS, type ViewsSent } from './socketProtocol.js';
import type { TableChange } from './tableFeed.js';

export interface Watcher {
  readonly viewer: Viewer;
  /** A seat's socket: the hash of the token it was opened with, which must still hold the seat for each view. */
  readonly holder?: string;
  /** The last version this socket was sent (or told it has); only later ones are sent. */
  lastVersion: number;
  /** Whole views, or what changed since the version it holds (docs/api.md, `views=`). */
  readonly views?: ViewsSent;
  send(text: string): void;
  close(code: number, reason: string): void;
}

export class TableWatchers {
  private readonly byTable = new Map<string, Set<Watcher>>();
  /** The views of each watched table's latest change, kept while a socket watches it. */
  private readonly latest = new Map<string, ChangeViews>();

  get count(): number {
    let count = 0;
    for (const watchers of this.byTable.values()) count += watchers.size;
    return count;
  }

  /** Whether any socket here watches the table. */
  watches(tableId: string): boolean {
    return this.byTable.has(tableId);
  }

  /** Whether a seat's socket (one opened with its token) watches the table here: a player is there now. */
  seatWatches(tableId: string): boolean {
    for (const watcher of this.byTable.get(tableId) ?? []) if (watcher.holder !== undefined) return true;
    return false;
  }

  /** Whether a socket watching the table has not been sent `version` yet. */
  lacks(tableId: string, version: number): boolean {
    for (const watcher of this.byTable.get(tableId) ?? []) if (watcher.lastVersion < version) return true;
    return false;
  }

  /** Adds a watcher; the returned function removes it. */
  watch(tableId: string, watcher: Watcher): () => void {
    const watchers = this.byTable.get(tableId) ?? new Set();
    watchers.add(watcher);
    this.byTable.set(tableId, watchers);
    return () => {
      watchers.delete(watcher);
      if (watchers.size === 0 && this.byTable.get(tableId) === watchers) {
        this.byTable.delete(tableId);
        this.latest.delete(tableId);
      }
    };
  }

  /**
   * The views of the change: those kept for its version if there are, else
   * new ones, kept while the table is watched. New views of the version after
   * the kept ones may be sent as changes from them, until publish is done.
   */
  viewsOf(change: TableChange): ChangeViews {
    const kept = this.latest.get(change.tableId);
    if (kept !== undefined && kept.version === change.version) return kept;
    const later = kept === undefined || kept.version < change.version;
    const views = new ChangeViews(change, later ? kept : undefined);
    if (this.byTable.has(change.tableId) && later) this.latest.set(change.tableId, views);
    return views;
  }

  /** Sends one watcher the change, unless it already has that version or a later one. */
  deliver(change: TableChange, watcher: Watcher, views = this.viewsOf(change)): void {
    if (change.version <= watcher.lastVersion) return;
    // A seat that changed hands before this socket was listed here escaped dismissSeat: its view is someone else's now.
    if (
      typeof watcher.viewer === 'number' &&
      watcher.holder !== undefined &&
      !seatHeldBy(change.snapshot.context, watcher.viewer, watcher.holder)
    ) {
      const occupant = change.snapshot.context.occupants[watcher.viewer];
      watcher.close(
        SEAT_CHANGED_HANDS,
        occupant === null || occupant.bot ? `seat ${watcher.viewer} was left` : `seat ${watcher.viewer} changed hands`,
      );
      return;
    }
    const held = watcher.lastVersion;
    watcher.lastVersion = change.version;
    watcher.send(watcher.views === 'changes' ? views.messageAfter(watcher.viewer, held) : views.message(watcher.viewer));
  }

  publish(change: TableChange): void {
    const watchers = this.byTable.get(change.tableId);
    if (watchers === undefined) return;
    const views = this.viewsOf(change);
    for (const watcher of [...watchers]) this.deliver(change, watcher, views);
    // Every socket here now has this version or a later one: the version before is no base of anything more.
    views.forgetPrevious();
  }

  /**
   * Closes the sockets of a seat whose player left or was replaced: from
   * now on that seat's view is someone else's.
   */
  dismissSeat(tableId: string, seat: Seat, code: number, reason: string): void {
    for (const watcher of [...(this.byTable.get(tableId) ?? [])]) {
      if (watcher.viewer === seat) watcher.close(code, reason);
    }
  }

  closeAll(code: number, reason: string): void {
    for (const watchers of [...this.byTable.values()]) for (const watcher of [...watchers]) watcher.close(code, reason);
  }
}

/**
 * Sockets here see the changes made elsewhere too: the moves of the tables'
 * own bots and clocks (made by the tables' owner) and, on NATS, those made
 * through other gateways. `changedAnywhere` hears every appended event, this
 * gateway's own included, and the versions sockets already have are skipped.
 * Events arriving together are sent as one view, of the table as it stands.
 * A seat left elsewhere has its sockets here closed at once, before any
 * later view: they hold the old player's token.
 */
export function relayChangesMadeElsewhere(
  changedAnywhere: (onChange: (tableId: string, event: StoredEvent) => void) => () => void,
  watchers: TableWatchers,
  current: (tableId: string) => Promise<TableChange>,
  onError: (error: unknown, tableId: string) => void,
): () => void {
  /** Tables with a view to send at the next turn of the event loop, and the version it must show. */
  const due = new Map<string, number>();
  let stopped = false;
  const stopHearing = changedAnywhere((tableId, event) => {
    if (stopped || !watchers.watches(tableId)) return;
    if (event.type === 'seat.left') {
      const { seat } = event.data as { seat: Seat };
      watchers.dismissSeat(tableId, seat, SEAT_CHANGED_HANDS, `seat ${seat} was left`);
    }
    if (!watchers.lacks(tableId, event.seq)) return;
    const waiting = due.has(tableId);
    due.set(tableId, Math.max(due.get(tableId) ?? 0, event.seq));
    if (waiting) return;
    setImmediate(() => {
      const version = due.get(tableId)!;
      due.delete(tableId);
      // A change made here has usually reached its sockets from this gateway's own feed by now.
      if (stopped || !watchers.lacks(tableId, version)) return;
      current(tableId).then(
        (change) => watchers.publish(change),
        (error: unknown) => onError(error, tableId),
      );
    });
  });
  return () => {
    stopped = true;
    stopHearing();
  };
}
