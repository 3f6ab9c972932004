/**
 * A section's figures, from its tally: shares with Wilson intervals, means
 * with t intervals, the hands-per-game distribution and the test of "no
 * seat is favoured" (docs/lab.md says how to read each). This is what
 * stats.json holds per section and what the report draws.
 */
import { rulesOf } from '../../machines/games/rules/index.js';
import type { GameName } from '../../machines/table/options.js';
import type { SectionTally } from './gameTally.js';
import { equalSharesTest, type ChiSquaredTest } from './statistics/chiSquaredTest.js';
import { meanInterval, meanOf, varianceOf, wilsonInterval, type Interval } from './statistics/intervals.js';
import { quantileOf, type Histogram, type Tally } from './tally.js';

export interface ShareFigure {
  readonly count: number;
  readonly of: number;
  readonly share: number;
  readonly ci95: Interval;
}

export interface MeanFigure {
  readonly count: number;
  readonly mean: number;
  readonly sd: number;
  readonly ci95: Interval;
}

interface HandsPerGameFigure extends MeanFigure {
  readonly median: number | null;
  readonly p90: number | null;
  readonly histogram: Histogram;
}

/** The seat test: over teams where a team wins, else over seats, counting the games one seat won alone. */
interface SeatTestFigure extends ChiSquaredTest {
  readonly over: 'teams' | 'seats';
  readonly wins: readonly number[];
}

export interface SectionFigures {
  readonly game: GameName;
  readonly title: string;
  readonly rules: number;
  readonly options: Readonly<Record<string, unknown>>;
  readonly bots: string;
  readonly seats: number;
  readonly count: number;
  readonly finished: number;
  readonly handsPerGame: HandsPerGameFigure;
  readonly tricksPerHand: MeanFigure;
  readonly cardsPerHand: MeanFigure;
  readonly marriagesPerHand: MeanFigure;
  readonly suitsMarkedPerHand: MeanFigure | null;
  readonly draws: ShareFigure;
  readonly winShare: {
    /** Fractions of finished games in which each seat is among the winners. */
    readonly bySeat: readonly number[];
    readonly bySeatCi95: readonly Interval[];
    readonly byTeam: Readonly<Record<string, ShareFigure>> | null;
  };
  readonly seatTest: SeatTestFigure | null;
  /** Where a seat plays a role of its own each hand (Anti-Cupid, the Traitor): how it fares against the others. */
  readonly loneRole: {
    readonly lone: string;
    readonly others: string;
    readonly topsHand: ShareFigure;
    readonly lonePointsPerHand: MeanFigure;
    readonly otherPointsPerHand: MeanFigure;
  } | null;
  readonly firstLead: {
    readonly hands: number;
    readonly trumpMarriedByLeaderSide: ShareFigure;
    readonly trumpMarriedByOtherSide: ShareFigure;
    readonly trumpUnmarried: ShareFigure;
    readonly leaderSideMarriesMost: ShareFigure;
  };
}

function shareFigure(count: number, of: number): ShareFigure {
  return { count, of, share: of === 0 ? 0 : count / of, ci95: wilsonInterval(count, of) };
}

function meanFigure(tally: Tally): MeanFigure {
  return { count: tally.count, mean: meanOf(tally), sd: Math.sqrt(varianceOf(tally)), ci95: meanInterval(tally) };
}

export function figuresOf(tally: SectionTally): SectionFigures {
  const { finished } = tally;
  return {
    game: tally.game,
    title: rulesOf(tally.game).title,
    rules: tally.rules,
    options: tally.options,
    bots: tally.bots,
    seats: tally.seats,
    count: tally.games,
    finished,
    handsPerGame: {
      ...meanFigure(tally.handsPerGame),
      median: quantileOf(tally.handsHistogram, 0.5),
      p90: quantileOf(tally.handsHistogram, 0.9),
      histogram: tally.handsHistogram,
    },
    tricksPerHand: meanFigure(tally.tricksPerHand),
    cardsPerHand: meanFigure(tally.cardsPerHand),
    marriagesPerHand: meanFigure(tally.marriagesPerHand),
    suitsMarkedPerHand: tally.suitsMarkedPerHand === null ? null : meanFigure(tally.suitsMarkedPerHand),
    draws: shareFigure(tally.draws, finished),
    winShare: {
      bySeat: tally.seatWins.map((wins) => (finished === 0 ? 0 : wins / finished)),
      bySeatCi95: tally.seatWins.map((wins) => wilsonInterval(wins, finished)),
      byTeam:
        tally.teamWins === null
          ? null
          : Object.fromEntries(Object.entries(tally.teamWins).map(([team, wins]) => [team, shareFigure(wins, finished)])),
    },
    seatTest: seatTestOf(tally),
    loneRole:
      tally.loneRole === null
        ? null
        : {
            lone: tally.loneRole.names.lone,
            others: tally.loneRole.names.others,
            topsHand: shareFigure(tally.loneRole.topsHand, tally.loneRole.hands),
            lonePointsPerHand: meanFigure(tally.loneRole.lonePoints),
            otherPointsPerHand: meanFigure(tally.loneRole.otherPoints),
          },
    firstLead: {
      hands: tally.firstLead.hands,
      trumpMarriedByLeaderSide: shareFigure(tally.firstLead.trumpMarriedByLeaderSide, tally.firstLead.hands),
      trumpMarriedByOtherSide: shareFigure(tally.firstLead.trumpMarriedByOtherSide, tally.firstLead.hands),
      trumpUnmarried: shareFigure(tally.firstLead.trumpUnmarried, tally.firstLead.hands),
      leaderSideMarriesMost: shareFigure(tally.firstLead.leaderSideMarriesMost, tally.firstLead.hands),
    },
  };
}

/** Seats of one team always win together, so a game won by a team counts once, for the team; a shared win between seats counts for none. */
function seatTestOf(tally: SectionTally): SeatTestFigure | null {
  const byTeams = rulesOf(tally.game).words.wonBy === 'team' && tally.teamWins !== null;
  const wins = byTeams ? Object.values(tally.teamWins!) : tally.soleWins;
  const test = equalSharesTest(wins);
  return test === null ? null : { ...test, over: byTeams ? 'teams' : 'seats', wins };
}
