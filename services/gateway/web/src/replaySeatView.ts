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
import { words } from './i18n/index.js';
import { occupantName, shortName } from './words.js';

/** The watched seat's hand, face up along the bottom, the cards it could play at the step marked (not playable: this is a replay). */
export function seatHand(view: TableView): HTMLElement | null {
  const cards = view.hand?.cards ?? [];
  const legal = new Set(view.hand?.legalCards ?? []);
  const could = couldDo(view);
  const table = words().table;
  return h(
    'section',
    { class: 'replay-hand', 'aria-label': table.theirHand },
    h(
      'h3',
      {},
      table.handOfSeat(String(view.viewer)),
      view.hand?.roleCard == null ? '' : view.hand.roleCard === 7 ? table.asTraitor : table.asMatchmaker,
    ),
    cards.length === 0
      ? h('p', { class: 'muted' }, table.noCards)
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
  const table = words().table;
  if (hand.legalCards.length > 0) return table.couldPlay(sortCards(hand.legalCards).map(cardName).join(', '));
  if (hand.passTo.length > 0) return table.hadToPass(hand.passTo.map((seat) => shortName(view, seat)).join(', '));
  if (hand.mayAccuse.length > 0) return table.couldName(hand.mayAccuse.map((seat) => shortName(view, seat)).join(', '));
  return '';
}

function roleWords(open: OpenHand): string {
  return open.role === null ? '' : open.role === 'traitor' ? words().table.roleTraitor : words().table.roleMatchmaker;
}

/** Once the game is over a replay shows every seat's hand, as each seat saw it. */
export function openHands(view: ReplayView): HTMLElement | null {
  if (view.openHands === undefined) return null;
  const table = words().table;
  return h(
    'section',
    { class: 'open-hands panel', 'aria-labelledby': 'open-hands-heading' },
    h('h3', { id: 'open-hands-heading' }, table.everyHand),
    h(
      'ul',
      {},
      view.openHands.map((open) =>
        h(
          'li',
          { 'data-seat': open.seat },
          h('strong', {}, `${shortName(view, open.seat)}${roleWords(open)}: `),
          open.cards.length === 0 ? h('span', { class: 'muted' }, table.allPlayed) : sortCards(open.cards).map(cardFace),
          open.passesSent.length === 0
            ? null
            : h(
                'span',
                { class: 'muted passes' },
                table.passedList,
                open.passesSent.map((pass, index) =>
                  h('span', {}, index === 0 ? '' : ', ', cardFace(pass.card), table.passedToName(shortName(view, pass.to))),
                ),
              ),
          open.accusation === null ? null : h('span', { class: 'muted' }, table.namedSeat(shortName(view, open.accusation))),
        ),
      ),
    ),
  );
}

/** One log event in words: "Bo played the 9 of Diamonds"; empty when the log is not readable (a game not over). */
export function eventWords(view: TableView, event: LoggedEvent | undefined): string {
  if (event === undefined) return '';
  const data = event.data;
  const said = words().table.events;
  const who = typeof data.seat === 'number' ? words().table.nameAndSeat(shortName(view, data.seat), data.seat) : '';
  switch (event.type) {
    case 'table.created':
      return said.opened;
    case 'seat.joined': {
      const player = data.player as { name?: string; bot?: boolean } | undefined;
      const name = player?.name === undefined ? said.someone : occupantName({ name: player.name, bot: player.bot === true });
      return said.sat(name, player?.bot === true, String(data.seat));
    }
    case 'seat.left':
      return said.left(String(data.seat));
    case 'hand.dealt':
      return said.dealt;
    case 'cards.passed':
      return said.passed(who);
    case 'card.played':
      return said.played(who, cardName(data.card as Card));
    case 'traitor.accused':
      return said.named(who, typeof data.accused === 'number' ? shortName(view, data.accused) : said.aTeammate);
    case 'turn.timedOut':
      return said.timedOut(who);
    default:
      return event.type.replace('.', ' ');
  }
}
