/**
 * The views of one change: each viewer's view of the table as of one
 * version, built by viewFor and serialised once, however many ask for it —
 * every socket of a seat, every spectator, a socket just opened or resuming
 * (`after=`), a change heard from the log as well as from this gateway's
 * own feed. The table's latest views are kept while a socket watches it
 * (TableWatchers), and dropped with its last socket.
 */
import { viewFor, type TableView, type Viewer } from '../../machines/view.js';
import { activeStatesOf } from './routes/machineRoutes.js';
import type { VersionedView } from './socketProtocol.js';
import type { TableChange } from './tableFeed.js';

/** The answer of GET .../view, whose schema types the states as a mutable array. */
type ViewAnswer = VersionedView & { readonly activeStates: string[] };

interface BuiltView {
  readonly versioned: ViewAnswer;
  /** The socket's view message, as sent. */
  readonly message: string;
}

export class ChangeViews {
  private readonly built = new Map<Viewer, BuiltView>();
  private activeStates: string[] | undefined;

  constructor(readonly change: TableChange) {}

  get version(): number {
    return this.change.version;
  }

  /** The viewer's view with its version, for GET .../view. */
  versioned(viewer: Viewer): ViewAnswer {
    return this.of(viewer).versioned;
  }

  /** The viewer's view message, serialised once for every socket that is sent it. */
  message(viewer: Viewer): string {
    return this.of(viewer).message;
  }

  private of(viewer: Viewer): BuiltView {
    let built = this.built.get(viewer);
    if (built === undefined) {
      const { change } = this;
      this.activeStates ??= activeStatesOf(change.snapshot);
      const view: TableView = viewFor(change.snapshot, viewer);
      const versioned: ViewAnswer = { version: change.version, view, turnDeadline: change.turnDeadline, activeStates: this.activeStates };
      built = { versioned, message: JSON.stringify({ type: 'view', ...versioned }) };
      this.built.set(viewer, built);
    }
    return built;
  }
}
