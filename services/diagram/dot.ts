/**
 * A diagram model as Graphviz DOT. Every element carries an `id` attribute
 * taken from the model, which Graphviz copies into the SVG it draws:
 * - a leaf state (atomic, final, history) is a node, id = state id;
 * - a compound or parallel state is a cluster, id = state id, holding its
 *   children and, when compound, its initial pseudo-state "<id>:initial";
 * - a transition with a target is an edge, id = transition id (one edge per
 *   target; "<transition id>:<target id>" when it has several);
 * - a targetless transition runs its actions without leaving its state, so it
 *   is a row inside that state's box (UML's internal transitions), the row's
 *   id the transition id; Graphviz writes a table cell's id as "a_<id>";
 * - the edge from an initial pseudo-state is "<state id>:initial:<target id>".
 */
import type { FleetDrawing } from './fleetDrawing.js';
import {
  actionsText,
  isWithin,
  stateOf,
  transitionText,
  triggerText,
  type DiagramModel,
  type DiagramState,
  type DiagramTransition,
} from './model.js';

export interface DotOptions {
  /** States to mark active (see activeStateIds): their elements get the class "active". */
  readonly highlight?: readonly string[];
  /** The fleet overlay (fleetDrawing.ts): states shaded and labelled with their live tables, edges as thick as taken. */
  readonly fleet?: FleetDrawing;
}

/** The one family Graphviz has built-in metrics for that every viewer draws in a similar width. */
const FONT = 'Helvetica';
const INK = '#333333';
const MUTED = '#666666';
const ACTIVE_FILL = '#ffe08a';
const ACTIVE_INK = '#b35c00';
const FLEET_INK = '#1f4e9c';

/** The id Graphviz gives in SVG to an element whose DOT id is `id`: a table cell's is prefixed "a_". */
export function svgIdOf(model: DiagramModel, id: string): string {
  const transition = model.transitions.find((candidate) => candidate.id === id);
  return transition !== undefined && transition.targetIds.length === 0 ? `a_${id}` : id;
}

export function initialNodeId(stateId: string): string {
  return `${stateId}:initial`;
}

export function initialEdgeId(stateId: string, targetId: string): string {
  return `${initialNodeId(stateId)}:${targetId}`;
}

/** The DOT ids of a transition's edges, one for each target; none for a targetless transition. */
export function edgeIdsOf(transition: DiagramTransition): string[] {
  if (transition.targetIds.length === 1) return [transition.id];
  return transition.targetIds.map((target) => `${transition.id}:${target}`);
}

export function toDot(model: DiagramModel, options: DotOptions = {}): string {
  const active = new Set(options.highlight ?? []);
  for (const id of active) stateOf(model, id);
  const writer = new DotWriter(model, active, options.fleet);
  return writer.write();
}

class DotWriter {
  private readonly lines: string[] = [];

  constructor(
    private readonly model: DiagramModel,
    private readonly active: ReadonlySet<string>,
    private readonly fleet?: FleetDrawing,
  ) {}

  write(): string {
    const { model } = this;
    this.lines.push(`digraph ${quote(model.id)} {`);
    this.lines.push(
      `  graph [id=${quote(`${model.id}:diagram`)}, compound=true, rankdir=TB, newrank=true, nodesep=0.45, ranksep=0.45, fontname=${quote(FONT)}, fontsize=12, fontcolor=${quote(INK)}];`,
    );
    this.lines.push(
      `  node [fontname=${quote(FONT)}, fontsize=12, fontcolor=${quote(INK)}, color=${quote(INK)}, shape=box, style="rounded,filled", fillcolor="white", margin="0.2,0.06"];`,
    );
    this.lines.push(`  edge [fontname=${quote(FONT)}, fontsize=10, fontcolor=${quote(INK)}, color=${quote(INK)}, arrowsize=0.7];`);
    this.writeState(model.states[0], 1);
    for (const state of model.states) {
      for (const targetId of state.initialIds) this.writeInitialEdge(state, targetId);
    }
    for (const transition of model.transitions) this.writeTransition(transition);
    this.lines.push('}');
    return `${this.lines.join('\n')}\n`;
  }

