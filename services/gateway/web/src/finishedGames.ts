/**
 * The fleet page's games that ended in the last hour, day or week (GET
 * /api/fleet?from=&to=): how many, how long their tables stayed in each
 * state and the transitions they took. The range runs to the end of the
 * current UTC hour, as the service counts finished games by the hour.
 */
import { fleetApi, type FinishedFleetReport } from './api.js';
import { h, replaceChildren } from './dom.js';
import { words } from './i18n/index.js';
import type { GameName } from '../../../../machines/table/options.js';

const HOUR_MS = 3_600_000;
/** The spans a page offers, in hours: the last hour, day or week. */
export const SPANS = [1, 24, 168] as const;

/** The last `hours` of finished games, as the service counts them: whole UTC hours, to the end of the current one. */
export function lastHours(hours: number): { readonly from: string; readonly to: string } {
  const to = (Math.floor(Date.now() / HOUR_MS) + 1) * HOUR_MS;
  return { from: hourText(to - hours * HOUR_MS), to: hourText(to) };
}

export interface FinishedGames {
  readonly element: HTMLElement;
  /** Asks again for the span chosen. */
  refresh(): Promise<void>;
}

export function finishedGames(game: GameName): FinishedGames {
  const said = words().fleetPage;
  const span = h(
    'select',
    { id: 'finished-span' },
    SPANS.map((hours) => h('option', { value: hours, selected: hours === 24 }, said.spans[hours])),
  );
  const content = h('div', { class: 'finished-content' });
  const element = h(
    'section',
    { class: 'finished-games', 'aria-labelledby': 'finished-heading' },
    h('h3', { id: 'finished-heading' }, said.endedHeading),
    h('p', {}, h('label', { for: 'finished-span' }, said.endedWithin), span),
    content,
  );
  const refresh = async () => {
    const { from, to } = lastHours(Number(span.value));
    const report = await fleetApi.finished(from, to);
    replaceChildren(content, ...finishedTables(report, game));
  };
  span.addEventListener('change', () => {
    refresh().catch(() => undefined);
  });
  return { element, refresh };
}

function hourText(ms: number): string {
  return new Date(ms).toISOString().replace('.000Z', 'Z');
}

function finishedTables(report: FinishedFleetReport, game: GameName): HTMLElement[] {
  const said = words().fleetPage;
  const groups = report.games.filter((group) => group.game === game);
  const ended = groups.reduce((total, group) => total + group.finished, 0);
  const path = (state: string) => state.split('.').slice(1).join(' › ') || state;
  const table = (caption: string, columns: readonly string[], rows: readonly (readonly (string | number)[])[]) =>
    h(
      'table',
      { class: 'finished-table' },
      h('caption', {}, caption),
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          columns.map((column) => h('th', { scope: 'col' }, column)),
        ),
      ),
      h(
        'tbody',
        {},
        rows.map((cells) =>
          h(
            'tr',
            {},
            cells.map((cell) => h('td', {}, cell)),
          ),
        ),
      ),
    );
  if (ended === 0) return [h('p', { class: 'muted finished-count' }, said.endedCount(0))];
  return [
    h('p', { class: 'finished-count' }, said.endedCount(ended)),
    table(
      said.dwellCaption,
      said.dwellColumns,
      groups.flatMap((group) =>
        group.dwell.map(({ state, visits, medianMs, p90Ms }) => [path(state), visits, said.duration(medianMs), said.duration(p90Ms)]),
      ),
    ),
    table(
      said.transitionsCaption,
      said.transitionColumns,
      groups.flatMap((group) => group.transitions.map(({ source, target, event, count }) => [path(source), path(target), event, count])),
    ),
  ];
}
