/** What a player sends when its seat is awaited: a random legal move, chosen from the seat's own view. */
import type { Action } from '../../machines/table/refusal.js';
import type { TableView } from '../../machines/view.js';
import type { CommandBody } from '../../services/gateway/schemas.js';

function pick<T>(items: readonly T[]): T {
  return items[Math.floor(Math.random() * items.length)];
}

/** A random legal command for the awaited action, from the seat's own view. */
export function commandFor(view: TableView, action: Action): CommandBody | null {
  const hand = view.hand;
  if (hand === null) return null;
  switch (action) {
    case 'play':
      return hand.legalCards.length === 0 ? null : { type: 'card.played', card: pick(hand.legalCards) };
    case 'pass': {
      const cards = (hand.cards ?? []).slice();
      if (hand.passTo.length === 0 || cards.length < hand.passTo.length) return null;
      for (let i = cards.length - 1; i > 0; i--) {
        const j = Math.floor(Math.random() * (i + 1));
        [cards[i], cards[j]] = [cards[j], cards[i]];
      }
      return { type: 'cards.passed', passes: hand.passTo.map((to, i) => ({ to, card: cards[i] })) };
    }
    case 'accuse':
      return hand.mayAccuse.length === 0 ? null : { type: 'traitor.accused', accused: pick(hand.mayAccuse) };
  }
}