  private writeState(state: DiagramState, depth: number): void {
    const pad = '  '.repeat(depth);
    if (state.childIds.length === 0) {
      this.lines.push(`${pad}${quote(state.id)} [${attributes(this.leafAttributes(state))}];`);
      return;
    }
    this.lines.push(`${pad}subgraph ${quote(`cluster_${state.id}`)} {`);
    const inner = `${pad}  `;
    for (const [name, value] of this.clusterAttributes(state)) this.lines.push(`${inner}${name}=${value};`);
    if (state.kind === 'compound') {
      const id = initialNodeId(state.id);
      this.lines.push(
        `${inner}${quote(id)} [${attributes([
          ['id', quote(id)],
          ['class', quote('initial')],
          ['shape', 'point'],
          ['width', '0.14'],
          ['style', 'filled'],
          ['fillcolor', quote(INK)],
          ['tooltip', quote(`${state.key} starts in ${state.initialIds.map((t) => stateOf(this.model, t).key).join(', ')}`)],
        ])}];`,
      );
    }
    for (const childId of state.childIds) this.writeState(stateOf(this.model, childId), depth + 1);
    this.lines.push(`${pad}}`);
  }

  private leafAttributes(state: DiagramState): [string, string][] {
    const isActive = this.active.has(state.id);
    const list: [string, string][] = [
      ['id', quote(state.id)],
      ['class', quote(classes('state', state.kind, isActive))],
      ['label', `<${this.stateTable(state)}>`],
      ['tooltip', quote(state.description ?? state.key)],
    ];
    if (state.kind === 'final') list.push(['peripheries', '2'], ['style', quote('filled')]);
    if (state.kind === 'history') {
      // UML's history pseudo-state: a circle with H (shallow) or H* (deep), named beside it.
      list[2] = ['label', quote(state.history === 'deep' ? 'H*' : 'H')];
      list.push(['shape', 'circle'], ['xlabel', quote(state.key)], ['style', quote('filled')]);
    }
    if (isActive) list.push(['fillcolor', quote(ACTIVE_FILL)], ['color', quote(ACTIVE_INK)], ['penwidth', '2.5']);
    else if (this.tablesIn(state) > 0) list.push(['fillcolor', quote(fleetShade(this.tablesIn(state) / this.mostTables()))]);
    if (this.tablesIn(state) > 0) list[1] = ['class', quote(`${classes('state', state.kind, isActive)} fleet`)];
    return list;
  }

  private clusterAttributes(state: DiagramState): [string, string][] {
    const isActive = this.active.has(state.id);
    const parent = state.parentId === null ? null : stateOf(this.model, state.parentId);
    const isRegion = parent?.kind === 'parallel';
    return [
      ['id', quote(state.id)],
      ['class', quote(`${classes('state', state.kind, isActive)}${this.tablesIn(state) > 0 ? ' fleet' : ''}`)],
      ['label', `<${this.stateTable(state)}>`],
      ['labeljust', 'l'],
      ['tooltip', quote(state.description ?? state.key)],
      ['style', quote(isRegion ? 'dashed,rounded' : 'rounded')],
      ['color', quote(isActive ? ACTIVE_INK : MUTED)],
      ['penwidth', isActive ? '2.5' : '1'],
      ['margin', '12'],
    ];
  }

  /**
   * A state's box: its name, then its entry and exit actions and the
   * transitions that stay in it. Each line is a single run of text: Graphviz
   * places runs at offsets measured in Helvetica, so a viewer that draws a
   * wider font would make runs on one line overlap.
   */
  private stateTable(state: DiagramState): string {
    const name = state.kind === 'parallel' ? `${state.key} (parallel)` : state.key;
    const rows = [`<tr><td align="center"><b>${html(name)}</b></td></tr>`];
    const details: string[] = [];
    for (const action of state.entry) details.push(actionRow('entry', action));
    for (const action of state.exit) details.push(actionRow('exit', action));
    for (const actor of state.invoke) details.push(actionRow('invoke', actor));
    const internal = this.model.transitions.filter((t) => t.sourceId === state.id && t.targetIds.length === 0);
    for (const transition of internal) {
      const tooltip = `${transitionText(transition)} (handled without leaving ${state.key})${this.takenText(transition)}`;
      const times = this.taken(transition) > 0 ? ` (taken ${this.taken(transition)})` : '';
      details.push(
        `<tr><td align="left" id="${html(transition.id)}" tooltip="${html(tooltip)}">${html(transitionText(transition) + times)}</td></tr>`,
      );
    }
    const tables = this.tablesIn(state);
    if (tables > 0)
      rows.push(`<tr><td align="center"><font color="${FLEET_INK}">${tables} ${tables === 1 ? 'table' : 'tables'}</font></td></tr>`);
    if (details.length > 0) rows.push('<hr/>', ...details);
    return `<table border="0" cellborder="0" cellspacing="0" cellpadding="2">${rows.join('')}</table>`;
  }

  private writeInitialEdge(state: DiagramState, targetId: string): void {
    const target = stateOf(this.model, targetId);
    const list: [string, string][] = [
      ['id', quote(initialEdgeId(state.id, targetId))],
      ['class', quote('initial')],
      ['tooltip', quote(`${state.key} starts in ${target.key}`)],
    ];
    if (target.childIds.length > 0) list.push(['lhead', quote(`cluster_${target.id}`)]);
    this.lines.push(`  ${quote(initialNodeId(state.id))} -> ${quote(this.entryPoint(target))} [${attributes(list)}];`);
  }

