/**
 * Scoring: at the end of every hand the hand is scored, and the game either
 * ends or goes on to the next deal.
 */
import { HEARTS } from '../cards/card.js';
import { currentHand, revealedDealsOf, type TableContext } from '../table/context.js';
import type { GameRules } from '../games/rules/index.js';
import { scoreHand } from '../rules/scoring.js';

/** The hand scored into the context; `rules` as in scoreHand (a later rulebook's machine passes its own). */
export function recordHandScore(context: TableContext, rules?: GameRules): Partial<TableContext> {
  const scored = scoreHand(context, rules);
  const hand = currentHand(context);
  return {
    handResults: [...context.handResults, scored.result],
    revealedDeals:
      hand.fairness == null ? revealedDealsOf(context) : [...revealedDealsOf(context), { index: hand.index, ...hand.fairness }],
    lastHand: {
      index: hand.index,
      trump: hand.trump,
      antiCupid: hand.antiCupid,
      finalTrick: hand.tricks.at(-1) ?? null,
      traitor: hand.roles === null ? null : hand.roles.indexOf(HEARTS),
      accusations: hand.accusations,
    },
    scores: scored.scores,
    marked: scored.marked,
    marriageCount: scored.marriageCount,
    tieBreak: scored.tieBreak,
    outcome: scored.outcome,
  };
}

export function gameIsOver(context: TableContext): boolean {
  return context.outcome !== null;
}

export const scoringState = {
  description: 'The hand is scored; the game ends or the next hand is dealt.',
  entry: 'scoreHand',
  always: [{ guard: 'gameIsOver', target: 'gameOver' }, { target: 'dealing' }],
} as const;

export const gameOverState = {
  description: 'The game is over; its record can be exported.',
  type: 'final',
} as const;
