/**
 * What every seat and spectator sees of a table (RULES.md §8), drawn from a
 * TableView: seats, trump, the trick, captured 7s, scores and results. The
 * table page and the replay page both draw with these functions.
 */
import type { Card, Suit } from '../../../../machines/cards/card.js';
import type { CompletedTrick, Marriage } from '../../../../machines/table/context.js';
import type { Phase } from '../../../../machines/table/snapshot.js';
import type { TableView } from '../../../../machines/view.js';
import { cardName, faceOf, SUIT_LOOKS, suitName } from './cards.js';
import { h } from './dom.js';
import { seatsOfTeam, sideLabel } from './sides.js';

const PHASE_NAMES: Record<Phase, string> = {
  seating: 'Waiting for players',
  dealing: 'Dealing',
  passing: 'Passing',
  trickPlay: 'Trick play',
  accusation: 'Accusation',
  scoring: 'Scoring',
  gameOver: 'Game over',
};

const ACTION_WORDS = { pass: 'pass', play: 'play', accuse: 'name a teammate' } as const;

export function phaseName(phase: Phase): string {
  return PHASE_NAMES[phase] ?? phase;
}

/** "Seat 2 · Alice", or "You" for the viewer's own seat. */
export function seatName(view: TableView, seat: number): string {
  if (view.viewer === seat) return 'You';
  const occupant = view.seats[seat]?.occupant;
  return occupant === null || occupant === undefined ? `Seat ${seat}` : `Seat ${seat} · ${occupant.name}`;
}

/** A card as a picture with its name for screen readers: "9♦" shown, "9 of Diamonds" read. */
export function cardFace(card: Card): HTMLElement {
  const { suit, rank } = faceOf(card);
  const look = suit === null ? null : SUIT_LOOKS[suit];
  return h(
    'span',
    { class: `card ${suit === null ? 'special' : `suit-${suit}`}`, title: cardName(card) },
    h('span', { 'aria-hidden': 'true' }, look === null ? rank : `${rank}${look.symbol}`),
    h('span', { class: 'sr-only' }, cardName(card)),
  );
}

export function suitChip(suit: Suit): HTMLElement {
  const look = SUIT_LOOKS[suit];
  return h('span', { class: `suit-chip suit-${suit}` }, h('span', { 'aria-hidden': 'true' }, look.symbol), ` ${look.name}`);
}

/** Whose move it is, in a sentence. */
export function turnSentence(view: TableView): string {
  if (view.outcome?.finished) return `Game over. ${winnersSentence(view)}`;
  if (view.phase === 'seating') {
    const open = view.seats.filter((seat) => seat.occupant === null).map((seat) => seat.seat);
    return `Waiting for players: seat${open.length === 1 ? '' : 's'} ${open.join(', ')} open.`;
  }
  const own = view.awaiting.find((awaited) => awaited.seat === view.viewer);
  if (own !== undefined) {
    if (own.action === 'play') return 'Your turn: play a card (playable cards are highlighted).';
    if (own.action === 'pass') return 'Your turn: choose one card for each player you pass to.';
    return 'Your turn: name the teammate you suspect is the Traitor.';
  }
  if (view.awaiting.length === 0) return `${phaseName(view.phase)}.`;
  const action = view.awaiting[0].action;
  const names = view.awaiting.map((awaited) => seatName(view, awaited.seat));
  return `Waiting for ${names.join(', ')} to ${ACTION_WORDS[action]}.`;
}

export function winnersSentence(view: TableView): string {
  const winners = view.outcome?.winners ?? [];
  if (winners.length === 0) return 'A draw.';
  if (view.game === 'sevenSuitors') return `Team ${winners[0] % 2 === 0 ? 'A' : 'B'} wins.`;
  return `${winners.map((seat) => seatName(view, seat)).join(' and ')} ${winners.length === 1 ? 'wins' : 'share the win'}.`;
}

