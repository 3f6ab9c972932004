/**
 * What every seat and spectator sees of a table (RULES.md §8) beside the
 * felt: cards and suit chips, whose move it is, the scores, the tricks of
 * the hand so far, captured 7s and the per-hand score sheet. The table page
 * and the replay page both draw with these functions.
 */
import type { Card, Suit } from '../../../../machines/cards/card.js';
import type { CompletedTrick } from '../../../../machines/table/context.js';
import type { TableView } from '../../../../machines/view.js';
import { cardHelp, faceOf, SUIT_LOOKS, suitName } from './cards.js';
import { h } from './dom.js';
import { rulesOf } from '../../../../machines/games/rules/index.js';
import { seatsOfTeam, sideLabel, teamOf } from './sides.js';
import { words } from './i18n/index.js';
import { outcomeSentence, phaseWords, seatName, shortName } from './words.js';

/** A special card's name as printed on the small face, with a break allowed inside a long one (no hyphen shown, so the name reads the same). */
function specialFace(card: Card, name: string): (string | Node)[] {
  const parts = words().games.specialFaces[card] ?? [name];
  return parts.flatMap((part, index) => (index === 0 ? [part] : [h('wbr'), part]));
}

/** A card as a picture with its name for screen readers: "9♦" shown, "9 of Diamonds" read; its rules as a tooltip. */
export function cardFace(card: Card): HTMLElement {
  const { suit, rank } = faceOf(card);
  const look = suit === null ? null : SUIT_LOOKS[suit];
  return h(
    'span',
    { class: `card ${suit === null ? 'special' : `suit-${suit}`}`, title: cardHelp(card), 'data-card': card },
    h(
      'span',
      { class: 'face', 'aria-hidden': 'true' },
      h('span', { class: 'rank' }, suit === null ? specialFace(card, rank) : rank),
      look === null ? h('span', { class: 'pip special-pip' }, '✦') : h('span', { class: 'pip' }, look.symbol),
    ),
    h('span', { class: 'sr-only' }, suit === null ? rank : words().games.cardOf(rank, suitName(suit))),
  );
}

export function suitChip(suit: Suit): HTMLElement {
  const look = SUIT_LOOKS[suit];
  return h('span', { class: `suit-chip suit-${suit}` }, h('span', { 'aria-hidden': 'true' }, look.symbol), ` ${suitName(suit)}`);
}

/** Whose move it is, in a sentence. */
export function turnSentence(view: TableView): string {
  if (view.outcome?.finished) return words().gameOverSentence(outcomeSentence(view));
  if (view.phase === 'seating') {
    const open = view.seats.filter((seat) => seat.occupant === null).map((seat) => seat.seat);
    return words().waitingForSeats(open);
  }
  const own = view.awaiting.find((awaited) => awaited.seat === view.viewer);
  if (own !== undefined) return words().yourTurn[own.action];
  if (view.awaiting.length === 0) return `${phaseWords(view.phase)}.`;
  const action = view.awaiting[0].action;
  const names = view.awaiting.map((awaited) => shortName(view, awaited.seat));
  return words().waitingFor(names.join(', '), words().actions[action]);
}

/** Who took a trick: "Bo won", "Bo won, Cy captured", "Bo won; the cards were set aside". */
export function trickOutcome(view: TableView, trick: CompletedTrick): string {
  const winner = shortName(view, trick.winner);
  const table = words().table;
  if (trick.capturedBy === null) return table.wonSetAside(winner);
  if (trick.capturedBy === trick.winner) return table.won(winner);
  return table.wonCaptured(winner, shortName(view, trick.capturedBy));
}

export function trickPlays(view: TableView, trick: { plays: readonly { seat: number; card: Card }[] }, label: string): HTMLElement {
  return h(
    'ol',
    { class: 'plays', 'aria-label': label },
    trick.plays.map((play) => h('li', {}, cardFace(play.card), h('span', { class: 'who' }, shortName(view, play.seat)))),
  );
}

/** The tricks of the hand in play so far, newest first. */
export function tricksPanel(view: TableView): HTMLElement | null {
  const tricks = view.hand?.tricks ?? [];
  const table = words().table;
  return h(
    'details',
    { class: 'panel tricks-so-far', open: true },
    h('summary', {}, table.tricksThisHand(tricks.length)),
    tricks.length === 0
      ? h('p', { class: 'muted' }, table.noTrickYet)
      : h(
          'ol',
          { class: 'trick-list', reversed: true, tabindex: 0, 'aria-label': table.tricksNewestFirst },
          [...tricks]
            .reverse()
            .map((trick) =>
              h('li', {}, h('span', { class: 'trick-winner' }, trickOutcome(view, trick)), trickPlays(view, trick, table.cardsOfTrick)),
            ),
        ),
  );
}

export function sevensPanel(view: TableView): HTMLElement {
  const sevens = view.hand?.capturedSevens ?? [];
  const bySeat = new Map<number, Card[]>();
  for (const seven of [...sevens].sort((a, b) => a.seat - b.seat)) bySeat.set(seven.seat, [...(bySeat.get(seven.seat) ?? []), seven.card]);
  return h(
    'details',
    { class: 'panel sevens', open: true },
    h('summary', {}, words().table.capturedSevens),
    sevens.length === 0
      ? h('p', { class: 'muted' }, words().table.noSevensYet)
      : h(
          'ul',
          {},
          [...bySeat].map(([seat, cards]) =>
            h(
              'li',
              {},
              `${seatName(view, seat)} (${sideLabel(view, seat)}): `,
              cards.map((card) => cardFace(card)),
            ),
          ),
        ),
  );
}

