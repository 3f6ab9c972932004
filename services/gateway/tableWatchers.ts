/**
 * The sockets watching each table. Every change is sent to each of them as
 * the viewer's own view (viewFor, once per distinct viewer), tagged with the
 * version it shows; a socket is never sent a version it already has, so a
 * client resuming from the last version it saw gets no duplicate.
 */
import type { Seat } from '../../machines/rules/trick.js';
import { viewFor, type TableView, type Viewer } from '../../machines/view.js';
import { activeStatesOf } from './routes/machineRoutes.js';
import type { TableChange } from './tableFeed.js';

export interface Watcher {
  readonly viewer: Viewer;
  /** The last version this socket was sent (or told it has); only later ones are sent. */
  lastVersion: number;
  send(text: string): void;
  close(code: number, reason: string): void;
}

export interface ViewMessage {
  readonly type: 'view';
  readonly version: number;
  readonly view: TableView;
  readonly turnDeadline: string | null;
  /** The statechart states the table is in (ids of the diagram's states), from the same snapshot as the view. */
  readonly activeStates: readonly string[];
}

export function viewMessage(change: TableChange, view: TableView, activeStates = activeStatesOf(change.snapshot)): ViewMessage {
  return { type: 'view', version: change.version, view, turnDeadline: change.turnDeadline, activeStates };
}

export class TableWatchers {
  private readonly byTable = new Map<string, Set<Watcher>>();

  get count(): number {
    let count = 0;
    for (const watchers of this.byTable.values()) count += watchers.size;
    return count;
  }

  /** Whether any socket here watches the table. */
  watches(tableId: string): boolean {
    return this.byTable.has(tableId);
  }

  /** Adds a watcher; the returned function removes it. */
  watch(tableId: string, watcher: Watcher): () => void {
    const watchers = this.byTable.get(tableId) ?? new Set();
    watchers.add(watcher);
    this.byTable.set(tableId, watchers);
    return () => {
      watchers.delete(watcher);
      if (watchers.size === 0 && this.byTable.get(tableId) === watchers) this.byTable.delete(tableId);
    };
  }

  /** Sends one watcher the change, unless it already has that version or a later one. */
  deliver(change: TableChange, watcher: Watcher, rendered = new Map<Viewer, string>()): void {
    if (change.version <= watcher.lastVersion) return;
    let text = rendered.get(watcher.viewer);
    if (text === undefined) {
      text = JSON.stringify(viewMessage(change, viewFor(change.snapshot, watcher.viewer), activeStatesOf(change.snapshot)));
      rendered.set(watcher.viewer, text);
    }
    watcher.lastVersion = change.version;
    watcher.send(text);
  }

  publish(change: TableChange): void {
    const watchers = this.byTable.get(change.tableId);
    if (watchers === undefined) return;
    const rendered = new Map<Viewer, string>();
    for (const watcher of [...watchers]) this.deliver(change, watcher, rendered);
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
 * Sockets here see the changes other gateways made too (the distributed
 * service: `changedAnywhere` hears every appended event). Only views are
 * sent for them: bots and turn clocks act on the changes made through this
 * gateway, so that two gateways never race to move for the same seat.
 * Events arriving together are sent as one view, of the table as it stands.
 */
export function relayChangesMadeElsewhere(
  changedAnywhere: (onChange: (tableId: string) => void) => () => void,
  watchers: TableWatchers,
  current: (tableId: string) => Promise<TableChange>,
  onError: (error: unknown, tableId: string) => void,
): () => void {
  const due = new Set<string>();
  return changedAnywhere((tableId) => {
    if (!watchers.watches(tableId) || due.has(tableId)) return;
    due.add(tableId);
    setImmediate(() => {
      due.delete(tableId);
      current(tableId).then(
        (change) => watchers.publish(change),
        (error: unknown) => onError(error, tableId),
      );
    });
  });
}
