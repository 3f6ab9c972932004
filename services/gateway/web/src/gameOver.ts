/**
 * The end of a game: won or lost from the viewer's side, the standings
 * ranked, and a rematch (a new table through POST /api/tables with the same
 * game, options, turn clock and kinds of seat: the bots the table was made
 * with, and open seats for the people, the viewer in their own seat).
 */
import type { TableView } from '../../../../machines/view.js';
import { api, type BotKind, type NewTable } from './api.js';
import { suitChip } from './board.js';
import { h } from './dom.js';
import { joinSeat } from './seatJoin.js';
import { openedTables, rememberOpenedTable } from './seatTokens.js';
import { seatsOfTeam, teamOf } from './sides.js';
import { outcomeForViewer, outcomeSentence, shortName } from './words.js';

const HEADLINES = { won: 'You won!', lost: 'You lost', draw: 'A draw', watched: 'Game over' } as const;

/** A bot the table was made with ("Heuristic bot 2", "Random bot 3"), not one standing in for a player who left. */
function botKindOf(name: string): BotKind | null {
  if (/^Heuristic bot \d+$/.test(name)) return 'heuristic';
  if (/^Random bot \d+$/.test(name)) return 'random';
  return null;
}

export function rematchRequest(view: TableView, turnSeconds: number | null): NewTable {
  const bots = view.seats.flatMap((summary) => {
    const kind = summary.occupant?.bot ? botKindOf(summary.occupant.name) : null;
    return kind === null ? [] : [{ seat: summary.seat, kind }];
  });
  return {
    game: view.game,
    options: Object.fromEntries(Object.entries(view.options).map(([name, value]) => [name, String(value)])),
    bots,
    ...(turnSeconds === null ? {} : { turnSeconds }),
  };
}

/** Opens the rematch table and takes the viewer's seat there; resolves to the new table's id. */
export async function rematch(view: TableView, tableId: string, seat: number, name: string): Promise<string> {
  const turnSeconds = openedTables()[tableId]?.turnSeconds ?? null;
  const { tableId: next } = await api.createTable(rematchRequest(view, turnSeconds));
  rememberOpenedTable(next, { turnSeconds, rematchOf: tableId });
  await joinSeat(next, seat, name);
  return next;
}

export function gameOverHeadline(view: TableView): HTMLElement {
  const result = outcomeForViewer(view);
  return h(
    'div',
    { class: `game-over-headline ${result}` },
    h('p', { class: 'headline' }, HEADLINES[result]),
    h('p', { class: 'outcome' }, outcomeSentence(view)),
  );
}

/** The final standings, best first: teams by suits marked then marriages in Seven Suitors, players by points otherwise. */
export function standings(view: TableView): HTMLElement {
  if (view.marked !== null && view.marriageCount !== null) {
    const marked = view.marked;
    const counts = view.marriageCount;
    const teams = (['A', 'B'] as const).slice().sort((a, b) => marked[b].length - marked[a].length || counts[b] - counts[a]);
    const ownTeam = view.viewer === 'spectator' ? null : teamOf(view.viewer);
    return h(
      'table',
      { class: 'standings' },
      h('caption', {}, 'Final standings'),
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          ['#', 'Team', 'Suits marked', 'Marriages'].map((heading) => h('th', { scope: 'col' }, heading)),
        ),
      ),
      h(
        'tbody',
        {},
        teams.map((team, index) =>
          h(
            'tr',
            { class: team === ownTeam ? 'own' : '', 'data-team': team },
            // Level teams share a place.
            h(
              'td',
              {},
              index > 0 && marked[team].length === marked[teams[0]].length && counts[team] === counts[teams[0]] ? '1' : String(index + 1),
            ),
            h(
              'th',
              { scope: 'row' },
              `${team === ownTeam ? 'Your team' : 'Team'} ${team}: ${seatsOfTeam(team, view.seats.length)
                .map((seat) => shortName(view, seat))
                .join(' & ')}`,
            ),
            h('td', {}, `${marked[team].length}/7 `, marked[team].map(suitChip)),
            h('td', {}, String(counts[team])),
          ),
        ),
      ),
    );
  }
  const order = view.seats.map((summary) => summary.seat).sort((a, b) => (view.scores[b] ?? 0) - (view.scores[a] ?? 0) || a - b);
  let rank = 0;
  return h(
    'table',
    { class: 'standings' },
    h('caption', {}, 'Final standings'),
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        ['#', 'Player', 'Points'].map((heading) => h('th', { scope: 'col' }, heading)),
      ),
    ),
    h(
      'tbody',
      {},
      order.map((seat, index) => {
        if (index === 0 || view.scores[seat] !== view.scores[order[index - 1]]) rank = index + 1;
        return h(
          'tr',
          { class: seat === view.viewer ? 'own' : '', 'data-seat': seat },
          h('td', {}, String(rank)),
          h(
            'th',
            { scope: 'row' },
            shortName(view, seat),
            view.outcome?.winners.includes(seat) ? h('span', { class: 'winner-mark' }, ' winner') : null,
          ),
          h('td', {}, String(view.scores[seat] ?? 0)),
        );
      }),
    ),
  );
}
