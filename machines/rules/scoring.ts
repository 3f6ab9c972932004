/**
 * Scoring a hand and deciding whether the game is over (docs/rules.md, each
 * game's "Scoring" and "End"): what every game shares, then the game's own
 * scoring, from its rules object (machines/games/rules/).
 */
import { rulesOf, sideOf } from '../games/rules/index.js';
import type { GameOutcome, TableContext } from '../table/context.js';
import { marriagesOf } from './marriage.js';
import type { ScoredHand } from './scoredHand.js';

export type { ScoredHand } from './scoredHand.js';

export function scoreHand(context: TableContext): ScoredHand {
  const hand = context.hand!;
  const marriages = marriagesOf(hand.tricks, (seat) => sideOf(context.game, seat, hand.antiCupid, context.seatCount));
  const tricks = hand.tricks.map(({ leader, winner, capturedBy }) => ({ leader, winner, capturedBy }));
  return rulesOf(context.game).scoreHand(context, { trump: hand.trump, tricks, marriages });
}

/** The game's result so far: final once it is over, otherwise the running totals with no winner. */
export function outcomeSoFar(context: TableContext): GameOutcome {
  return context.outcome ?? { finished: false, scores: context.scores, winners: [] };
}
