/**
 * A statechart's shape, read from the machine definition itself (its tree
 * of StateNodes), so that a diagram can never drift from the code.
 *
 * The walk reads the StateNodes rather than `machine.toJSON()` or
 * @xstate/graph's `toDirectedGraph`: both of those leave out eventless
 * (`always`) transitions, and every game moves between most of its phases
 * through one.
 */
import type { AnyStateMachine, AnyStateNode } from 'xstate';

type StateKind = 'atomic' | 'compound' | 'parallel' | 'final' | 'history';

export interface DiagramState {
  /** XState's state node id, e.g. "sevenSuitors.trickPlay.leading". */
  readonly id: string;
  /** The state's own name within its parent, e.g. "leading". */
  readonly key: string;
  readonly parentId: string | null;
  /** 0 for the machine's root. */
  readonly depth: number;
  readonly kind: StateKind;
  /** Whether the parent enters this state by default: its initial child, or a region of a parallel parent. */
  readonly initial: boolean;
  /** The states this one's initial transition enters (empty for atomic, final and parallel states). */
  readonly initialIds: readonly string[];
  readonly childIds: readonly string[];
  readonly description: string | null;
  readonly entry: readonly string[];
  readonly exit: readonly string[];
  /** The actors the state invokes while it is active, by source name. */
  readonly invoke: readonly string[];
  readonly history: 'shallow' | 'deep' | null;
}

export interface DiagramTransition {
  /** `${sourceId}:${event}:${priority}`, e.g. "sevenSuitors.trickPlay.following:card.played:1". */
  readonly id: string;
  readonly sourceId: string;
  /** Empty for a targetless transition, which runs its actions without leaving the source. */
  readonly targetIds: readonly string[];
  /** The event as the machine names it: "" for eventless, "xstate.done.state.<id>" for onDone. */
  readonly eventType: string;
  /** The event as a diagram shows it: "always" for eventless, "done" for onDone, "after(1000)" for a delay. */
  readonly event: string;
  /** 0 for the first candidate of this event in its source, which XState tries first. */
  readonly priority: number;
  /** How many transitions of this source share the event (a label numbers them when more than one). */
  readonly candidates: number;
  readonly guard: string | null;
  readonly actions: readonly string[];
  readonly reenter: boolean;
}

export interface DiagramModel {
  /** The machine's id, which is also its root state's id. */
  readonly id: string;
  /** Every state node, in document order, the root first. */
  readonly states: readonly DiagramState[];
  /** Every transition, grouped by source in document order, each source's in definition order. */
  readonly transitions: readonly DiagramTransition[];
}

const NO_EVENT = '';

export function transitionId(sourceId: string, event: string, priority: number): string {
  return `${sourceId}:${event}:${priority}`;
}

/** How an event reads in a diagram; XState's internal event names become the statechart words for them. */
export function eventLabel(eventType: string, sourceId: string): string {
  if (eventType === NO_EVENT) return 'always';
  if (eventType === `xstate.done.state.${sourceId}`) return 'done';
  const after = /^xstate\.after\.(.+)$/.exec(eventType);
  if (after !== null) {
    const delay = after[1].endsWith(`.${sourceId}`) ? after[1].slice(0, -sourceId.length - 1) : after[1];
    return `after(${delay})`;
  }
  for (const [prefix, word] of [
    ['xstate.done.actor.', 'done'],
    ['xstate.error.actor.', 'error'],
    ['xstate.snapshot.', 'snapshot'],
  ] as const) {
    if (eventType.startsWith(prefix)) return `${word}(${eventType.slice(prefix.length)})`;
  }
  return eventType;
}

/** A guard by name: named guards as named, higher-order ones spelled out, inline ones as "inline". */
export function guardName(guard: unknown): string | null {
  if (guard === undefined || guard === null) return null;
  if (typeof guard === 'string') return guard;
  if (typeof guard === 'function') {
    const composite = guard as { guards?: unknown[]; stateValue?: unknown; name?: string };
    if (Array.isArray(composite.guards)) {
      return `${composite.name}(${composite.guards.map((inner) => guardName(inner)).join(', ')})`;
    }
    if (composite.stateValue !== undefined) return `stateIn(${JSON.stringify(composite.stateValue)})`;
    return 'inline';
  }
  if (typeof guard === 'object' && typeof (guard as { type?: unknown }).type === 'string') {
    return (guard as { type: string }).type;
  }
  return 'inline';
}

/** An action by name: named actions as named, built-in creators by their kind ("assign"), inline ones as "inline". */
function actionName(action: unknown): string {
  if (typeof action === 'string') return action;
  const type = (action as { type?: unknown } | null)?.type;
  if (typeof type === 'string') return type.replace(/^xstate\./, '');
  return 'inline';
}

