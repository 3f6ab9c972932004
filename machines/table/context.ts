/**
 * What a table remembers: the whole state of one game, serialisable as JSON
 * so XState's persisted snapshot is the table's snapshot.
 */
import type { Card, Suit } from '../cards/card.js';
import type { DealFairness, NextDeal, RevealedDeal } from '../fairness/dealFairness.js';
import type { Play, Seat } from '../rules/trick.js';
import type { Occupant } from './events.js';
import type { GameName, TableOptions } from './optionTypes.js';

/** "A" and "B" are teams or partnerships; a number is Anti-Cupid's own seat. */
export type Side = 'A' | 'B' | number;
export type Team = 'A' | 'B';

export interface Pass {
  readonly from: Seat;
  readonly to: Seat;
  readonly card: Card;
}

export interface CompletedTrick {
  readonly leader: Seat;
  readonly plays: readonly Play[];
  readonly winner: Seat;
  readonly capturedBy: Seat | null;
}

export interface TrickInProgress {
  readonly leader: Seat;
  readonly plays: readonly Play[];
}

export interface Marriage {
  readonly suit: Suit;
  readonly by: Side;
}

export type TeamTally<T> = { readonly A: T; readonly B: T };

/** A completed hand's result, exactly as a game record writes it. */
export interface HandResult {
  readonly trump: Suit | null;
  readonly tricks: readonly { readonly leader: Seat; readonly winner: Seat; readonly capturedBy: Seat | null }[];
  readonly marriages: readonly Marriage[];
  readonly handScores: readonly number[];
  readonly marked: TeamTally<readonly Suit[]> | null;
  readonly marriageCount: TeamTally<number> | null;
}

export interface HandState {
  /** 0 for the first hand of the game. */
  readonly index: number;
  readonly deal: readonly (readonly Card[])[];
  readonly roles: readonly Suit[] | null;
  /** The deal's seed and commitment; the seed stays secret until the hand is scored. Null for an unproven deal. */
  readonly fairness: DealFairness | null;
  readonly antiCupid: Seat | null;
  readonly holdings: readonly (readonly Card[])[];
  /** Each seat's chosen passes, hidden until every seat has chosen; null when this table does not pass. */
  readonly passChoices: readonly (readonly Pass[] | null)[] | null;
  /** The passes made, once every seat has chosen. */
  readonly passes: readonly Pass[];
  readonly trump: Suit | null;
  readonly trick: TrickInProgress | null;
  readonly tricks: readonly CompletedTrick[];
  /** The seat to play; null outside trick play. */
  readonly turn: Seat | null;
  /** A Traitor of Love: each seat's secret accusation; null elsewhere. */
  readonly accusations: readonly (Seat | null)[] | null;
}

/**
 * What stays public of the hand just scored: its final trick with its cards,
 * and in A Traitor of Love the Traitor and the accusations. The next deal
 * replaces the hand at once, so without this no seat would see the hand's
 * last trick. Only the final trick is kept: every resident table carries it.
 */
export interface CompletedHand {
  readonly index: number;
  readonly trump: Suit | null;
  readonly antiCupid: Seat | null;
  readonly finalTrick: CompletedTrick | null;
  readonly traitor: Seat | null;
  readonly accusations: readonly (Seat | null)[] | null;
}

export interface GameOutcome {
  readonly finished: boolean;
  readonly scores: readonly number[];
  readonly winners: readonly Seat[];
}

export interface TableContext {
  readonly game: GameName;
  readonly options: TableOptions;
  readonly seatCount: number;
  readonly cardsPerSeat: number;
  readonly occupants: readonly (Occupant | null)[];
  /** Each seat's tenure: the hash of the token it was taken with (SeatJoined.holder); never shown to anyone. Read it through `holdersOf`. */
  readonly holders: readonly (string | null)[];
  readonly hand: HandState | null;
  readonly handResults: readonly HandResult[];
  /**
   * The seeds of the hands scored so far, with their commitments: public, so
   * every seat can check each deal. (Snapshots written before deals were
   * provable lack it: read it through `revealedDealsOf`.)
   */
  readonly revealedDeals: readonly RevealedDeal[];
  /**
   * The commitment to the host's secret for the next hand to be dealt,
   * public from before any seat may contribute to it; null when the next
   * hand is dealt without contributions. (Snapshots written before
   * contributions lack it: read it through `nextDealOf`.)
   */
  readonly nextDeal: NextDeal | null;
  readonly lastHand: CompletedHand | null;
  readonly scores: readonly number[];
  /** Seven Suitors only. */
  readonly marked: TeamTally<readonly Suit[]> | null;
  readonly marriageCount: TeamTally<number> | null;
  /** Seven Suitors `allSuits`: both teams completed with equal counts; the next hand's marriages decide. */
  readonly tieBreak: boolean;
  /** Anti-Cupid: the first hand's Anti-Cupid, from whom the role rotates. */
  readonly firstAntiCupid: Seat | null;
  readonly outcome: GameOutcome | null;
}

export interface TableInput {
  readonly game: GameName;
  readonly options: TableOptions;
  /**
   * Cards dealt to each seat. Defaults to the whole deck shared out; smaller
   * deals exist for model-based tests, which need short hands to reach a
   * game's end, and run through the same machine code.
   */
  readonly cardsPerSeat?: number;
  /** The rules version the table plays by (machines/games/rulebooks.ts); the current rules when absent. */
  readonly rules?: number;
  /** The commitment to the host's secret for the first hand, when seats contribute to it (docs/fairness.md). */
  readonly firstCommitment?: string;
}

/** Snapshots written before tenures lack them: every seat then has none. */
export function holdersOf(context: TableContext): readonly (string | null)[] {
  return context.holders ?? context.occupants.map(() => null);
}

/**
 * Whether the person at `seat` holds it with the token whose hash is
 * `holder`: the seat's tenure is that hash. A seat taken before tenures were
 * logged has none, and whoever sits there holds it as before.
 */
export function seatHeldBy(context: TableContext, seat: unknown, holder: string): boolean {
  if (!isSeat(context, seat)) return false;
  const occupant = context.occupants[seat];
  const tenure = holdersOf(context)[seat];
  return occupant !== null && !occupant.bot && (tenure === null || tenure === holder);
}

export function nextDealOf(context: TableContext): NextDeal | null {
  return context.nextDeal ?? null;
}

export function revealedDealsOf(context: TableContext): readonly RevealedDeal[] {
  return context.revealedDeals ?? [];
}

/** The current hand; the machine's states guarantee one exists wherever this is called. */
export function currentHand(context: TableContext): HandState {
  if (context.hand === null) throw new Error('no hand is in progress');
  return context.hand;
}

export function isSeat(context: TableContext, value: unknown): value is Seat {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 && value < context.seatCount;
}
