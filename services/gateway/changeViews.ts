/**
 * The views of one change: each viewer's view of the table as of one
 * version, built by viewFor and serialised once, however many ask for it —
 * every socket of a seat, every spectator, a socket just opened or resuming
 * (`after=`), a change heard from the log as well as from this gateway's
 * own feed. The messages of a table's latest version are kept while a
 * socket watches it (TableWatchers), and dropped with its last socket.
 */
import { viewFor, type TableView, type Viewer } from '../../machines/view.js';
import { activeStatesOf } from './routes/machineRoutes.js';
import type { VersionedView } from './socketProtocol.js';
import type { TableChange } from './tableFeed.js';

/** The answer of GET .../view, whose schema types the states as a mutable array. */
type ViewAnswer = VersionedView & { readonly activeStates: string[] };

export class ChangeViews {
  /** Only the messages are kept, not the view objects: a table's views cost a gateway about their length in bytes. */
  private readonly messages = new Map<Viewer, string>();
  private activeStates: string[] | undefined;

  constructor(readonly change: TableChange) {}

  get version(): number {
    return this.change.version;
  }

  /** The viewer's view with its version, for GET .../view (built for each request: a socket's message is what is kept). */
  versioned(viewer: Viewer): ViewAnswer {
    const { change } = this;
    this.activeStates ??= activeStatesOf(change.snapshot);
    const view: TableView = viewFor(change.snapshot, viewer);
    return { version: change.version, view, turnDeadline: change.turnDeadline, activeStates: this.activeStates };
  }

  /** The viewer's view message, serialised once for every socket that is sent it. */
  message(viewer: Viewer): string {
    let message = this.messages.get(viewer);
    if (message === undefined) {
      message = JSON.stringify({ type: 'view', ...this.versioned(viewer) });
      this.messages.set(viewer, message);
    }
    return message;
  }
}
