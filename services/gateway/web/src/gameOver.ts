/** The end of a game: won or lost from the viewer's side, and the standings ranked (the rematch: rematchOffer.ts). */
import type { TableView } from '../../../../machines/view.js';
import { suitChip } from './board.js';
import { h } from './dom.js';
import { words } from './i18n/index.js';
import { seatsOfTeam, teamOf } from './sides.js';
import { outcomeForViewer, shortName, winnersSentence } from './words.js';

export function gameOverHeadline(view: TableView): HTMLElement {
  const result = outcomeForViewer(view);
  return h(
    'div',
    { class: `game-over-headline ${result}` },
    h('p', { class: 'headline' }, words().headlines[result]),
    h('p', { class: 'outcome' }, winnersSentence(view)),
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
      h('caption', {}, words().finalStandings),
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          words().teamColumns.map((heading) => h('th', { scope: 'col' }, heading)),
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
              `${team === ownTeam ? words().yourTeam(team) : words().team(team)}: ${seatsOfTeam(team, view.seats.length)
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
    h('caption', {}, words().finalStandings),
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        words().playerColumns.map((heading) => h('th', { scope: 'col' }, heading)),
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
            view.outcome?.winners.includes(seat) ? h('span', { class: 'winner-mark' }, words().winnerMark) : null,
          ),
          h('td', {}, String(view.scores[seat] ?? 0)),
        );
      }),
    ),
  );
}
