/**
 * Scoring a hand and deciding whether the game is over, per game
 * (docs/rules.md, each game's "Scoring" and "End").
 */
import { HEARTS, SUITS, type Suit } from '../cards/card.js';
import type { GameOutcome, HandResult, HandState, Marriage, TableContext, Team, TeamTally } from '../table/context.js';
import { parseEnd, type SevenSuitorsOptions } from '../table/options.js';
import { marriagesOf } from './marriage.js';
import { fixedTeamOf, seatsOfSide, sideOf, teammatesOf } from './sides.js';
import type { Seat } from './trick.js';

const TEAMS: readonly Team[] = ['A', 'B'];
/** Anti-Cupid is played for exactly this many hands, so each seat holds the role once. */
export const ANTI_CUPID_HANDS = 5;
/** A Traitor of Love ends after a hand in which someone has more than this. */
export const TRAITOR_END_SCORE = 15;

export interface ScoredHand {
  readonly result: HandResult;
  readonly scores: readonly number[];
  readonly marked: TeamTally<readonly Suit[]> | null;
  readonly marriageCount: TeamTally<number> | null;
  readonly tieBreak: boolean;
  readonly outcome: GameOutcome | null;
}

export function scoreHand(context: TableContext): ScoredHand {
  const hand = context.hand!;
  const marriages = marriagesOf(hand.tricks, (seat) => sideOf(context.game, seat, hand.antiCupid, context.seatCount));
  const tricks = hand.tricks.map(({ leader, winner, capturedBy }) => ({ leader, winner, capturedBy }));
  const base = { trump: hand.trump, tricks, marriages };
  if (context.game === 'sevenSuitors') return scoreSevenSuitors(context, base);
  const handScores = context.game === 'antiCupid' ? antiCupidScores(context, hand, marriages) : traitorScores(context, hand, marriages);
  const scores = context.scores.map((score, seat) => score + handScores[seat]);
  const handsPlayed = context.handResults.length + 1;
  const over = context.game === 'antiCupid' ? handsPlayed >= ANTI_CUPID_HANDS : scores.some((score) => score > TRAITOR_END_SCORE);
  return {
    result: { ...base, handScores, marked: null, marriageCount: null },
    scores,
    marked: null,
    marriageCount: null,
    tieBreak: false,
    outcome: over ? { finished: true, scores, winners: highestScorers(scores) } : null,
  };
}

function highestScorers(scores: readonly number[]): Seat[] {
  const best = Math.max(...scores);
  return scores.flatMap((score, seat) => (score === best ? [seat] : []));
}

/** Per suit: a partnership's marriage scores its two players, Anti-Cupid's own pair the other four, no marriage Anti-Cupid. */
function antiCupidScores(context: TableContext, hand: HandState, marriages: readonly Marriage[]): number[] {
  const antiCupid = hand.antiCupid!;
  const handScores = new Array<number>(context.seatCount).fill(0);
  for (const suit of SUITS) {
    const marriage = marriages.find((m) => m.suit === suit);
    if (marriage === undefined) handScores[antiCupid] += 1;
    else if (marriage.by === antiCupid) {
      for (let seat = 0; seat < context.seatCount; seat++) if (seat !== antiCupid) handScores[seat] += 1;
    } else {
      for (const seat of seatsOfSide(context, marriage.by, antiCupid)) handScores[seat] += 1;
    }
  }
  return handScores;
}

/** Marriages score Matchmakers for their own team and the Traitor for the other; then the accusation bonus. */
function traitorScores(context: TableContext, hand: HandState, marriages: readonly Marriage[]): number[] {
  const traitor = hand.roles!.indexOf(HEARTS);
  const handScores = new Array<number>(context.seatCount).fill(0);
  for (const marriage of marriages) {
    for (let seat = 0; seat < context.seatCount; seat++) {
      const ownTeam = marriage.by === fixedTeamOf(seat);
      if (seat === traitor ? !ownTeam : ownTeam) handScores[seat] += 1;
    }
  }
  for (const mate of teammatesOf(traitor, context.seatCount)) {
    if (hand.accusations![mate] === traitor) {
      handScores[mate] += 2;
      handScores[traitor] -= 1;
    } else {
      handScores[traitor] += 1;
    }
  }
  return handScores;
}

function scoreSevenSuitors(context: TableContext, base: Pick<HandResult, 'trump' | 'tricks' | 'marriages'>): ScoredHand {
  const marked = { A: context.marked!.A.slice(), B: context.marked!.B.slice() };
  const marriageCount = { ...context.marriageCount! };
  const handMarriages = { A: 0, B: 0 };
  for (const { suit, by } of base.marriages) {
    const team = by as Team;
    marriageCount[team] += 1;
    handMarriages[team] += 1;
    if (!marked[team].includes(suit)) marked[team] = [...marked[team], suit].sort((a, b) => a - b);
  }
  const scores = Array.from({ length: context.seatCount }, (_, seat) => marked[fixedTeamOf(seat)].length);
  const decision = sevenSuitorsDecision(context, marked, marriageCount, handMarriages);
  const winners = decision.winner === undefined ? [] : seatsOfTeam(context, decision.winner);
  return {
    result: { ...base, handScores: new Array<number>(context.seatCount).fill(0), marked, marriageCount },
    scores,
    marked,
    marriageCount,
    tieBreak: decision.tieBreak,
    outcome: decision.over ? { finished: true, scores, winners } : null,
  };
}

interface Decision {
  readonly over: boolean;
  /** Undefined with `over` is a draw. */
  readonly winner?: Team;
  readonly tieBreak: boolean;
}

const CONTINUE: Decision = { over: false, tieBreak: false };

function sevenSuitorsDecision(
  context: TableContext,
  marked: TeamTally<readonly Suit[]>,
  count: TeamTally<number>,
  handMarriages: TeamTally<number>,
): Decision {
  const end = parseEnd((context.options as SevenSuitorsOptions).end);
  if (end.kind === 'allSuits') {
    if (context.tieBreak) {
      const winner = higher(handMarriages);
      return winner === undefined ? { over: false, tieBreak: true } : { over: true, winner, tieBreak: false };
    }
    const complete = TEAMS.filter((team) => marked[team].length === SUITS.length);
    if (complete.length === 1) return { over: true, winner: complete[0], tieBreak: false };
    if (complete.length === 2) {
      const winner = higher(count);
      return winner === undefined ? { over: false, tieBreak: true } : { over: true, winner, tieBreak: false };
    }
    return CONTINUE;
  }
  if (end.kind === 'hands') {
    if (context.handResults.length + 1 < end.hands) return CONTINUE;
    const winner = higher({ A: marked.A.length, B: marked.B.length }) ?? higher(count);
    return { over: true, winner, tieBreak: false };
  }
  const reached = TEAMS.filter((team) => count[team] >= end.marriages);
  if (reached.length === 0) return CONTINUE;
  return { over: true, winner: reached.length === 1 ? reached[0] : higher(count), tieBreak: false };
}

function higher(tally: TeamTally<number>): Team | undefined {
  if (tally.A === tally.B) return undefined;
  return tally.A > tally.B ? 'A' : 'B';
}

function seatsOfTeam(context: TableContext, team: Team): Seat[] {
  return Array.from({ length: context.seatCount }, (_, seat) => seat).filter((seat) => fixedTeamOf(seat) === team);
}

/** The game's result so far: final once it is over, otherwise the running totals with no winner. */
export function outcomeSoFar(context: TableContext): GameOutcome {
  return context.outcome ?? { finished: false, scores: context.scores, winners: [] };
}
