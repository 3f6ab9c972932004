/**
 * For the tests: what a machine's definition says must appear in its
 * diagrams, read independently of the model (from `machine.toJSON()`, plus
 * the eventless transitions it leaves out), and the ids each output carries.
 */
import { expect } from 'vitest';
import type { AnyStateMachine } from 'xstate';
import { edgeIdsOf, initialEdgeId, initialNodeId, svgIdOf } from '../services/diagram/dot.js';
import { mermaidIdOf } from '../services/diagram/mermaid.js';
import { eventLabel, guardName, transitionId, type DiagramModel } from '../services/diagram/model.js';

export interface ExpectedState {
  readonly id: string;
  readonly key: string;
  readonly leaf: boolean;
  readonly compound: boolean;
  readonly initialIds: readonly string[];
}

export interface ExpectedTransition {
  readonly id: string;
  readonly sourceId: string;
  readonly targetIds: readonly string[];
  readonly event: string;
  readonly guard: string | null;
}

interface StateJson {
  id: string;
  key: string;
  type: string;
  initial?: { target: string[] };
  states: Record<string, StateJson>;
  transitions: { eventType: string; target?: string[]; guard?: unknown }[];
}

export function definitionOf(machine: AnyStateMachine): { states: ExpectedState[]; transitions: ExpectedTransition[] } {
  const states: ExpectedState[] = [];
  const transitions: ExpectedTransition[] = [];
  const visit = (json: StateJson): void => {
    const children = Object.values(json.states);
    states.push({
      id: json.id,
      key: json.key,
      leaf: children.length === 0,
      compound: json.type === 'compound',
      initialIds: json.type === 'compound' ? (json.initial?.target ?? []).map(withoutHash) : [],
    });
    const byEvent = new Map<string, number>();
    const add = (eventType: string, target: readonly string[] | undefined, guard: unknown) => {
      const priority = byEvent.get(eventType) ?? 0;
      byEvent.set(eventType, priority + 1);
      const event = eventLabel(eventType, json.id);
      transitions.push({
        id: transitionId(json.id, event, priority),
        sourceId: json.id,
        targetIds: (target ?? []).map(withoutHash),
        event,
        guard: guardName(guard),
      });
    };
    for (const transition of json.transitions) add(transition.eventType, transition.target, transition.guard);
    // toJSON() has no eventless transitions; the state node itself does.
    for (const transition of machine.getStateNodeById(json.id).always ?? []) {
      add(
        '',
        transition.target?.map((node: { id: string }) => `#${node.id}`),
        transition.guard,
      );
    }
    for (const child of children) visit(child);
  };
  // Serialised as JSON.stringify would, which is how toJSON() names states ("#id") rather than holding them.
  visit(JSON.parse(JSON.stringify(machine.toJSON())) as StateJson);
  return { states, transitions };
}

function withoutHash(target: string): string {
  return target.startsWith('#') ? target.slice(1) : target;
}

/** Every id attribute in an SVG, entities decoded as a browser would. */
function svgIdsOf(svg: string): Set<string> {
  return new Set([...svg.matchAll(/\sid="([^"]*)"/g)].map((match) => decodeXml(match[1])));
}

/** The ids of the SVG groups Graphviz marked with the class "active". */
export function activeSvgIdsOf(svg: string): string[] {
  return [...svg.matchAll(/<g id="([^"]*)" class="([^"]*)"/g)]
    .filter((match) => match[2].split(' ').includes('active'))
    .map((match) => decodeXml(match[1]));
}

function decodeXml(value: string): string {
  return value
    .replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code)))
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&');
}

interface DotEdge {
  readonly tail: string;
  readonly head: string;
  readonly attributes: string;
}

function dotEdgesOf(dot: string): Map<string, DotEdge> {
  const edges = new Map<string, DotEdge>();
  for (const match of dot.matchAll(/^\s*"([^"]+)" -> "([^"]+)" \[id="([^"]+)"(.*)\];$/gm)) {
    edges.set(match[3], { tail: match[1], head: match[2], attributes: match[4] });
  }
  return edges;
}

