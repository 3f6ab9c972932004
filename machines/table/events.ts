/**
 * Every input a table accepts. Players send passes, plays and accusations;
 * the host sends seat changes and deals (it alone decides shuffles and role
 * deals, so a log replays to the same game).
 */
import type { Card, Suit } from '../cards/card.js';
import type { DealFairness } from '../fairness/dealFairness.js';
import type { Seat } from '../rules/trick.js';

export interface Occupant {
  readonly name: string;
  readonly bot: boolean;
}

export interface SeatJoined {
  readonly type: 'seat.joined';
  readonly seat: Seat;
  readonly player: Occupant;
  /**
   * The SHA-256 (hex) of the seat token a person took the seat with, never
   * the token: the seat's tenure, which every later command for the seat
   * must hold. Absent for bots, and in logs written before tenures.
   */
  readonly holder?: string;
}

export interface SeatLeft {
  readonly type: 'seat.left';
  readonly seat: Seat;
}

export interface HandDealt {
  readonly type: 'hand.dealt';
  /** Each seat's cards, seat order. */
  readonly deal: readonly (readonly Card[])[];
  /** A Traitor of Love: each seat's tracking-card suit (Hearts = Traitor); otherwise null. */
  readonly roles: readonly Suit[] | null;
  /**
   * The seed the deal was made from and its commitment (docs/fairness.md);
   * absent in logs written before deals were provable, and in deals chosen
   * by tests. When present, the table refuses a deal that is not the seed's.
   */
  readonly fairness?: DealFairness;
  /**
   * The commitment to the host's secret for the next hand, published with
   * this deal so that seats contribute to that hand knowing the host can no
   * longer choose it (docs/fairness.md); absent when the host deals the
   * next hand without contributions.
   */
  readonly nextCommitment?: string;
}

export interface PassChoice {
  readonly to: Seat;
  readonly card: Card;
}

/** One seat's whole pass: one card to each seat it must pass to. */
export interface CardsPassed {
  readonly type: 'cards.passed';
  readonly seat: Seat;
  readonly passes: readonly PassChoice[];
}

export interface CardPlayed {
  readonly type: 'card.played';
  readonly seat: Seat;
  readonly card: Card;
}

export interface TraitorAccused {
  readonly type: 'traitor.accused';
  readonly seat: Seat;
  readonly accused: Seat;
}

export type TableEvent = SeatJoined | SeatLeft | HandDealt | CardsPassed | CardPlayed | TraitorAccused;
export type TableEventType = TableEvent['type'];

/** What a seat may ask for; everything else comes from the host. */
export type PlayerCommand = CardsPassed | CardPlayed | TraitorAccused;
export const PLAYER_COMMAND_TYPES: readonly PlayerCommand['type'][] = ['cards.passed', 'card.played', 'traitor.accused'];

export const TABLE_EVENT_TYPES: readonly TableEventType[] = [
  'seat.joined',
  'seat.left',
  'hand.dealt',
  'cards.passed',
  'card.played',
  'traitor.accused',
];
