/**
 * The fleet on a game's diagram (#/fleet/<game>): the statechart with the
 * fleet overlay drawn by the service (GET /machines/<game>.svg?fleet=1:
 * each state shaded and labelled with its live tables, each transition as
 * thick as it has been taken; or, picked above it, the transitions of the
 * games that ended in the last hour, day or week), the same counts in a table for those who do
 * not read the drawing, a line of totals (GET /api/fleet), and the games
 * that ended lately (finishedGames.ts). All are asked for again every few
 * seconds while the page is shown
 * (pagePolling.ts); the drawing is replaced only when its ETag changes.
 */
import { fleetApi, type FleetGame } from './api.js';
import { inlineDiagram } from './diagram.js';
import { finishedGames, lastHours, SPANS } from './finishedGames.js';
import { h, replaceChildren } from './dom.js';
import { words } from './i18n/index.js';
import { failureWords } from './i18n/refusals.js';
import { pollWhileShown } from './pagePolling.js';
import { gameTitle } from './words.js';
import { GAME_NAMES, type GameName } from '../../../../machines/table/options.js';

/** How often the page asks again: the service redraws an overlay at most every 2 s. */
const FLEET_REFRESH_MS = 5_000;

export function showFleet(root: HTMLElement, game: GameName): () => void {
  const said = words().fleetPage;
  const title = gameTitle(game);
  const summary = h('p', { class: 'fleet-summary' }, said.loading);
  const drawing = h('div', { class: 'diagram-drawing' }, h('p', { class: 'muted' }, said.loading));
  const states = h('div', { class: 'fleet-states' });
  // What the diagram draws: the tables in play, or the games that ended in the last hour, day or week.
  const drawn = h(
    'select',
    { id: 'fleet-drawn' },
    h('option', { value: 'live', selected: true }, said.drawnLive),
    SPANS.map((hours) => h('option', { value: hours }, said.drawnEnded[hours])),
  );
  const diagram = h(
    'section',
    { id: 'fleet-diagram', class: 'diagram', 'aria-label': `${said.title}: ${title}` },
    h('p', {}, h('label', { for: 'fleet-drawn' }, said.drawnLabel), drawn),
    drawing,
  );
  const finished = finishedGames(game);
  replaceChildren(
    root,
    h('h2', {}, `${said.title} · ${title}`),
    h('p', { class: 'muted' }, said.explained),
    h(
      'nav',
      { class: 'fleet-games', 'aria-label': said.games },
      GAME_NAMES.map((name) => h('a', { href: `#/fleet/${name}`, 'aria-current': name === game ? 'page' : null }, gameTitle(name))),
    ),
    summary,
    diagram,
    states,
    finished.element,
  );

  let drawnEtag: string | null = null;
  let groups: readonly FleetGame[] = [];
  let asOf = '';
  let paused = false;
  let problem: string | null = null;
  const say = () => {
    const sum = (count: (group: FleetGame) => number) => groups.reduce((total, group) => total + count(group), 0);
    const totals = said.summary(
      sum((group) => group.tables),
      sum((group) => group.finished),
      sum((group) => group.quarantined),
    );
    replaceChildren(
      summary,
      `${totals}${asOf === '' ? '' : said.asOf(asOf)}${paused ? said.paused : ''}`,
      problem === null ? null : h('span', { class: 'error' }, ` ${said.failed(problem)}`),
    );
  };

  const refresh = async () => {
    try {
      const range = drawn.value === 'live' ? undefined : lastHours(Number(drawn.value));
      const [report, overlay] = await Promise.all([fleetApi.fleet(), fleetApi.overlay(game, range), finished.refresh()]);
      groups = report.games.filter((group) => group.game === game);
      asOf = new Date(report.asOf).toLocaleTimeString();
      problem = null;
      if (overlay.etag === null || overlay.etag !== drawnEtag) {
        replaceChildren(drawing, inlineDiagram(overlay.svg, title));
        drawnEtag = overlay.etag;
      }
      replaceChildren(states, statesTable(groups));
      diagram.dataset.asOf = report.asOf;
      diagram.dataset.drawn = range === undefined ? 'live' : `${range.from}/${range.to}`;
    } catch (error) {
      problem = failureWords(error);
      throw error;
    } finally {
      say();
    }
  };

  drawn.addEventListener('change', () => {
    refresh().catch(() => undefined);
  });
  return pollWhileShown(refresh, {
    everyMs: FLEET_REFRESH_MS,
    onPaused: (hidden) => {
      paused = hidden;
      say();
    },
  });
}

/** Live tables per state over a game's rules versions, each state's path below the machine ("trickPlay › leading"). */
export function statesTable(groups: readonly FleetGame[], caption = words().fleetPage.statesCaption): HTMLElement {
  const said = words().fleetPage;
  const counts = new Map<string, number>();
  for (const { state, tables } of groups.flatMap((group) => group.states)) counts.set(state, (counts.get(state) ?? 0) + tables);
  // The root counts every live table; the summary says that.
  const rows = [...counts].filter(([state]) => state.includes('.'));
  if (rows.length === 0) return h('p', { class: 'muted' }, said.noTables);
  return h(
    'table',
    { class: 'fleet-states-table' },
    h('caption', {}, caption),
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        said.stateColumns.map((column) => h('th', { scope: 'col' }, column)),
      ),
    ),
    h(
      'tbody',
      {},
      rows.map(([state, tables]) =>
        h('tr', { 'data-state': state }, h('td', {}, state.split('.').slice(1).join(' › ')), h('td', { class: 'count' }, tables)),
      ),
    ),
  );
}