/** Every state and transition of the definition is in the DOT, by id, where the definition puts it. */
export function expectDotToShow(machine: AnyStateMachine, model: DiagramModel, dot: string): void {
  const { states, transitions } = definitionOf(machine);
  const edges = dotEdgesOf(dot);
  for (const state of states) {
    if (state.leaf) expect(dot, state.id).toContain(`  "${state.id}" [id="${state.id}", `);
    else
      expect(dot, state.id).toMatch(new RegExp(`subgraph "cluster_${escapeRegExp(state.id)}" \\{\\n\\s*id="${escapeRegExp(state.id)}";`));
    for (const target of state.initialIds) {
      const edge = edges.get(initialEdgeId(state.id, target));
      expect(edge, `${state.id}'s initial edge`).toBeDefined();
      expect(edge!.tail).toBe(initialNodeId(state.id));
    }
  }
  for (const expected of transitions) {
    const transition = model.transitions.find((candidate) => candidate.id === expected.id);
    expect(transition, expected.id).toBeDefined();
    if (expected.targetIds.length === 0) {
      expect(dot, expected.id).toMatch(new RegExp(`<td align="left" id="${escapeRegExp(expected.id)}" tooltip="[^"]*">`));
      continue;
    }
    edgeIdsOf(transition!).forEach((edgeId, index) => {
      const edge = edges.get(edgeId);
      expect(edge, edgeId).toBeDefined();
      const target = expected.targetIds[index];
      const reachesTarget = edge!.head === target || edge!.attributes.includes(`lhead="cluster_${target}"`);
      expect(reachesTarget, `${edgeId} reaches ${target}`).toBe(true);
      expect(edge!.attributes).toContain(expected.event);
      if (expected.guard !== null) expect(edge!.attributes).toContain(`[${expected.guard}]`);
    });
  }
}

/** Every state and transition of the definition is in the Mermaid text, each line under its id's comment. */
export function expectMermaidToShow(machine: AnyStateMachine, mermaid: string): void {
  const { states, transitions } = definitionOf(machine);
  const lines = mermaid.split('\n').map((line) => line.trim());
  const after = (comment: string): string[] => {
    const index = lines.indexOf(`%% ${comment}`);
    expect(index, `"%% ${comment}" in the Mermaid text`).toBeGreaterThanOrEqual(0);
    return lines.slice(index + 1);
  };
  for (const state of states) {
    expect(after(state.id)[0]).toBe(`state "${state.key}" as ${mermaidIdOf(state.id)}`);
    for (const target of state.initialIds) expect(lines).toContain(`[*] --> ${mermaidIdOf(target)}`);
  }
  for (const expected of transitions) {
    const following = after(expected.id);
    const source = mermaidIdOf(expected.sourceId);
    if (expected.targetIds.length === 0) {
      // A line of the state's box, or of the note beside a compound state.
      expect(following[0]).toMatch(new RegExp(`^(${source} : )?.*${escapeRegExp(expected.event)}`));
      continue;
    }
    expected.targetIds.forEach((target, index) => {
      expect(following[index].startsWith(`${source} --> ${mermaidIdOf(target)} : `), following[index]).toBe(true);
      expect(following[index]).toContain(expected.event);
      if (expected.guard !== null) expect(following[index]).toContain(`[${expected.guard}]`);
    });
  }
}

/** Every state and transition of the definition is an element of the SVG, by id. */
export function expectSvgToShow(machine: AnyStateMachine, model: DiagramModel, svg: string): void {
  const { states, transitions } = definitionOf(machine);
  const ids = svgIdsOf(svg);
  for (const state of states) expect(ids.has(state.id), state.id).toBe(true);
  for (const expected of transitions) {
    const transition = model.transitions.find((candidate) => candidate.id === expected.id)!;
    const svgIds = expected.targetIds.length === 0 ? [svgIdOf(model, expected.id)] : edgeIdsOf(transition);
    for (const id of svgIds) expect(ids.has(id), id).toBe(true);
  }
}

function escapeRegExp(value: string): string {
  return value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