/**
 * Not the timers XState adds to the entry and exit of a state with `after`
 * transitions (a delayed raise and its cancel): the diagram shows those as
 * the delayed transitions themselves.
 */
function isWrittenAction(action: unknown): boolean {
  const { type, id, sendId } = (action ?? {}) as { type?: unknown; id?: unknown; sendId?: unknown };
  const timer = type === 'xstate.raise' ? id : type === 'xstate.cancel' ? sendId : undefined;
  return !(typeof timer === 'string' && timer.startsWith('xstate.after.'));
}

export function diagramModelOf(machine: AnyStateMachine): DiagramModel {
  const states: DiagramState[] = [];
  const transitions: DiagramTransition[] = [];
  const visit = (node: AnyStateNode, depth: number): void => {
    const children = childrenOf(node);
    const parent = node.parent;
    states.push({
      id: node.id,
      key: node.key,
      parentId: parent?.id ?? null,
      depth,
      kind: node.type,
      initial: parent !== undefined && (parent.type === 'parallel' || initialTargets(parent).includes(node.id)),
      initialIds: node.type === 'compound' ? initialTargets(node) : [],
      childIds: children.map((child) => child.id),
      description: node.description ?? null,
      entry: node.entry.filter(isWrittenAction).map(actionName),
      exit: node.exit.filter(isWrittenAction).map(actionName),
      invoke: node.invoke.map((invoked) => (typeof invoked.src === 'string' ? invoked.src : invoked.id)),
      history: node.type === 'history' ? node.history || 'shallow' : null,
    });
    transitions.push(...transitionsOf(node));
    for (const child of children) visit(child, depth + 1);
  };
  visit(machine.root, 0);
  return { id: machine.root.id, states, transitions };
}

function childrenOf(node: AnyStateNode): AnyStateNode[] {
  return (Object.values(node.states) as AnyStateNode[]).sort((a, b) => a.order - b.order);
}

function initialTargets(node: AnyStateNode): string[] {
  if (node.type !== 'compound') return [];
  return (node.initial?.target ?? []).map((target: AnyStateNode) => target.id);
}

function transitionsOf(node: AnyStateNode): DiagramTransition[] {
  const groups: [string, readonly unknown[]][] = [...node.transitions.entries()];
  if (node.always !== undefined && node.always.length > 0) groups.push([NO_EVENT, node.always]);
  return groups.flatMap(([eventType, definitions]) => {
    const event = eventLabel(eventType, node.id);
    return definitions.map((definition, priority) => {
      const { target, guard, actions, reenter } = definition as {
        target?: readonly AnyStateNode[];
        guard?: unknown;
        actions: readonly unknown[];
        reenter: boolean;
      };
      return {
        id: transitionId(node.id, event, priority),
        sourceId: node.id,
        targetIds: (target ?? []).map((state) => state.id),
        eventType,
        event,
        priority,
        candidates: definitions.length,
        guard: guardName(guard),
        actions: actions.map(actionName),
        reenter,
      };
    });
  });
}

/** A model's state by id, or an error naming the states it does have. */
export function stateOf(model: DiagramModel, id: string): DiagramState {
  const state = model.states.find((candidate) => candidate.id === id);
  if (state === undefined) {
    throw new Error(`"${id}" is not a state of ${model.id}; its states are ${model.states.map((s) => s.id).join(', ')}`);
  }
  return state;
}

/** Whether `id` is `ancestorId` or lies inside it. */
export function isWithin(model: DiagramModel, id: string, ancestorId: string): boolean {
  for (let current: string | null = id; current !== null; current = stateOf(model, current).parentId) {
    if (current === ancestorId) return true;
  }
  return false;
}

/** A transition as a label reads: "(2) card.played [isLegalLastCardOfTrick] / playCard, completeTrick". */
export function transitionText(transition: DiagramTransition): string {
  return [triggerText(transition), actionsText(transition)].filter((part) => part !== '').join(' ');
}

/** The event and guard, numbered by priority when several transitions of the state share the event. */
export function triggerText(transition: DiagramTransition): string {
  const rank = transition.candidates > 1 ? `(${transition.priority + 1}) ` : '';
  const guard = transition.guard === null ? '' : ` [${transition.guard}]`;
  return `${rank}${transition.event}${guard}`;
}

export function actionsText(transition: DiagramTransition): string {
  return transition.actions.length === 0 ? '' : `/ ${transition.actions.join(', ')}`;
}