/** The standing of the game: teams' marked suits and marriages in Seven Suitors, points otherwise. */
export function scoresPanel(view: TableView): HTMLElement {
  const table = words().table;
  const panel = h(
    'section',
    { class: 'panel scores', 'aria-labelledby': 'scores-heading' },
    h('h3', { id: 'scores-heading' }, words().scores),
  );
  if (view.marked !== null && view.marriageCount !== null) {
    const marked = view.marked;
    const counts = view.marriageCount;
    const ownTeam = view.viewer === 'spectator' ? null : teamOf(view.viewer);
    panel.append(
      h(
        'table',
        {},
        h(
          'thead',
          {},
          h(
            'tr',
            {},
            [table.teamHeading, table.suitsMarkedHeading, table.marriagesHeading].map((heading) => h('th', { scope: 'col' }, heading)),
          ),
        ),
        h(
          'tbody',
          {},
          (['A', 'B'] as const).map((team) =>
            h(
              'tr',
              { 'data-team': team, class: team === ownTeam ? 'own' : '' },
              h(
                'th',
                { scope: 'row' },
                team === ownTeam ? words().yourTeam(team) : words().team(team),
                h(
                  'span',
                  { class: 'team-seats' },
                  seatsOfTeam(team, view.seats.length)
                    .map((seat) => shortName(view, seat))
                    .join(' & '),
                ),
              ),
              h(
                'td',
                { class: 'marked' },
                marked[team].length === 0 ? table.none : marked[team].map(suitChip),
                ` (${marked[team].length}/7)`,
              ),
              h('td', { class: 'marriage-count' }, String(counts[team])),
            ),
          ),
        ),
      ),
    );
  } else {
    panel.append(
      h(
        'table',
        {},
        h(
          'thead',
          {},
          h(
            'tr',
            {},
            [table.playerHeading, table.sideHeading, table.pointsHeading].map((heading) => h('th', { scope: 'col' }, heading)),
          ),
        ),
        h(
          'tbody',
          {},
          view.seats.map((summary) =>
            h(
              'tr',
              { 'data-seat': summary.seat, class: summary.seat === view.viewer ? 'own' : '' },
              h('th', { scope: 'row' }, shortName(view, summary.seat)),
              h('td', {}, sideLabel(view, summary.seat)),
              h('td', { class: 'points' }, String(view.scores[summary.seat] ?? 0)),
            ),
          ),
        ),
      ),
    );
  }
  if (view.outcome?.finished) panel.append(h('p', { class: 'outcome', role: 'status' }, words().gameOverSentence(outcomeSentence(view))));
  return panel;
}

/** Hand by hand: trump, marriages and what each side scored. */
export function scoreSheet(view: TableView): HTMLElement {
  const results = view.handResults;
  const byTeam = rulesOf(view.game).marksSuits;
  const columns = byTeam ? [words().team('A'), words().team('B')] : view.seats.map((seat) => shortName(view, seat.seat));
  const table = words().table;
  return h(
    'details',
    { class: 'panel score-sheet', open: results.length > 0 },
    h('summary', {}, table.scoreSheetOf(results.length)),
    results.length === 0
      ? h('p', { class: 'muted' }, table.noHandScored)
      : h(
          'div',
          { class: 'scroll-x', tabindex: 0, role: 'region', 'aria-label': table.scoreSheet },
          h(
            'table',
            {},
            h(
              'thead',
              {},
              h(
                'tr',
                {},
                h('th', { scope: 'col' }, table.handHeading),
                h('th', { scope: 'col' }, table.trumpHeading),
                columns.map((name) => h('th', { scope: 'col' }, name)),
              ),
            ),
            h(
              'tbody',
              {},
              results.map((result, index) =>
                h(
                  'tr',
                  {},
                  h('th', { scope: 'row' }, String(index + 1)),
                  h('td', {}, result.trump === null ? '–' : suitChip(result.trump)),
                  byTeam
                    ? (['A', 'B'] as const).map((team) => {
                        const married = result.marriages.filter((marriage) => marriage.by === team).map((marriage) => marriage.suit);
                        return h('td', {}, married.length === 0 ? '–' : married.map(suitChip));
                      })
                    : result.handScores.map((score) => h('td', { class: 'points' }, score > 0 ? `+${score}` : String(score))),
                ),
              ),
            ),
            h('tfoot', {}, scoreSheetTotals(results, byTeam, columns.length)),
          ),
        ),
  );
}

/** The sheet's last row: each seat's points so far, or each team's marriages. */
function scoreSheetTotals(results: TableView['handResults'], byTeam: boolean, columns: number): HTMLElement {
  const totals = byTeam
    ? (['A', 'B'] as const).map((team) => {
        const count = results.reduce((sum, result) => sum + result.marriages.filter((marriage) => marriage.by === team).length, 0);
        return words().table.marriages(count);
      })
    : Array.from({ length: columns }, (_, seat) => String(results.reduce((sum, result) => sum + (result.handScores[seat] ?? 0), 0)));
  return h(
    'tr',
    {},
    h('th', { scope: 'row', colspan: 2 }, words().table.total),
    totals.map((total) => h('td', { class: 'points total' }, total)),
  );
}
