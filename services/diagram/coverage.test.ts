/**
 * Every state node and every transition of each game's machine, read from
 * the definition, appears by id in its DOT, Mermaid and SVG diagrams.
 */
import { describe, expect, it } from 'vitest';
import { toDirectedGraph } from '@xstate/graph';
import { MACHINES } from '../../machines/games/index.js';
import { definitionOf, expectDotToShow, expectMermaidToShow, expectSvgToShow } from '../../test/diagramChecks.js';
import { toDot } from './dot.js';
import { toMermaid } from './mermaid.js';
import { diagramModelOf, eventLabel } from './model.js';
import { renderSvg } from './svg.js';

type GraphNode = ReturnType<typeof toDirectedGraph>;

function graphEdges(graph: GraphNode): { source: string; target: string; event: string }[] {
  return [
    ...graph.edges.map((edge) => ({
      source: edge.source.id,
      target: edge.target.id,
      event: eventLabel(edge.transition.eventType, edge.source.id),
    })),
    ...graph.children.flatMap(graphEdges),
  ];
}

describe.each(Object.entries(MACHINES))('the %s diagram', (_game, machine) => {
  const model = diagramModelOf(machine);
  const definition = definitionOf(machine);

  it('models exactly the states and transitions of the definition', () => {
    expect(model.states.map((state) => state.id)).toEqual(definition.states.map((state) => state.id));
    expect(model.transitions.map((t) => t.id).sort()).toEqual(definition.transitions.map((t) => t.id).sort());
    for (const expected of definition.transitions) {
      const transition = model.transitions.find((candidate) => candidate.id === expected.id)!;
      expect(transition.targetIds).toEqual(expected.targetIds);
      expect(transition.guard).toBe(expected.guard);
    }
  });

  it('holds every edge @xstate/graph finds, and the eventless ones it leaves out', () => {
    const edges = graphEdges(toDirectedGraph(machine));
    for (const edge of edges) {
      const modelled = model.transitions.some(
        (t) =>
          t.sourceId === edge.source &&
          t.event === edge.event &&
          (t.targetIds.includes(edge.target) || (t.targetIds.length === 0 && edge.target === edge.source)),
      );
      expect(modelled, `${edge.source} --${edge.event}--> ${edge.target}`).toBe(true);
    }
    const eventless = model.transitions.filter((t) => t.event === 'always');
    expect(eventless.length).toBeGreaterThan(0);
    expect(edges.filter((edge) => edge.event === 'always')).toEqual([]);
  });

  it('labels transitions with their event and named guard, and shows entry actions', () => {
    const labelled = model.transitions.filter((t) => t.guard !== null);
    expect(labelled.length).toBeGreaterThan(0);
    for (const transition of labelled) expect(transition.guard).toMatch(/^[a-z][A-Za-z]+$/);
    expect(model.states.find((state) => state.key === 'scoring')!.entry).toEqual(['scoreHand']);
    expect(model.states.find((state) => state.key === 'trickPlay')!.entry).toEqual(['startFirstTrick']);
    expect(model.transitions.find((t) => t.sourceId.endsWith('.trickPlay'))!.event).toBe('done');
  });

  it('shows every state and transition in its DOT, by id', () => {
    expectDotToShow(machine, model, toDot(model));
  });

  it('shows every state and transition in its Mermaid text, by id', () => {
    expectMermaidToShow(machine, toMermaid(model));
  });

  it('shows every state and transition in its SVG, by id', async () => {
    expectSvgToShow(machine, model, await renderSvg(toDot(model)));
  });

  it('writes the same text every time', () => {
    const again = diagramModelOf(machine);
    expect(toDot(again)).toBe(toDot(model));
    expect(toMermaid(again)).toBe(toMermaid(model));
  });
});
