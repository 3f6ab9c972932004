/**
 * Which states of a diagram to highlight for a snapshot: exactly the state
 * nodes the actor is in, the root and every compound ancestor included.
 */
import type { StateValue } from 'xstate';
import { stateOf, type DiagramModel, type DiagramState } from './model.js';

/** A live snapshot (which has `_nodes`) or a persisted one (only `value`). */
export interface SnapshotLike {
  readonly value: StateValue;
  readonly _nodes?: readonly { readonly id: string; readonly order: number }[];
}

/**
 * The ids of the active state nodes, in document order. A live snapshot
 * answers from its own `_nodes`; a persisted one carries only its value,
 * which is read against the model.
 */
export function activeStateIds(snapshot: SnapshotLike, model?: DiagramModel): string[] {
  if (snapshot._nodes !== undefined) {
    return [...snapshot._nodes].sort((a, b) => a.order - b.order).map((node) => node.id);
  }
  if (model === undefined) {
    throw new Error('a snapshot without _nodes (a persisted one) needs the diagram model to read its value against');
  }
  const ids: string[] = [];
  const visit = (state: DiagramState, value: StateValue | undefined): void => {
    ids.push(state.id);
    if (state.childIds.length === 0) return;
    const children = state.childIds.map((id) => stateOf(model, id));
    if (state.kind === 'parallel') {
      const regions = (value ?? {}) as Record<string, StateValue>;
      for (const child of children) visit(child, regions[child.key]);
      return;
    }
    const key = typeof value === 'string' ? value : Object.keys(value ?? {})[0];
    const child = children.find((candidate) => candidate.key === key);
    if (child === undefined) {
      throw new Error(`${state.id} has no child state "${key}"; it has ${children.map((c) => c.key).join(', ')}`);
    }
    visit(child, typeof value === 'string' ? undefined : (value as Record<string, StateValue>)[key]);
  };
  visit(model.states[0], snapshot.value);
  const order = new Map(model.states.map((state, index) => [state.id, index]));
  return ids.sort((a, b) => order.get(a)! - order.get(b)!);
}