export function seatsPanel(view: TableView): HTMLElement {
  const turn = new Set(view.awaiting.map((awaited) => awaited.seat));
  const trickPlays = view.hand?.trick?.plays ?? [];
  return h(
    'ol',
    { class: 'seats', 'aria-label': 'Seats' },
    view.seats.map((summary) => {
      const played = trickPlays.find((play) => play.seat === summary.seat);
      const notes = [
        sideLabel(view, summary.seat),
        view.game === 'sevenSuitors' ? null : `${view.scores[summary.seat] ?? 0} points`,
        `${summary.cardsHeld} cards`,
        summary.occupant?.bot ? 'bot' : null,
        summary.role === null ? null : summary.role === 'traitor' ? 'Traitor' : 'Matchmaker',
        summary.hasPassed === true && view.phase === 'passing' ? 'has passed' : null,
        summary.hasAccused === true && view.phase === 'accusation' ? 'has named' : null,
      ].filter((note): note is string => note !== null && note !== '');
      return h(
        'li',
        {
          class: `seat${turn.has(summary.seat) ? ' to-act' : ''}${view.viewer === summary.seat ? ' own' : ''}`,
          'data-seat': summary.seat,
        },
        h('strong', {}, seatName(view, summary.seat)),
        turn.has(summary.seat) ? h('span', { class: 'badge' }, 'to act') : null,
        h('span', { class: 'notes' }, notes.join(' · ')),
        played === undefined ? null : h('span', { class: 'played' }, 'played ', cardFace(played.card)),
      );
    }),
  );
}

export function trickPanel(view: TableView): HTMLElement {
  const hand = view.hand;
  const trump = hand?.trump ?? null;
  const panel = h(
    'section',
    { class: 'trick', 'aria-label': 'Trick' },
    h('p', { class: 'trump' }, 'Trump: ', trump === null ? 'not yet led' : suitChip(trump)),
  );
  if (hand === null) return panel;
  const number = hand.tricks.length + (hand.trick === null ? 0 : 1);
  if (hand.trick !== null) {
    const leader = hand.trick.plays.length === 0 ? `: ${seatName(view, hand.trick.leader)} to lead` : '';
    panel.append(
      h('h3', {}, `Trick ${number}${leader}`),
      h(
        'ol',
        { class: 'plays', 'aria-label': 'Cards in the trick' },
        hand.trick.plays.map((play) => h('li', {}, cardFace(play.card), ' ', seatName(view, play.seat))),
      ),
    );
  }
  const last = hand.tricks.at(-1);
  if (last !== undefined) {
    panel.append(
      h('h3', {}, `Last trick (${hand.tricks.length}): ${trickOutcome(view, last)}`),
      trickPlays(view, last, 'plays last', 'Cards of the last trick'),
    );
  }
  return panel;
}

/** Who took a trick: "Seat 2 · Bo won", "… won, Seat 3 · Cy captured", "… set aside". */
function trickOutcome(view: TableView, trick: CompletedTrick): string {
  const captured = trick.capturedBy === null ? 'set aside' : trick.capturedBy === trick.winner ? 'won' : `won, ${seatName(view, trick.capturedBy)} captured`;
  return `${seatName(view, trick.winner)} ${captured}`;
}

function trickPlays(view: TableView, trick: CompletedTrick, className: string, label: string): HTMLElement {
  return h('ol', { class: className, 'aria-label': label }, trick.plays.map((play) => h('li', {}, cardFace(play.card), ' ', seatName(view, play.seat))));
}

export function sevensPanel(view: TableView): HTMLElement {
  const sevens = view.hand?.capturedSevens ?? [];
  const bySeat = new Map<number, Card[]>();
  for (const seven of [...sevens].sort((a, b) => a.seat - b.seat)) bySeat.set(seven.seat, [...(bySeat.get(seven.seat) ?? []), seven.card]);
  return h(
    'section',
    { class: 'sevens', 'aria-label': 'Captured sevens' },
    h('h3', {}, 'Captured 7s'),
    sevens.length === 0
      ? h('p', {}, 'None yet.')
      : h(
          'ul',
          {},
          [...bySeat].map(([seat, cards]) =>
            h('li', {}, `${seatName(view, seat)} (${sideLabel(view, seat)}): `, cards.map((card) => cardFace(card))),
          ),
        ),
  );
}

