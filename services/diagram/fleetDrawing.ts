/**
 * The fleet overlay (GET /api/fleet's counts for one game) laid on a
 * diagram: live tables per state node, and each counted transition matched
 * to the diagram transition it took, so dot.ts can shade the states and
 * draw each edge as thick as it is taken.
 */
import type { StateTally, TransitionTally } from '../projections/fleet/fleetReportTypes.js';
import { isWithin, type DiagramModel, type DiagramTransition } from './model.js';

/** What the overlay counts for one game: GET /api/fleet's `states` and `transitions`. */
export interface FleetCounts {
  readonly states: readonly StateTally[];
  readonly transitions: readonly TransitionTally[];
}

export interface FleetDrawing {
  /** State id → live tables in it. */
  readonly tablesIn: ReadonlyMap<string, number>;
  /** Diagram transition id → times taken. */
  readonly taken: ReadonlyMap<string, number>;
}

export function fleetDrawingOf(model: DiagramModel, counts: FleetCounts): FleetDrawing {
  const known = new Set(model.states.map((state) => state.id));
  const tablesIn = new Map(counts.states.filter(({ state }) => known.has(state)).map(({ state, tables }) => [state, tables]));
  const taken = new Map<string, number>();
  for (const { source, target, event, count } of counts.transitions) {
    if (!known.has(source) || !known.has(target)) continue;
    const transition = transitionTaken(model, source, target, event);
    if (transition !== undefined) taken.set(transition.id, (taken.get(transition.id) ?? 0) + count);
  }
  return { tablesIn, taken };
}

/**
 * The diagram transition a counted one took: on its event, from the state it
 * left or one around or inside it, to the state it entered; when the move
 * went on through eventless transitions (a trick won, then the next lead),
 * the first step's, which leaves from that state on that event.
 */
function transitionTaken(model: DiagramModel, source: string, target: string, event: string): DiagramTransition | undefined {
  const related = (a: string, b: string) => a === b || isWithin(model, a, b) || isWithin(model, b, a);
  const onEvent = model.transitions.filter((transition) => transition.eventType === event && related(source, transition.sourceId));
  return (
    onEvent.find((transition) => transition.targetIds.some((id) => related(id, target))) ??
    onEvent.find((transition) => transition.targetIds.length === 0 && source === target) ??
    onEvent[0]
  );
}
