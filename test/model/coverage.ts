/**
 * Coverage of a machine's definition by the actors the suite drove:
 * state nodes entered, transitions taken and, for every guarded transition,
 * whether its guard was seen true and seen false.
 *
 * The definition is read from the machine itself (walking `machine.root`),
 * never from a hand-written list. Taken transitions come from the actor's
 * `@xstate.microstep` inspection events; guard outcomes from wrappers
 * installed with `machine.provide({ guards })` that call the original guard
 * and return its result unchanged, so the instrumented machine behaves
 * exactly as the production one.
 */
import type { AnyStateMachine, InspectionEvent } from 'xstate';

type AnyNode = AnyStateMachine['root'];
type AnyTransition = NonNullable<AnyNode['always']>[number];

type TransitionKind = 'event' | 'always' | 'onDone' | 'initial';

export interface TransitionInfo {
  /** Stable across machines built from the same config: source node, event descriptor, index among the candidates. */
  readonly id: string;
  readonly source: string;
  readonly kind: TransitionKind;
  /** Event type, or '' for eventless and initial transitions. */
  readonly event: string;
  readonly index: number;
  readonly guard: string | null;
  readonly targets: readonly string[];
  readonly actions: readonly string[];
}

export interface MachineDefinition {
  readonly machine: string;
  /** Every state node except the root, by path ("trickPlay.following"). */
  readonly states: readonly string[];
  readonly transitions: readonly TransitionInfo[];
  /** "<transition id>=true" and "<transition id>=false" for every guarded transition. */
  readonly guardOutcomes: readonly string[];
  /** Entry actions of state nodes, as "<state>/<action>". */
  readonly entryActions: readonly string[];
}

function nodeName(node: AnyNode): string {
  return node.path.length === 0 ? '(root)' : node.path.join('.');
}

function guardName(transition: AnyTransition): string | null {
  const guard = transition.guard as unknown;
  if (guard === undefined || guard === null) return null;
  if (typeof guard === 'string') return guard;
  if (typeof guard === 'object' && 'type' in (guard as object)) return String((guard as { type: unknown }).type);
  if (typeof guard === 'function') return guard.name || '(inline guard)';
  return String(guard);
}

function actionName(action: unknown): string {
  if (typeof action === 'string') return action;
  if (typeof action === 'object' && action !== null && 'type' in action) return String((action as { type: unknown }).type);
  if (typeof action === 'function') return action.name || '(inline action)';
  return String(action);
}

function transitionId(source: AnyNode, event: string, index: number): string {
  return `${nodeName(source)} ${event} #${index}`;
}

function describeTransition(source: AnyNode, kind: TransitionKind, event: string, index: number, t: AnyTransition): TransitionInfo {
  return {
    id: transitionId(source, kind === 'always' ? '(always)' : kind === 'initial' ? '(initial)' : event, index),
    source: nodeName(source),
    kind,
    event: kind === 'always' || kind === 'initial' ? '' : event,
    index,
    guard: kind === 'initial' ? null : guardName(t),
    targets: (t.target ?? []).map((target) => nodeName(target as AnyNode)),
    actions: t.actions.map(actionName),
  };
}

function allNodes(root: AnyNode): AnyNode[] {
  const out: AnyNode[] = [root];
  for (const child of Object.values(root.states) as AnyNode[]) out.push(...allNodes(child));
  return out;
}

/** Reads the definition of a machine from its state node tree. */
function describeMachine(machine: AnyStateMachine): MachineDefinition {
  const nodes = allNodes(machine.root);
  const transitions: TransitionInfo[] = [];
  const entryActions: string[] = [];
  for (const node of nodes) {
    if (node.type === 'compound') transitions.push(describeTransition(node, 'initial', '', 0, node.initial as AnyTransition));
    for (const [event, candidates] of node.transitions) {
      const kind: TransitionKind = event.startsWith('xstate.done.state.') ? 'onDone' : 'event';
      candidates.forEach((t, index) => transitions.push(describeTransition(node, kind, event, index, t as AnyTransition)));
    }
    (node.always ?? []).forEach((t, index) => transitions.push(describeTransition(node, 'always', '', index, t)));
    for (const action of node.entry) entryActions.push(`${nodeName(node)}/${actionName(action)}`);
  }
  const guardOutcomes = transitions.filter((t) => t.guard !== null).flatMap((t) => [`${t.id}=true`, `${t.id}=false`]);
  return {
    machine: machine.id,
    states: nodes.filter((node) => node !== machine.root).map(nodeName),
    transitions,
    guardOutcomes,
    entryActions,
  };
}