  private writeTransition(transition: DiagramTransition): void {
    const source = stateOf(this.model, transition.sourceId);
    const edgeIds = edgeIdsOf(transition);
    transition.targetIds.forEach((targetId, index) => {
      const target = stateOf(this.model, targetId);
      const list: [string, string][] = [
        ['id', quote(edgeIds[index])],
        ['class', quote(`transition ${transition.event === 'always' ? 'eventless' : 'event'}`)],
        ['label', `<${edgeLabel(transition)}>`],
        ['tooltip', quote(transitionText(transition) + this.takenText(transition))],
      ];
      if (transition.event === 'always') list.push(['style', 'dashed']);
      if (this.taken(transition) > 0) {
        // From 1 (taken once, or by the least taken) to 7 (the most taken), by the share of the most taken.
        list.push(['penwidth', (1 + (6 * this.taken(transition)) / this.mostTaken()).toFixed(2)], ['color', quote(FLEET_INK)]);
        list[1] = ['class', quote(`transition ${transition.event === 'always' ? 'eventless' : 'event'} fleet`)];
      }
      // A cluster is reached through a node inside it, the edge clipped at the cluster's border.
      if (source.childIds.length > 0 && !isWithin(this.model, target.id, source.id)) {
        list.push(['ltail', quote(`cluster_${source.id}`)]);
      }
      if (target.childIds.length > 0 && !isWithin(this.model, source.id, target.id)) {
        list.push(['lhead', quote(`cluster_${target.id}`)]);
      }
      const tail = transition.event === 'done' ? this.exitPoint(source) : this.entryPoint(source);
      this.lines.push(`  ${quote(tail)} -> ${quote(this.entryPoint(target))} [${attributes(list)}];`);
    });
  }

  private tablesIn(state: DiagramState): number {
    return this.fleet?.tablesIn.get(state.id) ?? 0;
  }

  /** The most live tables in one leaf state: the darkest shade. */
  private mostTables(): number {
    const leaves = this.model.states.filter((state) => state.childIds.length === 0);
    return Math.max(1, ...leaves.map((state) => this.tablesIn(state)));
  }

  private taken(transition: DiagramTransition): number {
    return this.fleet?.taken.get(transition.id) ?? 0;
  }

  private mostTaken(): number {
    return Math.max(1, ...(this.fleet?.taken.values() ?? []));
  }

  private takenText(transition: DiagramTransition): string {
    const times = this.taken(transition);
    return times === 0 ? '' : ` (taken ${times} ${times === 1 ? 'time' : 'times'})`;
  }

  /** The node an edge into a state meets: the state itself, or its initial pseudo-state. */
  private entryPoint(state: DiagramState): string {
    if (state.childIds.length === 0) return state.id;
    if (state.kind === 'compound') return initialNodeId(state.id);
    return this.entryPoint(stateOf(this.model, state.childIds[0]));
  }

  /** Where a compound state's "done" edge leaves from: a final child when it has one. */
  private exitPoint(state: DiagramState): string {
    const final = state.childIds.map((id) => stateOf(this.model, id)).find((child) => child.kind === 'final');
    return final !== undefined ? final.id : this.entryPoint(state);
  }
}

/** A fleet state's fill: from a pale blue (few of the tables) to a mid blue (the most), dark ink staying readable on it. */
function fleetShade(share: number): string {
  const pale = [232, 240, 254];
  const mid = [126, 164, 232];
  const channel = (index: number) => Math.round(pale[index] + (mid[index] - pale[index]) * Math.min(1, share));
  return `#${[0, 1, 2].map((index) => channel(index).toString(16).padStart(2, '0')).join('')}`;
}

function actionRow(when: 'entry' | 'exit' | 'invoke', action: string): string {
  return `<tr><td align="left">${when} / ${html(action)}</td></tr>`;
}

function edgeLabel(transition: DiagramTransition): string {
  const actions = actionsText(transition);
  const second = actions === '' ? '' : `<br/><font color="${MUTED}">${html(actions)}</font>`;
  return `${html(triggerText(transition))}${second}`;
}

function classes(base: string, kind: string, active: boolean): string {
  return [base, kind, ...(active ? ['active'] : [])].join(' ');
}

function attributes(list: readonly [string, string][]): string {
  return list.map(([name, value]) => `${name}=${value}`).join(', ');
}

function quote(value: string): string {
  return `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')}"`;
}

function html(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}
