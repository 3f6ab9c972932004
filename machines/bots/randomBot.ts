/**
 * A bot that makes a random legal move. It chooses with the rng it is given,
 * so a seeded game plays the same every time.
 */
import { shuffle, type Rng } from '../cards/shuffle.js';
import type { PlayerCommand } from '../table/events.js';
import type { Action } from '../table/refusal.js';
import type { TableSnapshot } from '../table/snapshot.js';
import { passRecipients } from '../fragments/passing.js';
import { legalPlaysFor } from '../fragments/trickPlay.js';
import { teammatesOf } from '../rules/sides.js';
import type { Seat } from '../rules/trick.js';

export function randomMove(snapshot: TableSnapshot, seat: Seat, action: Action, rng: Rng): PlayerCommand {
  const { context } = snapshot;
  const hand = context.hand!;
  switch (action) {
    case 'pass': {
      const recipients = passRecipients(context, seat);
      const cards = shuffle(hand.holdings[seat], rng).slice(0, recipients.length);
      return { type: 'cards.passed', seat, passes: recipients.map((to, i) => ({ to, card: cards[i] })) };
    }
    case 'play': {
      const legal = legalPlaysFor(context, seat);
      return { type: 'card.played', seat, card: legal[rng.below(legal.length)] };
    }
    case 'accuse': {
      const mates = teammatesOf(seat, context.seatCount);
      return { type: 'traitor.accused', seat, accused: mates[rng.below(mates.length)] };
    }
  }
}