/** Describes a transition for a report line. */
export function transitionLabel(t: TransitionInfo): string {
  const on =
    t.kind === 'initial'
      ? 'initial'
      : t.kind === 'always'
        ? `always #${t.index}`
        : t.kind === 'onDone'
          ? 'onDone'
          : `${t.event} #${t.index}`;
  const guard = t.guard === null ? '' : ` [${t.guard}]`;
  const target = t.targets.length === 0 ? ' (targetless)' : ` → ${t.targets.join(', ')}`;
  return `${t.source}: ${on}${guard}${target}`;
}

export interface CoverageCounts {
  readonly states: Record<string, number>;
  readonly transitions: Record<string, number>;
  readonly guardOutcomes: Record<string, number>;
  readonly entryActions: Record<string, number>;
  /** Refused commands tried, by state node and kind. */
  readonly refusals: Record<string, number>;
}

function bump(record: Record<string, number>, key: string, by = 1): void {
  record[key] = (record[key] ?? 0) + by;
}

function emptyCounts(): CoverageCounts {
  return { states: {}, transitions: {}, guardOutcomes: {}, entryActions: {}, refusals: {} };
}

interface SnapshotLike {
  readonly _nodes: readonly AnyNode[];
}

/**
 * Records what the actors of one machine did. Use `instrument` for the
 * machine the driver runs, and pass `inspect` and `onBusy` to the driver.
 */
export class CoverageRecorder {
  readonly definition: MachineDefinition;
  readonly counts: CoverageCounts = emptyCounts();
  /** The same counts split by the kind of path that produced them ("generated", "targeted", ...). */
  readonly bySource: Record<string, CoverageCounts> = {};
  /** Set by the suite before running a path. */
  source = 'generated';
  /** Guard evaluations that could not be tied to exactly one transition (must stay empty). */
  readonly unattributed: string[] = [];
  private busy = false;
  private mode: 'event' | 'eventless' = 'eventless';
  private eventType = '';
  private current: SnapshotLike | null = null;
  private readonly transitionIds = new Map<AnyTransition, string>();
  private initialNodes: readonly AnyNode[] = [];
  private readonly entryBySource = new Map<string, string[]>();

  constructor(production: AnyStateMachine) {
    this.definition = describeMachine(production);
    for (const entry of this.definition.entryActions) {
      const [state, action] = entry.split('/');
      this.entryBySource.set(state, [...(this.entryBySource.get(state) ?? []), action]);
    }
  }

  /** The machine with every guard wrapped to record its outcome; same config, same behaviour. */
  instrument<M extends AnyStateMachine>(machine: M): M {
    const originals = machine.implementations.guards as Record<string, (...args: unknown[]) => boolean>;
    const guards: Record<string, (...args: unknown[]) => boolean> = {};
    for (const [name, original] of Object.entries(originals)) {
      guards[name] = (...args: unknown[]) => {
        const result = original(...args);
        this.noteGuard(name, result);
        return result;
      };
    }
    const instrumented = machine.provide({ guards } as never) as M;
    this.initialNodes = initialConfiguration(instrumented.root);
    for (const node of allNodes(instrumented.root)) {
      for (const [event, candidates] of node.transitions) {
        candidates.forEach((t, index) => this.transitionIds.set(t as AnyTransition, transitionId(node, event, index)));
      }
      (node.always ?? []).forEach((t, index) => this.transitionIds.set(t, transitionId(node, '(always)', index)));
    }
    return instrumented;
  }

