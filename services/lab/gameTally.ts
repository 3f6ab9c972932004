/**
 * The lab's fold: one game record in, the tally of that one game out
 * (`tallyOfGame`), and two tallies of the same section combined into one
 * (`combinedTallies`). A corpus's figures are the combination of its games'
 * tallies, whatever the order or the cut: a worker thread's share of a
 * played corpus, a directory of records, or (once the fleet's projections
 * exist) the finished games of a live fleet, folded as they finish.
 */
import type { GameRecord, RecordedHand } from '../../machines/record/record.js';
import { rulesOf } from '../../machines/games/rules/index.js';
import type { Side } from '../../machines/table/context.js';
import type { GameName } from '../../machines/table/options.js';
import { rulesOptionsIn } from '../../machines/table/options.js';
import { loneRoleOf, type LoneRoleNames } from './loneRole.js';
import {
  combinedCounts,
  combinedHistograms,
  combinedTallies as combinedSamples,
  EMPTY_TALLY,
  withCount,
  withValue,
  type Histogram,
  type Tally,
} from './tally.js';

/** Records from elsewhere name no bots; the service's own do not either. */
export const BOTS_NOT_RECORDED = 'not recorded';

/** What sets a corpus section apart: figures are only ever combined within one. */
interface SectionKey {
  readonly game: GameName;
  /** The rules version (machines/games/rulebooks.ts); 1 for a record that names none. */
  readonly rules: number;
  /** The rules options in force, defaults written out; service settings left out. */
  readonly options: Readonly<Record<string, unknown>>;
  /** Which bots played: `random`, `heuristic`, or BOTS_NOT_RECORDED. */
  readonly bots: string;
}

interface LoneRoleTally {
  readonly names: LoneRoleNames;
  /** Completed hands with the role. */
  readonly hands: number;
  /** Hands in which the lone seat scored at least as much as everyone else. */
  readonly topsHand: number;
  /** The lone seat's points per hand. */
  readonly lonePoints: Tally;
  /** Each other seat's points per hand, one value per seat and hand. */
  readonly otherPoints: Tally;
}

/** Where the trump the first lead made ended: married by the leader's side, by another, or by nobody. */
interface FirstLeadTally {
  readonly hands: number;
  readonly trumpMarriedByLeaderSide: number;
  readonly trumpMarriedByOtherSide: number;
  readonly trumpUnmarried: number;
  /** Hands in which the first leader's side married more suits than every other side. */
  readonly leaderSideMarriesMost: number;
}

const NO_FIRST_LEADS: FirstLeadTally = {
  hands: 0,
  trumpMarriedByLeaderSide: 0,
  trumpMarriedByOtherSide: 0,
  trumpUnmarried: 0,
  leaderSideMarriesMost: 0,
};

export interface SectionTally extends SectionKey {
  readonly seats: number;
  readonly games: number;
  readonly finished: number;
  /** Finished games nobody won. */
  readonly draws: number;
  /** Hands of each finished game (an unfinished one says nothing of how long games run). */
  readonly handsPerGame: Tally;
  readonly handsHistogram: Histogram;
  /** Over completed hands (a hand with its result), of finished and unfinished games alike. */
  readonly tricksPerHand: Tally;
  readonly cardsPerHand: Tally;
  readonly marriagesPerHand: Tally;
  /** Suits newly marked off in a hand, summed over the teams; null in a game that marks none. */
  readonly suitsMarkedPerHand: Tally | null;
  /** Per seat: finished games in which the seat is among the winners. */
  readonly seatWins: readonly number[];
  /** Per seat: finished games the seat won alone (what the seat test counts where seats, not teams, win). */
  readonly soleWins: readonly number[];
  /** Per fixed team: finished games with a winner on the team; null where sides change each hand. */
  readonly teamWins: Readonly<Record<string, number>> | null;
  readonly loneRole: LoneRoleTally | null;
  readonly firstLead: FirstLeadTally;
}

/** The section a record belongs to. */
function sectionKeyOf(record: GameRecord, bots: string): SectionKey {
  const rules = record.rules ?? 1;
  const { options } = rulesOptionsIn(record.game, rules, record.options);
  const sorted = Object.fromEntries(Object.entries(options).sort(([a], [b]) => (a < b ? -1 : 1)));
  return { game: record.game, rules, options: sorted, bots };
}

