/**
 * The lab's fold on small corpora whose figures are known by hand: crafted
 * records (the fold takes records as verified, so a crafted one need only
 * say what it is about), and games played through the real machines whose
 * length the rules fix.
 */
import { describe, expect, it } from 'vitest';
import type { GameRecord, RecordedHand } from '../../machines/record/record.js';
import { parseOptions, type GameName } from '../../machines/table/options.js';
import { simulateGame } from '../simulator/simulate.js';
import { combinedCorpora, sectionsInOrder, withGame, type CorpusTally } from './corpus.js';
import { figuresOf } from './figures.js';
import { labStatsOf } from './labStats.js';
import { wilsonInterval } from './statistics/intervals.js';

function hand(
  overrides: Partial<RecordedHand> & {
    handScores: number[];
    trump?: number;
    leader?: number;
    marriages?: { suit: number; by: 'A' | 'B' | number }[];
  },
): RecordedHand {
  const { handScores, trump = 1, leader = 0, marriages = [], ...rest } = overrides;
  return {
    deal: [],
    roles: null,
    antiCupid: null,
    passes: [],
    plays: [],
    accusations: null,
    ...rest,
    result: {
      trump: trump as 1,
      tricks: [{ leader, winner: leader, capturedBy: leader }],
      marriages: marriages as { suit: 1; by: 'A' }[],
      handScores,
      marked: null,
      marriageCount: null,
    },
  };
}

function crafted(game: GameName, hands: RecordedHand[], winners: number[]): GameRecord {
  const parsed = parseOptions(game, {});
  if (!parsed.ok) throw new Error(parsed.errors.join('; '));
  const seats = hands[0]?.result?.handScores.length ?? 4;
  return {
    format: 'seven-suitors-record/2',
    game,
    options: parsed.options as GameRecord['options'],
    rules: 1,
    seats,
    hands,
    result: { finished: true, scores: new Array(seats).fill(0), winners },
  };
}

function corpusOf(records: readonly GameRecord[], bots = 'random'): CorpusTally {
  return records.reduce<CorpusTally>((corpus, record) => withGame(corpus, record, bots), new Map());
}

describe('a seat that always wins', () => {
  const spoilerHand = (antiCupid: number) =>
    hand({ antiCupid, handScores: [1, 1, 1, 1, 1].map((score, seat) => (seat === 2 ? 5 : score)) });
  const records = Array.from({ length: 10 }, () => crafted('antiCupid', [0, 1, 2, 3, 4].map(spoilerHand), [2]));
  const [section] = sectionsInOrder(corpusOf(records)).map(figuresOf);

  it('has a win share of 1 for that seat and 0 for the others, with Wilson intervals', () => {
    expect(section.count).toBe(10);
    expect(section.winShare.bySeat).toEqual([0, 0, 1, 0, 0]);
    expect(section.winShare.bySeatCi95[2]).toEqual(wilsonInterval(10, 10));
    expect(section.winShare.bySeatCi95[0][0]).toBe(0);
    expect(section.winShare.bySeatCi95[0][1]).toBeCloseTo(0.2775327998628892, 12);
    expect(section.draws.share).toBe(0);
  });

  it('fails the test of equal shares: 40 on 4 degrees of freedom (p from scipy.stats.chi2.sf(40, 4))', () => {
    expect(section.seatTest).toMatchObject({ over: 'seats', wins: [0, 0, 10, 0, 0], degreesOfFreedom: 4, rough: true });
    expect(section.seatTest!.statistic).toBeCloseTo(40, 12);
    expect(section.seatTest!.pValue).toBeCloseTo(4.328422607120966e-8, 15);
  });

  it('sets the spoiler against the partners hand by hand: tops every hand it plays as Anti-Cupid only once in five', () => {
    // Seat 2 scores 5 in every hand, whoever is Anti-Cupid; as Anti-Cupid it is seat 2 once in five hands.
    expect(section.loneRole).toMatchObject({ lone: 'Anti-Cupid', others: 'the partners' });
    expect(section.loneRole!.topsHand).toMatchObject({ count: 10, of: 50, share: 0.2 });
    expect(section.loneRole!.lonePointsPerHand.mean).toBeCloseTo((4 * 1 + 5) / 5, 12);
    expect(section.loneRole!.otherPointsPerHand.mean).toBeCloseTo((4 * (3 * 1 + 5) + 4 * 1) / 20, 12);
  });
});

describe('a team game counts a win once, for the team', () => {
  it('tests teams, not seats, where a team wins (Seven Suitors)', () => {
    const records = [...Array.from({ length: 10 }, () => crafted('sevenSuitors', [hand({ handScores: [0, 0, 0, 0] })], [0, 2]))];
    const [section] = sectionsInOrder(corpusOf(records)).map(figuresOf);
    expect(section.winShare.bySeat).toEqual([1, 0, 1, 0]);
    expect(section.winShare.byTeam).toMatchObject({ A: { count: 10, share: 1 }, B: { count: 0, share: 0 } });
    // scipy.stats.chisquare([10, 0]): 10, p = 0.001565402258002549.
    expect(section.seatTest).toMatchObject({ over: 'teams', wins: [10, 0], degreesOfFreedom: 1 });
    expect(section.seatTest!.pValue).toBeCloseTo(0.001565402258002549, 12);
  });
});

