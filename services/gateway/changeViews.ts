/**
 * The views of one change: each viewer's view of the table as of one
 * version, built by viewFor and serialised once, however many ask for it —
 * every socket of a seat, every spectator, a socket just opened or resuming
 * (`after=`), a change heard from the log as well as from this gateway's
 * own feed. A socket that asked for changes (`views=changes`) and holds the
 * version just before is sent only what differs from it
 * (machines/viewChanges.ts), computed once for every such socket of the
 * viewer. The views of a table's latest version are kept while a socket
 * watches it (TableWatchers), and dropped with its last socket.
 */
import { viewChanges } from '../../machines/viewChanges.js';
import { viewFor, type Viewer } from '../../machines/view.js';
import { activeStatesOf } from './routes/machineRoutes.js';
import type { ChangesMessage, VersionedView } from './socketProtocol.js';
import type { TableChange } from './tableFeed.js';

/** The answer of GET .../view, whose schema types the states as a mutable array. */
type ViewAnswer = VersionedView & { readonly activeStates: string[] };

/** What a socket's messages carry of a version besides its number: what its changes are computed over. */
type ViewParts = Omit<ViewAnswer, 'version'>;

export class ChangeViews {
  /**
   * Each viewer's view, kept as the base of the next version's changes: it
   * shares most of its parts with the table's state, so it costs less than
   * its message, which is made only for a socket that needs the whole view.
   */
  private readonly views = new Map<Viewer, ViewParts>();
  private readonly messages = new Map<Viewer, string>();
  private readonly changesMessages = new Map<Viewer, string>();
  private activeStates: string[] | undefined;

  constructor(
    readonly change: TableChange,
    /** The views of the version before, while this version's changes from it may be asked for. */
    private previous?: ChangeViews,
  ) {
    // Two versions at most are kept of a table, however its views are asked for.
    previous?.forgetPrevious();
  }

  get version(): number {
    return this.change.version;
  }

  /** The viewer's view with its version: GET .../view's answer. */
  versioned(viewer: Viewer): ViewAnswer {
    return { version: this.change.version, ...this.parts(viewer) };
  }

  private parts(viewer: Viewer): ViewParts {
    let parts = this.views.get(viewer);
    if (parts === undefined) {
      const { change } = this;
      this.activeStates ??= this.activeStatesNow();
      parts = { view: viewFor(change.snapshot, viewer), turnDeadline: change.turnDeadline, activeStates: this.activeStates };
      this.views.set(viewer, parts);
    }
    return parts;
  }

  /**
   * The active states: the version before's own list while the machine stays
   * in the same states (most moves), so it is not sorted again and a socket's
   * changes skip it without a look.
   */
  private activeStatesNow(): string[] {
    const { snapshot } = this.change;
    const before = this.previous;
    if (before?.activeStates !== undefined && sameStateNodes(before.change.snapshot._nodes, snapshot._nodes)) return before.activeStates;
    return activeStatesOf(snapshot);
  }

  /** The viewer's whole view message, serialised once for every socket that is sent it. */
  message(viewer: Viewer): string {
    let message = this.messages.get(viewer);
    if (message === undefined) {
      message = JSON.stringify({ type: 'view', version: this.change.version, ...this.parts(viewer) });
      this.messages.set(viewer, message);
    }
    return message;
  }

  /** What to send a socket that asked for changes and holds `heldVersion`: the changes from it when it is the version before, else the whole view. */
  messageAfter(viewer: Viewer, heldVersion: number): string {
    const previous = this.previous;
    // Version 0 is held by no one: a socket opened without `after` holds no view yet.
    if (previous === undefined || heldVersion === 0 || previous.version !== heldVersion) return this.message(viewer);
    let message = this.changesMessages.get(viewer);
    if (message === undefined) {
      const changes: ChangesMessage = {
        type: 'changes',
        from: previous.version,
        version: this.version,
        changes: viewChanges(previous.parts(viewer), this.parts(viewer)),
      };
      message = JSON.stringify(changes);
      this.changesMessages.set(viewer, message);
    }
    return message;
  }

  /** The version before is no longer asked about (its sockets have been sent this one); only this version is kept. */
  forgetPrevious(): void {
    this.previous = undefined;
    this.changesMessages.clear();
  }
}

function sameStateNodes(before: readonly unknown[], after: readonly unknown[]): boolean {
  return before.length === after.length && before.every((node, index) => node === after[index]);
}
