/**
 * Scoring a hand and deciding whether the game is over (docs/rules.md, each
 * game's "Scoring" and "End"): what every game shares, then the game's own
 * scoring, from its rules object (machines/games/rules/).
 */
import { rulesOf, sideOf, type GameRules } from '../games/rules/index.js';
import type { GameOutcome, TableContext } from '../table/context.js';
import { marriagesOf } from './marriage.js';
import type { ScoredHand } from './scoredHand.js';

export type { ScoredHand } from './scoredHand.js';

/** The hand just played, scored by `rules`: the game's rules of this release unless a rulebook brings others. */
export function scoreHand(context: TableContext, rules: GameRules = rulesOf(context.game)): ScoredHand {
  const hand = context.hand!;
  const marriages = marriagesOf(hand.tricks, (seat) => sideOf(context.game, seat, hand.antiCupid, context.seatCount));
  const tricks = hand.tricks.map(({ leader, winner, capturedBy }) => ({ leader, winner, capturedBy }));
  return rules.scoreHand(context, { trump: hand.trump, tricks, marriages });
}

/** The game's result so far: final once it is over, otherwise the running totals with no winner. */
export function outcomeSoFar(context: TableContext): GameOutcome {
  return context.outcome ?? { finished: false, scores: context.scores, winners: [] };
}
