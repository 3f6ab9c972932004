/** What scoring a hand gives, whichever game's rules score it (machines/games/rules/). */
import type { Suit } from '../cards/card.js';
import type { GameOutcome, HandResult, TeamTally } from '../table/context.js';
import type { Seat } from './trick.js';

/** What every game records of a hand before its own scoring: the trump, the tricks, the marriages. */
export type HandBasics = Pick<HandResult, 'trump' | 'tricks' | 'marriages'>;

export interface ScoredHand {
  readonly result: HandResult;
  readonly scores: readonly number[];
  readonly marked: TeamTally<readonly Suit[]> | null;
  readonly marriageCount: TeamTally<number> | null;
  readonly tieBreak: boolean;
  readonly outcome: GameOutcome | null;
}

function highestScorers(scores: readonly number[]): Seat[] {
  const best = Math.max(...scores);
  return scores.flatMap((score, seat) => (score === best ? [seat] : []));
}

/** A hand scored in points per seat (Anti-Cupid, A Traitor of Love): the totals, and the outcome once `over` says so. */
export function scoredInPoints(
  basics: HandBasics,
  previous: readonly number[],
  handScores: readonly number[],
  over: (scores: readonly number[]) => boolean,
): ScoredHand {
  const scores = previous.map((score, seat) => score + handScores[seat]);
  return {
    result: { ...basics, handScores, marked: null, marriageCount: null },
    scores,
    marked: null,
    marriageCount: null,
    tieBreak: false,
    outcome: over(scores) ? { finished: true, scores, winners: highestScorers(scores) } : null,
  };
}