export function scoresPanel(view: TableView): HTMLElement {
  const panel = h('section', { class: 'scores', 'aria-label': 'Scores' }, h('h3', {}, 'Scores'));
  if (view.game === 'sevenSuitors' && view.marked !== null && view.marriageCount !== null) {
    const marked = view.marked;
    const counts = view.marriageCount;
    panel.append(
      h(
        'table',
        {},
        h('thead', {}, h('tr', {}, h('th', {}, 'Team'), h('th', {}, 'Marked suits'), h('th', {}, 'Marriages'))),
        h(
          'tbody',
          {},
          (['A', 'B'] as const).map((team) =>
            h(
              'tr',
              { 'data-team': team },
              h('th', { scope: 'row' }, `Team ${team} (seats ${seatsOfTeam(team, view.seats.length).join(' & ')})`),
              h('td', { class: 'marked' }, marked[team].length === 0 ? 'none' : marked[team].map(suitChip), ` (${marked[team].length}/7)`),
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
        h('thead', {}, h('tr', {}, h('th', {}, 'Seat'), h('th', {}, 'Side'), h('th', {}, 'Points'))),
        h(
          'tbody',
          {},
          view.seats.map((summary) =>
            h(
              'tr',
              { 'data-seat': summary.seat },
              h('th', { scope: 'row' }, seatName(view, summary.seat)),
              h('td', {}, sideLabel(view, summary.seat)),
              h('td', { class: 'points' }, String(view.scores[summary.seat] ?? 0)),
            ),
          ),
        ),
      ),
    );
  }
  if (view.outcome?.finished) panel.append(h('p', { class: 'outcome', role: 'status' }, `Game over. ${winnersSentence(view)}`));
  return panel;
}

export function marriageWords(view: TableView, marriage: Marriage): string {
  const side = typeof marriage.by === 'number' ? `Anti-Cupid (${seatName(view, marriage.by)})` : view.game === 'antiCupid' ? `Partnership ${marriage.by}` : `Team ${marriage.by}`;
  return `${side} married ${suitName(marriage.suit)}`;
}

/**
 * The hand scored last, kept on the board through the next hand (it is all
 * public by then, view.lastHand): its trump, its final trick, in A Traitor
 * of Love the revealed Traitor and who named whom, its marriages and, but
 * in Seven Suitors, what each seat scored.
 */
export function lastHandPanel(view: TableView): HTMLElement | null {
  const last = view.lastHand;
  const result = view.handResults.at(-1);
  if (last === null && result === undefined) return null;
  const trump = last?.trump ?? result?.trump ?? null;
  const finalTrick = last?.finalTrick ?? undefined;
  return h(
    'section',
    { class: 'last-hand', 'aria-label': 'Last hand' },
    h('h3', {}, `Last hand (hand ${last === null ? view.handResults.length : last.index + 1})`),
    h(
      'p',
      {},
      'Trump was ',
      trump === null ? 'none' : suitChip(trump),
      '.',
      last === null || last.antiCupid === null ? null : ` Anti-Cupid was ${seatName(view, last.antiCupid)}.`,
    ),
    finalTrick === undefined
      ? null
      : h(
          'div',
          { class: 'final-trick' },
          h('p', {}, `Final trick: ${trickOutcome(view, finalTrick)}.`),
          trickPlays(view, finalTrick, 'plays', 'Cards of the final trick'),
        ),
    last === null || last.traitor === null
      ? null
      : h(
          'div',
          { class: 'reveal' },
          h('p', {}, `The Traitor was ${seatName(view, last.traitor)}.`),
          h(
            'ul',
            { class: 'accusations' },
            (last.accusations ?? []).map((accused, seat) =>
              accused === null ? null : h('li', {}, `${seatName(view, seat)} named ${seatName(view, accused)}${accused === last.traitor ? ' (the Traitor)' : ''}`),
            ),
          ),
        ),
    result === undefined
      ? null
      : result.marriages.length === 0
        ? h('p', {}, 'No marriages.')
        : h('ul', { class: 'marriages' }, result.marriages.map((marriage) => h('li', {}, marriageWords(view, marriage)))),
    result === undefined || view.game === 'sevenSuitors'
      ? null
      : h('p', {}, 'Hand points: ', result.handScores.map((score, seat) => `${seatName(view, seat)} ${score}`).join(', '), '.'),
  );
}
