/**
 * A diagram model as Mermaid stateDiagram-v2 text, for pasting into docs.
 *
 * Mermaid state ids allow only letters, digits and "_", so each state's
 * Mermaid id is its XState id with every other character made "_", and it is
 * shown by its own name. Mermaid has no ids for transitions: each transition's
 * line is preceded by a comment "%% <transition id>", each state's by
 * "%% <state id>", so the text can be checked against the definition.
 *
 * A targetless transition, which runs its actions without leaving its state,
 * is a line of that state's box (UML's internal transitions), as are entry
 * and exit actions; for a compound state, which Mermaid draws without such
 * lines, they are a note beside it. So are the actors a state invokes.
 */
import { isWithin, stateOf, transitionText, type DiagramModel, type DiagramState, type DiagramTransition } from './model.js';

export function mermaidIdOf(stateId: string): string {
  return stateId.replace(/[^A-Za-z0-9_]/g, '_');
}

export function toMermaid(model: DiagramModel): string {
  assertDistinctMermaidIds(model);
  const lines = [
    'stateDiagram-v2',
    `  %% ${model.id}: generated from the machine definition (services/diagram); regenerate it, do not edit it.`,
  ];
  const root = model.states[0];
  writeState(model, root, 1, lines);
  lines.push(...noteLines(model, root, 1));
  return `${lines.join('\n')}\n`;
}

function assertDistinctMermaidIds(model: DiagramModel): void {
  const seen = new Map<string, string>();
  for (const state of model.states) {
    const id = mermaidIdOf(state.id);
    const other = seen.get(id);
    if (other !== undefined) throw new Error(`states ${other} and ${state.id} would share the Mermaid id ${id}`);
    seen.set(id, state.id);
  }
}

function writeState(model: DiagramModel, state: DiagramState, depth: number, lines: string[]): void {
  const pad = '  '.repeat(depth);
  const id = mermaidIdOf(state.id);
  lines.push(`${pad}%% ${state.id}`);
  lines.push(`${pad}state "${text(state.key)}" as ${id}`);
  if (state.childIds.length === 0) {
    for (const line of boxLines(model, state)) {
      if (line.transitionId !== null) lines.push(`${pad}%% ${line.transitionId}`);
      lines.push(`${pad}${id} : ${text(line.text)}`);
    }
    return;
  }
  lines.push(`${pad}state ${id} {`);
  const inner = `${pad}  `;
  const children = state.childIds.map((childId) => stateOf(model, childId));
  children.forEach((child, index) => {
    if (state.kind === 'parallel' && index > 0) lines.push(`${inner}--`);
    writeState(model, child, depth + 1, lines);
    lines.push(...noteLines(model, child, depth + 1));
  });
  for (const targetId of state.initialIds) lines.push(`${inner}[*] --> ${mermaidIdOf(targetId)}`);
  for (const child of children) if (child.kind === 'final') lines.push(`${inner}${mermaidIdOf(child.id)} --> [*]`);
  for (const transition of model.transitions) {
    if (transition.targetIds.length === 0 || containerOf(model, transition) !== state.id) continue;
    lines.push(`${inner}%% ${transition.id}`);
    for (const targetId of transition.targetIds) {
      lines.push(`${inner}${mermaidIdOf(transition.sourceId)} --> ${mermaidIdOf(targetId)} : ${text(transitionText(transition))}`);
    }
  }
  lines.push(`${pad}}`);
}

/**
 * The block a transition's lines go in: the innermost state holding both its
 * source and its targets, since Mermaid cannot draw a transition declared in
 * a block that does not hold both ends.
 */
function containerOf(model: DiagramModel, transition: DiagramTransition): string {
  const source = stateOf(model, transition.sourceId);
  let container = source.parentId ?? source.id;
  while (!transition.targetIds.every((target) => isWithin(model, target, container) && target !== container)) {
    const parent = stateOf(model, container).parentId;
    if (parent === null) return container;
    container = parent;
  }
  return container;
}

interface BoxLine {
  readonly text: string;
  readonly transitionId: string | null;
}

function boxLines(model: DiagramModel, state: DiagramState): BoxLine[] {
  return [
    ...(state.history === null ? [] : [{ text: `${state.history} history`, transitionId: null }]),
    ...state.entry.map((action) => ({ text: `entry / ${action}`, transitionId: null })),
    ...state.exit.map((action) => ({ text: `exit / ${action}`, transitionId: null })),
    ...state.invoke.map((actor) => ({ text: `invoke / ${actor}`, transitionId: null })),
    ...model.transitions
      .filter((transition) => transition.sourceId === state.id && transition.targetIds.length === 0)
      .map((transition) => ({ text: transitionText(transition), transitionId: transition.id })),
  ];
}

/** A compound state's entry and exit actions and internal transitions, as a note beside it. */
function noteLines(model: DiagramModel, state: DiagramState, depth: number): string[] {
  if (state.childIds.length === 0) return [];
  const box = boxLines(model, state);
  if (box.length === 0) return [];
  const pad = '  '.repeat(depth);
  const lines = [`${pad}note right of ${mermaidIdOf(state.id)}`];
  for (const line of box) {
    if (line.transitionId !== null) lines.push(`${pad}  %% ${line.transitionId}`);
    lines.push(`${pad}  ${text(line.text)}`);
  }
  lines.push(`${pad}end note`);
  return lines;
}

const MERMAID_ENTITIES: Record<string, string> = { '#': '#35;', ';': '#59;', '"': '#quot;', '\n': ' ' };

/** Mermaid reads ";" as the end of a statement and "#" as the start of an entity, so both are written as entities. */
function text(value: string): string {
  return value.replace(/[#;"\n]/g, (character) => MERMAID_ENTITIES[character]);
}