/** The same key as a string, to group sections by. */
export function sectionIdOf(key: SectionKey): string {
  return JSON.stringify([key.game, key.rules, key.options, key.bots]);
}

/** The fixed teams of a game (seat by seat), or null where sides change each hand. */
function fixedTeamsOf(game: GameName, seats: number): Side[] | null {
  const rules = rulesOf(game);
  if (rules.words.fixedTeam(0) === null) return null;
  return Array.from({ length: seats }, (_, seat) => rules.sideOf(seat, { seatCount: seats, antiCupid: null }));
}

function emptyTally(key: SectionKey, seats: number): SectionTally {
  const teams = fixedTeamsOf(key.game, seats);
  return {
    ...key,
    seats,
    games: 0,
    finished: 0,
    draws: 0,
    handsPerGame: EMPTY_TALLY,
    handsHistogram: {},
    tricksPerHand: EMPTY_TALLY,
    cardsPerHand: EMPTY_TALLY,
    marriagesPerHand: EMPTY_TALLY,
    suitsMarkedPerHand: rulesOf(key.game).marksSuits ? EMPTY_TALLY : null,
    seatWins: new Array<number>(seats).fill(0),
    soleWins: new Array<number>(seats).fill(0),
    teamWins: teams === null ? null : Object.fromEntries([...new Set(teams)].map((team) => [String(team), 0])),
    loneRole: null,
    firstLead: NO_FIRST_LEADS,
  };
}

/** The tally of one game. The record is taken as verified (records.ts checks a corpus read from files). */
export function tallyOfGame(record: GameRecord, bots: string): SectionTally {
  let tally = emptyTally(sectionKeyOf(record, bots), record.seats);
  const completed = record.hands.filter((hand) => hand.result !== null);
  completed.forEach((hand, index) => {
    tally = withHand(tally, hand, index === 0 ? null : completed[index - 1]);
  });
  return withOutcome({ ...tally, games: 1 }, record);
}

function withOutcome(tally: SectionTally, record: GameRecord): SectionTally {
  const { finished, winners } = record.result;
  if (!finished) return tally;
  const hands = record.hands.length;
  const winning = new Set(winners);
  const teams = fixedTeamsOf(tally.game, tally.seats);
  return {
    ...tally,
    finished: 1,
    draws: winners.length === 0 ? 1 : 0,
    handsPerGame: withValue(EMPTY_TALLY, hands),
    handsHistogram: withCount({}, hands),
    seatWins: tally.seatWins.map((_, seat) => (winning.has(seat) ? 1 : 0)),
    soleWins: tally.soleWins.map((_, seat) => (winners.length === 1 && winners[0] === seat ? 1 : 0)),
    teamWins:
      teams === null
        ? null
        : Object.fromEntries(
            Object.keys(tally.teamWins ?? {}).map((team) => [team, winners.some((seat) => String(teams[seat]) === team) ? 1 : 0]),
          ),
  };
}

function withHand(tally: SectionTally, hand: RecordedHand, before: RecordedHand | null): SectionTally {
  const result = hand.result!;
  return {
    ...tally,
    tricksPerHand: withValue(tally.tricksPerHand, result.tricks.length),
    cardsPerHand: withValue(tally.cardsPerHand, hand.plays.length),
    marriagesPerHand: withValue(tally.marriagesPerHand, result.marriages.length),
    suitsMarkedPerHand:
      tally.suitsMarkedPerHand === null
        ? null
        : withValue(tally.suitsMarkedPerHand, markedCount(hand) - (before === null ? 0 : markedCount(before))),
    loneRole: withLoneRole(tally.loneRole, hand),
    firstLead: withFirstLead(tally, hand),
  };
}

function markedCount(hand: RecordedHand): number {
  const marked = hand.result?.marked;
  return marked === null || marked === undefined ? 0 : marked.A.length + marked.B.length;
}

