/**
 * The game's statechart with the table's current state highlighted. The SVG
 * (GET /machines/<game>.svg, drawn by services/diagram) is fetched once per
 * page and put inline; its state groups have the XState state ids as their
 * `id`. Each view the service sends carries `activeStates`, those ids for the
 * states the table is in, and highlighting is toggling the class `active` on
 * those groups (style.css colours them as the service's own highlighted
 * drawings do).
 */
import { h, replaceChildren } from './dom.js';

export interface LiveDiagram {
  /** The `<div id="diagram">` to place on the page. */
  readonly element: HTMLElement;
  /** Highlights exactly these states (ids, e.g. "sevenSuitors.trickPlay.leading"); kept until the SVG has arrived. */
  highlight(activeStates: readonly string[]): void;
}

const SVG_NS = 'http://www.w3.org/2000/svg';

export function liveDiagram(game: string, title: string): LiveDiagram {
  const caption = h('p', { class: 'diagram-state muted' });
  const drawing = h('div', { class: 'diagram-drawing' }, h('p', { class: 'muted' }, 'Loading the state diagram…'));
  const element = h(
    'section',
    { id: 'diagram', class: 'diagram', 'aria-label': 'State diagram' },
    h('h3', {}, 'State diagram'),
    caption,
    drawing,
  );
  let svg: SVGSVGElement | null = null;
  let wanted: readonly string[] = [];

  const apply = () => {
    const root = svg;
    caption.textContent = wanted.length === 0 ? '' : `Now in: ${statePath(wanted)}`;
    if (root === null) return;
    const active = new Set(wanted);
    for (const group of root.querySelectorAll<SVGGElement>('g.state')) group.classList.toggle('active', active.has(group.id));
    // What is highlighted now, for anyone (or any test) reading the page.
    element.dataset.active = [...root.querySelectorAll<SVGGElement>('g.state.active')].map((group) => group.id).join(' ');
  };

  const load = async () => {
    svg = await fetchDiagram(`/machines/${encodeURIComponent(game)}.svg`, title);
    replaceChildren(drawing, svg);
    apply();
  };
  load().catch(() => replaceChildren(drawing, h('p', { class: 'muted' }, 'The state diagram is not available.')));

  return {
    element,
    highlight(activeStates) {
      wanted = activeStates;
      apply();
    },
  };
}

/**
 * A statechart SVG (GET /machines/<game>.svg, with or without the fleet
 * overlay) fetched and made ready to put inline: scaled by the page, named
 * for screen readers. Refuses anything that is not an SVG.
 */
async function fetchDiagram(path: string, title: string): Promise<SVGSVGElement> {
  const response = await fetch(path);
  if (!response.ok) throw new Error(`GET ${path} answered ${response.status}`);
  return inlineDiagram(await response.text(), title);
}

export function inlineDiagram(text: string, title: string): SVGSVGElement {
  const parsed = new DOMParser().parseFromString(text, 'image/svg+xml');
  const drawn = parsed.documentElement;
  if (drawn.namespaceURI !== SVG_NS || drawn.localName !== 'svg' || parsed.querySelector('parsererror') !== null) {
    throw new Error('the state diagram is not an SVG');
  }
  const inline = document.importNode(drawn, true) as unknown as SVGSVGElement;
  // Scaled by the page (style.css) rather than drawn at Graphviz's fixed size; the viewBox keeps its proportions.
  inline.removeAttribute('width');
  inline.removeAttribute('height');
  inline.setAttribute('role', 'img');
  inline.setAttribute('aria-label', `State diagram of ${title}`);
  return inline;
}

/** The innermost active states, below the machine: "trickPlay › leading". */
function statePath(activeStates: readonly string[]): string {
  const innermost = activeStates.filter((id) => !activeStates.some((other) => other.startsWith(`${id}.`)));
  return innermost.map((id) => id.split('.').slice(1).join(' › ') || id).join(', ');
}