describe('the Traitor and the first lead', () => {
  it('counts the Traitor from the Hearts tracking card, and where the trump the first leader chose was married', () => {
    const roles = [1, 2, 7, 3, 4, 5];
    const traitorHand = (marriedBy: 'A' | 'B' | null) =>
      hand({
        roles: roles as RecordedHand['roles'],
        handScores: [1, 1, 3, 1, 1, 1],
        trump: 4,
        leader: 1,
        marriages: marriedBy === null ? [{ suit: 2, by: 'A' }] : [{ suit: 4, by: marriedBy }],
      });
    const record = crafted('traitorOfLove', [traitorHand('B'), traitorHand('B'), traitorHand('A'), traitorHand(null)], [2]);
    const [section] = sectionsInOrder(corpusOf([record])).map(figuresOf);
    expect(section.loneRole).toMatchObject({ lone: 'Traitor', others: 'Matchmakers', topsHand: { count: 4, of: 4 } });
    expect(section.loneRole!.lonePointsPerHand.mean).toBe(3);
    expect(section.loneRole!.otherPointsPerHand.mean).toBe(1);
    // Seat 1 led, so team B's marriage of the trump suit is the leader's side's.
    expect(section.firstLead.hands).toBe(4);
    expect(section.firstLead.trumpMarriedByLeaderSide.count).toBe(2);
    expect(section.firstLead.trumpMarriedByOtherSide.count).toBe(1);
    expect(section.firstLead.trumpUnmarried.count).toBe(1);
    // Each hand has one marriage: the leader's side (B) has the most in the two hands it married the trump.
    expect(section.firstLead.leaderSideMarriesMost.count).toBe(2);
    expect(section.marriagesPerHand.mean).toBe(1);
  });
});

describe('a game of exactly N hands, played through the real machines', () => {
  const games = Array.from(
    { length: 12 },
    (_, i) => simulateGame({ game: 'sevenSuitors', options: { end: 'hands:3', specials: 'off' }, seed: `exactly-${i}` }).record,
  );

  it('has 3 hands in every game: mean, interval, median and p90 are all 3', () => {
    const [section] = sectionsInOrder(corpusOf(games)).map(figuresOf);
    expect(section.count).toBe(12);
    expect(section.finished).toBe(12);
    expect(section.handsPerGame).toMatchObject({ count: 12, mean: 3, sd: 0, ci95: [3, 3], median: 3, p90: 3, histogram: { 3: 12 } });
    expect(section.tricksPerHand).toMatchObject({ mean: 14, sd: 0 });
    expect(section.cardsPerHand).toMatchObject({ mean: 56, sd: 0 });
    // Suits marked over a game's hands add up to what is marked at its end.
    const markedAtEnd = games.reduce(
      (sum, record) => sum + record.hands[2].result!.marked!.A.length + record.hands[2].result!.marked!.B.length,
      0,
    );
    expect(section.suitsMarkedPerHand!.mean * 36).toBeCloseTo(markedAtEnd, 9);
  });

  it('gives the same figures however the corpus is cut and in whatever order the parts combine', () => {
    const whole = corpusOf(games);
    const parts = combinedCorpora(corpusOf(games.slice(7)), corpusOf(games.slice(0, 7)));
    expect(sectionsInOrder(parts)).toEqual(sectionsInOrder(whole));
  });

  it('keeps sections apart by options and bots, and compares those differing in one setting', () => {
    const longer = Array.from(
      { length: 12 },
      (_, i) => simulateGame({ game: 'sevenSuitors', options: { end: 'hands:5', specials: 'off' }, seed: `exactly-${i}` }).record,
    );
    const corpus = combinedCorpora(corpusOf(games), combinedCorpora(corpusOf(longer), corpusOf(games, 'heuristic')));
    const stats = labStatsOf(corpus, { source: 'crafted' });
    expect(stats.sections.map((section) => [section.options.end, section.bots])).toEqual([
      ['hands:3', 'heuristic'],
      ['hands:3', 'random'],
      ['hands:5', 'random'],
    ]);
    const byEnd = stats.comparisons.find((comparison) => comparison.setting === 'end')!;
    expect(byEnd).toMatchObject({ from: 'hands:3', to: 'hands:5', common: { specials: 'off', bots: 'random' } });
    expect(byEnd.differences[0]).toMatchObject({ figure: 'hands per game', from: 3, to: 5, difference: 2, ci95: [2, 2] });
    const byBots = stats.comparisons.find((comparison) => comparison.setting === 'bots')!;
    expect(byBots.differences[0]).toMatchObject({ difference: 0 });
    // hands:3 (heuristic) and hands:5 (random) differ in two settings: not compared.
    expect(stats.comparisons).toHaveLength(2);
  });
});