function withLoneRole(tally: LoneRoleTally | null, hand: RecordedHand): LoneRoleTally | null {
  const role = loneRoleOf(hand);
  if (role === null) return tally;
  const scores = hand.result!.handScores;
  const mine = scores[role.seat];
  const before = tally ?? { names: role.names, hands: 0, topsHand: 0, lonePoints: EMPTY_TALLY, otherPoints: EMPTY_TALLY };
  let otherPoints = before.otherPoints;
  scores.forEach((score, seat) => {
    if (seat !== role.seat) otherPoints = withValue(otherPoints, score);
  });
  return {
    names: before.names,
    hands: before.hands + 1,
    topsHand: before.topsHand + (scores.every((score) => score <= mine) ? 1 : 0),
    lonePoints: withValue(before.lonePoints, mine),
    otherPoints,
  };
}

function withFirstLead(tally: SectionTally, hand: RecordedHand): FirstLeadTally {
  const result = hand.result!;
  const first = result.tricks[0];
  const before = tally.firstLead;
  if (first === undefined || result.trump === null) return before;
  const sideOfSeat = (seat: number) => rulesOf(tally.game).sideOf(seat, { seatCount: tally.seats, antiCupid: hand.antiCupid });
  const leaderSide = sideOfSeat(first.leader);
  const married = result.marriages.find((marriage) => marriage.suit === result.trump);
  const marriagesOf = (side: Side) => result.marriages.filter((marriage) => marriage.by === side).length;
  const otherSides = [...new Set(Array.from({ length: tally.seats }, (_, seat) => sideOfSeat(seat)))].filter((side) => side !== leaderSide);
  const marriesMost = otherSides.every((side) => marriagesOf(leaderSide) > marriagesOf(side));
  return summedCounts(before, {
    hands: 1,
    trumpMarriedByLeaderSide: married !== undefined && married.by === leaderSide ? 1 : 0,
    trumpMarriedByOtherSide: married !== undefined && married.by !== leaderSide ? 1 : 0,
    trumpUnmarried: married === undefined ? 1 : 0,
    leaderSideMarriesMost: marriesMost ? 1 : 0,
  });
}

/** Two records of counts with the same keys, summed key by key. */
function summedCounts<T extends { readonly [K in keyof T]: number }>(a: T, b: T): T {
  return Object.fromEntries((Object.keys(a) as (keyof T)[]).map((key) => [key, a[key] + b[key]])) as T;
}

/** Two tallies of one section as one. */
export function combinedTallies(a: SectionTally, b: SectionTally): SectionTally {
  if (sectionIdOf(a) !== sectionIdOf(b))
    throw new RangeError(`tallies of different sections do not combine: ${sectionIdOf(a)} and ${sectionIdOf(b)}`);
  return {
    ...a,
    games: a.games + b.games,
    finished: a.finished + b.finished,
    draws: a.draws + b.draws,
    handsPerGame: combinedSamples(a.handsPerGame, b.handsPerGame),
    handsHistogram: combinedHistograms(a.handsHistogram, b.handsHistogram),
    tricksPerHand: combinedSamples(a.tricksPerHand, b.tricksPerHand),
    cardsPerHand: combinedSamples(a.cardsPerHand, b.cardsPerHand),
    marriagesPerHand: combinedSamples(a.marriagesPerHand, b.marriagesPerHand),
    suitsMarkedPerHand:
      a.suitsMarkedPerHand === null || b.suitsMarkedPerHand === null ? null : combinedSamples(a.suitsMarkedPerHand, b.suitsMarkedPerHand),
    seatWins: combinedCounts(a.seatWins, b.seatWins),
    soleWins: combinedCounts(a.soleWins, b.soleWins),
    teamWins:
      a.teamWins === null || b.teamWins === null
        ? null
        : Object.fromEntries(Object.keys(a.teamWins).map((team) => [team, a.teamWins![team] + (b.teamWins![team] ?? 0)])),
    loneRole: combinedLoneRoles(a.loneRole, b.loneRole),
    firstLead: summedCounts(a.firstLead, b.firstLead),
  };
}

function combinedLoneRoles(a: LoneRoleTally | null, b: LoneRoleTally | null): LoneRoleTally | null {
  if (a === null || b === null) return a ?? b;
  return {
    names: a.names,
    hands: a.hands + b.hands,
    topsHand: a.topsHand + b.topsHand,
    lonePoints: combinedSamples(a.lonePoints, b.lonePoints),
    otherPoints: combinedSamples(a.otherPoints, b.otherPoints),
  };
}
