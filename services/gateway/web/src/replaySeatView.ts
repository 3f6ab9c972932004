/**
 * A finished game's replay as one seat saw it, and the words of its
 * timeline. GET /replay?seat=S gives, once the game is over, that seat's own
 * view at the step, built on the service by the same view function as live
 * play: its hand, role, passes, and what it could do then (the cards it
 * could play, whom it had to pass to, whom it could name).
 */
import type { Card } from '../../../../machines/cards/card.js';
import type { TableView } from '../../../../machines/view.js';
import type { LoggedEvent, OpenHand, ReplayView } from './api.js';
import { cardFace } from './board.js';
import { cardName, sortCards } from './cards.js';
import { h } from './dom.js';
import { shortName } from './words.js';

/** The watched seat's hand, face up along the bottom, the cards it could play at the step marked (not playable: this is a replay). */
export function seatHand(view: TableView): HTMLElement | null {
  const cards = view.hand?.cards ?? [];
  const legal = new Set(view.hand?.legalCards ?? []);
  const could = couldDo(view);
  return h(
    'section',
    { class: 'replay-hand', 'aria-label': 'Their hand' },
    h(
      'h3',
      {},
      `Hand of seat ${String(view.viewer)}`,
      view.hand?.roleCard == null ? '' : view.hand.roleCard === 7 ? ' · the Traitor' : ' · a Matchmaker',
    ),
    cards.length === 0
      ? h('p', { class: 'muted' }, 'No cards in hand.')
      : h(
          'div',
          { class: 'hand-cards readonly' },
          sortCards(cards).map((card) => {
            const face = cardFace(card);
            if (legal.has(card)) face.classList.add('could-play');
            return face;
          }),
        ),
    could === '' ? null : h('p', { class: 'muted small could-do' }, could),
  );
}

/** What the seat was asked to do at the step, in words: the view says it (legal cards, passes to make, whom to name). */
function couldDo(view: TableView): string {
  const hand = view.hand;
  if (hand === null) return '';
  if (hand.legalCards.length > 0) return `Could play: ${sortCards(hand.legalCards).map(cardName).join(', ')}.`;
  if (hand.passTo.length > 0) return `Had to pass a card to each of ${hand.passTo.map((seat) => shortName(view, seat)).join(', ')}.`;
  if (hand.mayAccuse.length > 0) return `Could name one of ${hand.mayAccuse.map((seat) => shortName(view, seat)).join(', ')}.`;
  return '';
}

function roleWords(open: OpenHand): string {
  return open.role === null ? '' : open.role === 'traitor' ? ' (the Traitor)' : ' (a Matchmaker)';
}

/** Once the game is over a replay shows every seat's hand, as each seat saw it. */
export function openHands(view: ReplayView): HTMLElement | null {
  if (view.openHands === undefined) return null;
  return h(
    'section',
    { class: 'open-hands panel', 'aria-labelledby': 'open-hands-heading' },
    h('h3', { id: 'open-hands-heading' }, 'Every hand'),
    h(
      'ul',
      {},
      view.openHands.map((open) =>
        h(
          'li',
          { 'data-seat': open.seat },
          h('strong', {}, `${shortName(view, open.seat)}${roleWords(open)}: `),
          open.cards.length === 0 ? h('span', { class: 'muted' }, 'all cards played') : sortCards(open.cards).map(cardFace),
          open.passesSent.length === 0
            ? null
            : h(
                'span',
                { class: 'muted passes' },
                ' — passed ',
                open.passesSent.map((pass, index) =>
                  h('span', {}, index === 0 ? '' : ', ', cardFace(pass.card), ` to ${shortName(view, pass.to)}`),
                ),
              ),
          open.accusation === null ? null : h('span', { class: 'muted' }, ` — named ${shortName(view, open.accusation)}`),
        ),
      ),
    ),
  );
}

/** One log event in words: "Bo played the 9 of Diamonds"; empty when the log is not readable (a game not over). */
export function eventWords(view: TableView, event: LoggedEvent | undefined): string {
  if (event === undefined) return '';
  const data = event.data;
  const who = typeof data.seat === 'number' ? `${shortName(view, data.seat)} (seat ${data.seat})` : '';
  switch (event.type) {
    case 'table.created':
      return 'table opened';
    case 'seat.joined': {
      const player = data.player as { name?: string; bot?: boolean } | undefined;
      return `${player?.name ?? 'someone'}${player?.bot ? ' (bot)' : ''} sat at seat ${String(data.seat)}`;
    }
    case 'seat.left':
      return `seat ${String(data.seat)} was left`;
    case 'hand.dealt':
      return 'a hand was dealt';
    case 'cards.passed':
      return `${who} passed cards`;
    case 'card.played':
      return `${who} played the ${cardName(data.card as Card)}`;
    case 'traitor.accused':
      return `${who} named ${typeof data.accused === 'number' ? shortName(view, data.accused) : 'a teammate'}`;
    case 'turn.timedOut':
      return `${who} ran out of time; a bot moved`;
    default:
      return event.type.replace('.', ' ');
  }
}
