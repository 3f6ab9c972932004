/**
 * A machine's fingerprint: the SHA-256 of what a persisted snapshot of it
 * depends on. XState restores a snapshot by state names and reads the
 * context as it was saved, so the fingerprint covers the states (names,
 * nesting, initial states), every transition (event, guard, actions,
 * targets) and the shape of the context, nested all the way down
 * (contextShape.ts), and nothing a snapshot does not
 * depend on (descriptions, the order the source lists things in). Two
 * releases whose machines have one fingerprint can resume each other's
 * snapshots; any other pair rebuilds tables from their logs.
 *
 * What a guard or action computes is not in it: a change of rules is a
 * new rules version (rulebooks.ts), caught by the golden logs when it is
 * forgotten.
 */
import type { AnyStateMachine } from 'xstate';
import { sha256, toHex } from '../fairness/sha256.js';
import { DEFAULT_OPTIONS, type GameName } from '../table/options.js';
import { CONTEXT_SHAPE, contextShapeWith } from './contextShape.js';

interface StateShape {
  readonly type: string;
  readonly initial: readonly string[];
  readonly entry: readonly string[];
  readonly exit: readonly string[];
  readonly transitions: readonly TransitionShape[];
  readonly states: Readonly<Record<string, StateShape>>;
}

interface TransitionShape {
  readonly event: string;
  readonly guard: string | null;
  readonly actions: readonly string[];
  readonly targets: readonly string[];
  readonly reenter: boolean;
}

/** A state node, as far as XState's public StateNode exposes it. */
interface StateNodeLike {
  readonly type: string;
  readonly initial?: { readonly target?: readonly { readonly id: string }[] };
  readonly entry: readonly unknown[];
  readonly exit: readonly unknown[];
  readonly transitions: ReadonlyMap<string, readonly TransitionLike[]>;
  readonly always?: readonly TransitionLike[];
  readonly states: Readonly<Record<string, StateNodeLike>>;
}

interface TransitionLike {
  readonly guard?: unknown;
  readonly actions: readonly unknown[];
  readonly target?: readonly { readonly id: string }[];
  readonly reenter: boolean;
}

const fingerprints = new WeakMap<AnyStateMachine, string>();

/**
 * The fingerprint of `machine`, a table machine of `game`: 64 hex digits.
 * `contextShape` is the context's shape of this release unless a test
 * brings another.
 */
export function fingerprintOf(machine: AnyStateMachine, game: GameName, contextShape: object = CONTEXT_SHAPE): string {
  const ofThisRelease = contextShape === CONTEXT_SHAPE;
  let fingerprint = ofThisRelease ? fingerprints.get(machine) : undefined;
  if (fingerprint === undefined) {
    const shape = {
      id: machine.id,
      states: shapeOf(machine.root as unknown as StateNodeLike),
      context: contextShapeWith(DEFAULT_OPTIONS[game], contextShape),
    };
    fingerprint = toHex(sha256(new TextEncoder().encode(canonicalJson(shape))));
    if (ofThisRelease) fingerprints.set(machine, fingerprint);
  }
  return fingerprint;
}

function shapeOf(node: StateNodeLike): StateShape {
  const transitions = [...node.transitions.entries()].flatMap(([event, each]) =>
    each.map((transition) => transitionShape(event, transition)),
  );
  const always = (node.always ?? []).map((transition) => transitionShape('', transition));
  return {
    type: node.type,
    initial: (node.initial?.target ?? []).map((target) => target.id),
    entry: node.entry.map(nameOf),
    exit: node.exit.map(nameOf),
    // Transitions of one event are tried in order, so their order is kept; events are sorted by canonicalJson.
    transitions: [...transitions, ...always],
    states: Object.fromEntries(Object.entries(node.states).map(([key, child]) => [key, shapeOf(child)])),
  };
}

function transitionShape(event: string, transition: TransitionLike): TransitionShape {
  return {
    event,
    guard: transition.guard === undefined ? null : nameOf(transition.guard),
    actions: transition.actions.map(nameOf),
    targets: (transition.target ?? []).map((target) => target.id),
    reenter: transition.reenter,
  };
}

/** A guard or action by its name in the machine's setup; an inline one by its function's name. */
function nameOf(implementation: unknown): string {
  if (typeof implementation === 'string') return implementation;
  if (typeof implementation === 'function') return `inline:${implementation.name}`;
  const type = (implementation as { type?: unknown } | null)?.type;
  return typeof type === 'string' ? type : 'inline';
}

/** JSON with every object's keys sorted, so the same shape always gives the same text. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, each]) => `${JSON.stringify(key)}:${canonicalJson(each)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}