  readonly onBusy = (busy: boolean): void => {
    this.busy = busy;
    if (busy) {
      this.mode = 'eventless';
      this.current = null;
    }
  };

  readonly inspect = (event: InspectionEvent): void => {
    if (event.type === '@xstate.event') {
      this.mode = 'event';
      this.eventType = event.event.type;
      this.current = event.actorRef.getSnapshot() as SnapshotLike;
    } else if (event.type === '@xstate.snapshot' && event.event.type === 'xstate.init') {
      const snapshot = event.snapshot as unknown as SnapshotLike;
      this.enter(snapshot._nodes, []);
      this.current = snapshot;
    } else if (event.type === '@xstate.microstep') {
      const micro = event as InspectionEvent & { _transitions: AnyTransition[]; snapshot: SnapshotLike };
      const before = this.current?._nodes ?? [];
      for (const t of micro._transitions) {
        const id = this.transitionIds.get(t);
        if (id === undefined) this.unattributed.push(`transition not in the instrumented machine: ${t.eventType}`);
        else this.add('transitions', id);
      }
      if (micro._transitions.length > 0) this.enter(micro.snapshot._nodes, before);
      this.mode = 'eventless';
      this.current = micro.snapshot;
    }
  };

  noteRefusal(state: string, kind: string): void {
    this.add('refusals', `${state} ${kind}`);
  }

  private add(kind: keyof CoverageCounts, key: string): void {
    bump(this.counts[kind], key);
    this.bySource[this.source] ??= emptyCounts();
    bump(this.bySource[this.source][kind], key);
  }

  private enter(nodes: readonly AnyNode[], before: readonly AnyNode[]): void {
    for (const node of nodes) {
      if (before.includes(node)) continue;
      if (node.path.length > 0) this.add('states', nodeName(node));
      if (node.type === 'compound') this.add('transitions', transitionId(node, '(initial)', 0));
      for (const action of this.entryBySource.get(nodeName(node)) ?? []) this.add('entryActions', `${nodeName(node)}/${action}`);
    }
  }

  private noteGuard(name: string, result: boolean): void {
    if (!this.busy) return;
    const nodes = this.current?._nodes ?? this.initialNodes;
    const candidates: string[] = [];
    for (const node of nodes) {
      const list: readonly AnyTransition[] =
        this.mode === 'event' ? ((node.transitions.get(this.eventType) ?? []) as AnyTransition[]) : (node.always ?? []);
      list.forEach((t) => {
        if (guardName(t) === name) candidates.push(this.transitionIds.get(t)!);
      });
    }
    if (candidates.length !== 1) {
      this.unattributed.push(`${name}=${result} (${this.mode} ${this.eventType}) matched ${candidates.length} transitions`);
      return;
    }
    this.add('guardOutcomes', `${candidates[0]}=${result}`);
  }
}

function initialConfiguration(root: AnyNode): AnyNode[] {
  const out: AnyNode[] = [root];
  let node = root;
  while (node.type === 'compound') {
    node = node.initial.target[0] as AnyNode;
    out.push(node);
  }
  return out;
}

export interface MachineCoverage {
  readonly definition: MachineDefinition;
  readonly counts: CoverageCounts;
  readonly missing: {
    readonly states: string[];
    readonly transitions: string[];
    readonly guardOutcomes: string[];
    readonly entryActions: string[];
  };
}

export function coverageOf(definition: MachineDefinition, counts: CoverageCounts): MachineCoverage {
  return {
    definition,
    counts,
    missing: {
      states: definition.states.filter((s) => !counts.states[s]),
      transitions: definition.transitions.map((t) => t.id).filter((id) => !counts.transitions[id]),
      guardOutcomes: definition.guardOutcomes.filter((g) => !counts.guardOutcomes[g]),
      entryActions: definition.entryActions.filter((a) => !counts.entryActions[a]),
    },
  };
}
