/**
 * A new table folded through its first events: its `table.created`, then
 * the events it starts with (a fork's seats and the original's game), each
 * offered to the machine, with a `hand.revealed` right after each hand they
 * score, as when it is played. Pure: the host runs it for a new table's few
 * events, and the fold worker (recordImport/) for a fork's thousands, off
 * the event loop.
 */
import { revealedDealsOf } from '../../machines/table/context.js';
import type { TableEvent } from '../../machines/table/events.js';
import { offer, startTable, type TableActor } from '../../machines/table/snapshot.js';
import type { NewEvent } from '../eventstore/eventStore.js';
import { TableRefusal } from './errors.js';
import { HAND_REVEALED, toNewEvent, type TableCreated } from './tableLog.js';

export interface FoldedNewTable {
  /** The table after every event, running. */
  readonly actor: TableActor;
  /** The events to log after `table.created`, at `at`: each of `events`, and the reveals they set off. */
  readonly logged: NewEvent[];
}

/** Folds `events` into a new table of `created`; a refused event is a TableRefusal (malformed), and nothing is kept. */
export function foldNewTable(created: TableCreated, events: readonly TableEvent[], at: string): FoldedNewTable {
  const actor = startTable(created);
  const logged: NewEvent[] = [];
  for (const event of events) {
    const revealedBefore = revealedDealsOf(actor.getSnapshot().context).length;
    if (!offer(actor, event)) {
      actor.stop();
      throw new TableRefusal('malformed', `the new table refuses its ${event.type} ${JSON.stringify(event)}`);
    }
    logged.push(toNewEvent(event, at));
    for (const revealed of revealedDealsOf(actor.getSnapshot().context).slice(revealedBefore))
      logged.push({ type: HAND_REVEALED, at, data: revealed });
  }
  return { actor, logged };
}
