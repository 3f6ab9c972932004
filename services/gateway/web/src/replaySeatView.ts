/**
 * A finished game's replay as one seat saw it, and the words of its
 * timeline. GET /replay gives, once the game is over, the spectator's view
 * plus each seat's own part of its view (`openHands`: cards, role card and
 * role, passes, accusation, each read from that seat's own view on the
 * service). The seat's view here is the spectator's with that part put
 * back: what the seat could do at the step (legal cards, whom to pass to)
 * is left out, as nothing is played in a replay.
 */
import type { Card } from '../../../../machines/cards/card.js';
import type { TableView } from '../../../../machines/view.js';
import type { LoggedEvent, OpenHand, ReplayView } from './api.js';
import { cardFace } from './board.js';
import { cardName, sortCards } from './cards.js';
import { h } from './dom.js';
import { shortName } from './words.js';

export function seatView(open: ReplayView, seat: number): TableView {
  const own = open.openHands?.find((hand) => hand.seat === seat);
  if (own === undefined) return open;
  const seats = open.seats.map((summary) => (summary.seat === seat ? { ...summary, role: own.role } : summary));
  const hand =
    open.hand === null
      ? null
      : {
          ...open.hand,
          cards: own.cards,
          roleCard: own.roleCard,
          passesSent: own.passesSent,
          passesReceived: own.passesReceived,
          accusation: own.accusation,
          legalCards: [],
          passTo: [],
          mayAccuse: [],
        };
  return { ...open, viewer: seat, seats, hand };
}

/** The watched seat's hand, face up along the bottom (not playable: this is a replay). */
export function seatHand(view: TableView): HTMLElement | null {
  const cards = view.hand?.cards ?? [];
  return h(
    'section',
    { class: 'replay-hand', 'aria-label': 'Their hand' },
    h('h3', {}, `Hand of seat ${String(view.viewer)}`, view.hand?.roleCard == null ? '' : view.hand.roleCard === 7 ? ' · the Traitor' : ' · a Matchmaker'),
    cards.length === 0 ? h('p', { class: 'muted' }, 'No cards in hand.') : h('div', { class: 'hand-cards readonly' }, sortCards(cards).map(cardFace)),
  );
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
            : h('span', { class: 'muted passes' }, ' — passed ', open.passesSent.map((pass, index) => h('span', {}, index === 0 ? '' : ', ', cardFace(pass.card), ` to ${shortName(view, pass.to)}`))),
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
