/**
 * Scoring and the end of each game (RULES.md §3 "Marriage", §4, §5, §7),
 * driven end to end through the real machines: each test deals a crafted
 * hand (small `cardsPerSeat`, the machines' own support for short hands),
 * makes the passes that leave every seat holding exactly the cards it is
 * scripted to play, and plays the tricks card by card. Every card must be
 * accepted, so the scripts are legal under the rules as well.
 */
import { describe, expect, it } from 'vitest';
import { accept, newTable } from '../../test/kit/table.js';
import type { Card, Suit } from '../cards/card.js';
import type { CompletedTrick, HandResult, TableContext } from '../table/context.js';
import type { PassChoice } from '../table/events.js';
import { phaseOf, type TableActor } from '../table/snapshot.js';
import { passRecipients, tablePasses } from '../fragments/passing.js';
import { marriagesOf } from './marriage.js';
import { sideOf } from '../games/rules/index.js';
import type { Seat } from './trick.js';

type ScriptedTrick = readonly (readonly [Seat, Card])[];

interface ScriptedHand {
  readonly tricks: readonly ScriptedTrick[];
  /** A Traitor of Love: each seat's tracking-card suit. */
  readonly roles?: readonly Suit[];
  /** A Traitor of Love: the teammate each seat names. */
  readonly accusations?: readonly Seat[];
}

/**
 * Deals a hand so that after passing each seat holds exactly the cards it
 * plays in `hand.tricks`: a seat keeps its first cards and receives its last
 * ones, one from each seat that passes to it. Then plays the hand out.
 */
function playHand(table: TableActor, hand: ScriptedHand): { deal: Card[][] } {
  const context = table.getSnapshot().context;
  const seats = context.seatCount;
  const targets: Card[][] = Array.from({ length: seats }, () => []);
  for (const trick of hand.tricks) for (const [seat, card] of trick) targets[seat].push(card);
  const deal: Card[][] = targets.map(() => []);
  const passes: PassChoice[][] = targets.map(() => []);
  const passing = tablePasses(context);
  for (let seat = 0; seat < seats; seat++) {
    if (!passing) {
      deal[seat].push(...targets[seat]);
      continue;
    }
    const senders = targets.flatMap((_, other) => (passRecipients(context, other).includes(seat) ? [other] : []));
    const kept = targets[seat].length - senders.length;
    deal[seat].push(...targets[seat].slice(0, kept));
    senders.forEach((sender, i) => {
      const card = targets[seat][kept + i];
      deal[sender].push(card);
      passes[sender].push({ to: seat, card });
    });
  }
  accept(table, { type: 'hand.dealt', deal, roles: hand.roles ?? null });
  if (passing) for (let seat = 0; seat < seats; seat++) accept(table, { type: 'cards.passed', seat, passes: passes[seat] });
  for (const trick of hand.tricks) for (const [seat, card] of trick) accept(table, { type: 'card.played', seat, card });
  hand.accusations?.forEach((accused, seat) => accept(table, { type: 'traitor.accused', seat, accused }));
  return { deal };
}

function contextOf(table: TableActor): TableContext {
  return table.getSnapshot().context;
}

function lastResult(table: TableActor): HandResult {
  const results = contextOf(table).handResults;
  return results[results.length - 1];
}

/** Seat s plays as seat s + by: the same hand, turned round the table. */
function rotate(tricks: readonly ScriptedTrick[], by: number, seats: number): ScriptedTrick[] {
  return tricks.map((trick) => trick.map(([seat, card]) => [(seat + by) % seats, card] as const));
}

/** The same hand with one card replaced by another. */
function substitute(tricks: readonly ScriptedTrick[], from: Card, to: Card): ScriptedTrick[] {
  let found = false;
  const out = tricks.map((trick) =>
    trick.map(([seat, card]) => {
      if (card !== from) return [seat, card] as const;
      found = true;
      return [seat, to] as const;
    }),
  );
  if (!found) throw new Error(`${from} is not in the script`);
  return out;
}

// ---------------------------------------------------------------------------
// Seven Suitors
// ---------------------------------------------------------------------------

/**
 * Five cards a seat; seat 0 holds the 1 and leads it, so Spades is trump.
 * Team B (1, 3) marries Spades, Pyramids and Hearts (suits 1, 6, 7); team A
 * (0, 2) takes the lead with a ruff and marries suits 2, 3, 4 and 5.
 */
const SS_X: ScriptedTrick[] = [
  [
    [0, '1-1'],
    [1, '1-7a'],
    [2, '1-2'],
    [3, '1-7b'],
  ], // both trump 7s: 1-7a first, seat 1 wins
  [
    [1, '6-7a'],
    [2, '7-7a'],
    [3, '6-7b'],
    [0, '7-7b'],
  ], // seat 1 takes both 7s of suits 6 and 7
  [
    [1, '6-6'],
    [2, '1-3'],
    [3, '2-7a'],
    [0, '2-7b'],
  ], // seat 2 ruffs and takes both 7s of suit 2
  [
    [2, '3-7a'],
    [3, '4-7a'],
    [0, '3-7b'],
    [1, '4-7b'],
  ], // seat 2: suits 3 and 4
  [
    [2, '5-7a'],
    [3, '2-2'],
    [0, '5-7b'],
    [1, '4-4'],
  ], // seat 2: suit 5
];
/** A {2,3,4}, B {1,6,7}: 5-7b is not dealt, so Stars is not married. */
const SS_E = substitute(SS_X, '5-7b', '5-5');
/** A {2,3}, B {1,6,7}. */
const SS_G = substitute(SS_E, '4-7b', '4-5');
/** A {1,6,7}, B {2,3,4,5}: SS_X one seat round, which swaps the teams. */
const SS_Y = rotate(SS_X, 1, 4);

const SS_HANDS = { X: SS_X, Y: SS_Y, E: SS_E, G: SS_G };
type SsHandName = keyof typeof SS_HANDS;

function playSevenSuitors(end: string, hands: readonly SsHandName[]): TableActor {
  const table = newTable('sevenSuitors', { options: { end }, cardsPerSeat: 5, seated: true });
  hands.forEach((name, index) => {
    expect(contextOf(table).outcome, `the game ended before hand ${index + 1}`).toBeNull();
    playHand(table, { tricks: SS_HANDS[name] });
  });
  return table;
}

describe('Seven Suitors', () => {
  it('plays RULES.md §9 end to end: 7a of trump played first wins, and team B marries Moons', () => {
    const table = newTable('sevenSuitors', { cardsPerSeat: 3, seated: true });
    const { deal } = playHand(table, {
      tricks: [
        [
          [2, '2-8'],
          [3, '2-4'],
          [0, '2-5'],
          [1, '2-6'],
        ], // seat 2 holds the 1 but leads Moons: trump is Moons
        [
          [2, '3-9'],
          [3, '2-7a'],
          [0, '3-8'],
          [1, '2-7b'],
        ], // §9
        [
          [3, '4-4'],
          [0, '4-5'],
          [1, '4-6'],
          [2, '1-1'],
        ],
      ],
    });
    // The 1 was dealt to seat 3 and passed to seat 2, who therefore led.
    expect(deal[3]).toContain('1-1');
    expect(lastResult(table)).toEqual({
      trump: 2,
      tricks: [
        { leader: 2, winner: 2, capturedBy: 2 },
        { leader: 2, winner: 3, capturedBy: 3 },
        { leader: 3, winner: 1, capturedBy: 1 },
      ],
      marriages: [{ suit: 2, by: 'B' }],
      handScores: [0, 0, 0, 0],
      marked: { A: [], B: [2] },
      marriageCount: { A: 0, B: 1 },
    });
    expect(contextOf(table).scores).toEqual([0, 1, 0, 1]);
  });

  it('marks each married suit for its team and counts every marriage, even of a suit already marked', () => {
    const table = playSevenSuitors('allSuits', ['X']);
    expect(lastResult(table)).toEqual({
      trump: 1,
      tricks: [
        { leader: 0, winner: 1, capturedBy: 1 },
        { leader: 1, winner: 1, capturedBy: 1 },
        { leader: 1, winner: 2, capturedBy: 2 },
        { leader: 2, winner: 2, capturedBy: 2 },
        { leader: 2, winner: 2, capturedBy: 2 },
      ],
      marriages: [
        { suit: 1, by: 'B' },
        { suit: 2, by: 'A' },
        { suit: 3, by: 'A' },
        { suit: 4, by: 'A' },
        { suit: 5, by: 'A' },
        { suit: 6, by: 'B' },
        { suit: 7, by: 'B' },
      ],
      handScores: [0, 0, 0, 0],
      marked: { A: [2, 3, 4, 5], B: [1, 6, 7] },
      marriageCount: { A: 4, B: 3 },
    });
    expect(contextOf(table).scores).toEqual([4, 3, 4, 3]);

    playHand(table, { tricks: SS_X });
    expect(lastResult(table).marked).toEqual({ A: [2, 3, 4, 5], B: [1, 6, 7] });
    expect(lastResult(table).marriageCount).toEqual({ A: 8, B: 6 });
    expect(contextOf(table).scores).toEqual([4, 3, 4, 3]);
    expect(contextOf(table).outcome).toBeNull();
  });

  it('does not marry a suit whose 7s are split between the teams or not both captured', () => {
    const table = playSevenSuitors('allSuits', ['G']);
    expect(lastResult(table).marriages).toEqual([
      { suit: 1, by: 'B' },
      { suit: 2, by: 'A' },
      { suit: 3, by: 'A' },
      { suit: 6, by: 'B' },
      { suit: 7, by: 'B' },
    ]);
  });

  interface Ending {
    readonly end: string;
    readonly hands: readonly SsHandName[];
    readonly winners: readonly Seat[];
    readonly scores: readonly number[];
    readonly marriageCount: { A: number; B: number };
  }

  describe('end allSuits', () => {
    it.each<Ending & { name: string }>([
      {
        name: 'B alone completes its seven suits and wins',
        end: 'allSuits',
        hands: ['E', 'Y'],
        winners: [1, 3],
        scores: [6, 7, 6, 7],
        marriageCount: { A: 6, B: 7 },
      },
      {
        name: 'both complete in the same hand: the higher marriage count wins',
        end: 'allSuits',
        hands: ['X', 'X', 'Y'],
        winners: [0, 2],
        scores: [7, 7, 7, 7],
        marriageCount: { A: 11, B: 10 },
      },
      {
        name: 'both complete with equal counts: one more hand, won by the team with more marriages in it',
        end: 'allSuits',
        hands: ['X', 'Y', 'X'],
        winners: [0, 2],
        scores: [7, 7, 7, 7],
        marriageCount: { A: 11, B: 10 },
      },
      {
        name: 'the tie-break hand repeats while its marriages are equal',
        end: 'allSuits',
        hands: ['X', 'Y', 'E', 'Y'],
        winners: [1, 3],
        scores: [7, 7, 7, 7],
        marriageCount: { A: 13, B: 14 },
      },
    ])('$name', ({ end, hands, winners, scores, marriageCount }) => {
      const table = playSevenSuitors(end, hands);
      const context = contextOf(table);
      expect(context.outcome).toEqual({ finished: true, scores, winners });
      expect(context.marriageCount).toEqual(marriageCount);
      expect(context.tieBreak).toBe(false);
      expect(phaseOf(table.getSnapshot())).toBe('gameOver');
    });

    it('goes on while neither team has all seven suits', () => {
      const table = playSevenSuitors('allSuits', ['E', 'E', 'X', 'G']);
      expect(contextOf(table).marked).toEqual({ A: [2, 3, 4, 5], B: [1, 6, 7] });
      expect(contextOf(table).marriageCount).toEqual({ A: 12, B: 12 });
      expect(contextOf(table).outcome).toBeNull();
      expect(phaseOf(table.getSnapshot())).toBe('dealing');
    });

    it('ends when a team completes, however many suits the other team has', () => {
      const table = playSevenSuitors('allSuits', ['Y', 'E']);
      // A: {1,6,7} + {2,3,4} = six suits; B: {2,3,4,5} + {1,6,7} = seven.
      expect(contextOf(table).marked).toEqual({ A: [1, 2, 3, 4, 6, 7], B: [1, 2, 3, 4, 5, 6, 7] });
      expect(contextOf(table).outcome).toEqual({ finished: true, scores: [6, 7, 6, 7], winners: [1, 3] });
    });

    it('enters and stays in the tie-break, unfinished, until a hand breaks it', () => {
      const table = playSevenSuitors('allSuits', ['X', 'Y']);
      let context = contextOf(table);
      expect(context.marked).toEqual({ A: [1, 2, 3, 4, 5, 6, 7], B: [1, 2, 3, 4, 5, 6, 7] });
      expect(context.marriageCount).toEqual({ A: 7, B: 7 });
      expect(context.tieBreak).toBe(true);
      expect(context.outcome).toBeNull();
      expect(phaseOf(table.getSnapshot())).toBe('dealing');
      playHand(table, { tricks: SS_E });
      context = contextOf(table);
      expect(context.marriageCount).toEqual({ A: 10, B: 10 });
      expect(context.tieBreak).toBe(true);
      expect(context.outcome).toBeNull();
    });
  });

  describe('end hands:K', () => {
    it.each<Ending & { name: string }>([
      {
        name: 'after K hands the team with more suits marked wins',
        end: 'hands:2',
        hands: ['X', 'X'],
        winners: [0, 2],
        scores: [4, 3, 4, 3],
        marriageCount: { A: 8, B: 6 },
      },
      {
        name: 'equal suits marked: the higher marriage count wins',
        end: 'hands:2',
        hands: ['E', 'G'],
        winners: [1, 3],
        scores: [3, 3, 3, 3],
        marriageCount: { A: 5, B: 6 },
      },
      {
        name: 'equal suits and counts: a draw',
        end: 'hands:2',
        hands: ['E', 'E'],
        winners: [],
        scores: [3, 3, 3, 3],
        marriageCount: { A: 6, B: 6 },
      },
      {
        name: 'all seven suits marked before hand K does not end the game',
        end: 'hands:3',
        hands: ['X', 'Y', 'X'],
        winners: [0, 2],
        scores: [7, 7, 7, 7],
        marriageCount: { A: 11, B: 10 },
      },
      {
        name: 'bare "hands" plays exactly seven hands',
        end: 'hands',
        hands: ['X', 'X', 'X', 'X', 'X', 'X', 'Y'],
        winners: [0, 2],
        scores: [7, 7, 7, 7],
        marriageCount: { A: 27, B: 22 },
      },
    ])('$name', ({ end, hands, winners, scores, marriageCount }) => {
      const table = playSevenSuitors(end, hands);
      expect(contextOf(table).outcome).toEqual({ finished: true, scores, winners });
      expect(contextOf(table).marriageCount).toEqual(marriageCount);
      expect(contextOf(table).handResults).toHaveLength(hands.length);
    });
  });

  describe('end marriages:M', () => {
    it.each<Ending & { name: string }>([
      {
        name: 'the first team to reach M wins',
        end: 'marriages:4',
        hands: ['X'],
        winners: [0, 2],
        scores: [4, 3, 4, 3],
        marriageCount: { A: 4, B: 3 },
      },
      {
        name: 'team B reaching M alone wins',
        end: 'marriages:4',
        hands: ['Y'],
        winners: [1, 3],
        scores: [3, 4, 3, 4],
        marriageCount: { A: 3, B: 4 },
      },
      {
        name: 'both reach M in the same hand: the higher count wins',
        end: 'marriages:3',
        hands: ['X'],
        winners: [0, 2],
        scores: [4, 3, 4, 3],
        marriageCount: { A: 4, B: 3 },
      },
      {
        name: 'both reach M with equal counts: a draw',
        end: 'marriages:3',
        hands: ['E'],
        winners: [],
        scores: [3, 3, 3, 3],
        marriageCount: { A: 3, B: 3 },
      },
      {
        name: 'counts below M carry on to the next hand',
        end: 'marriages:5',
        hands: ['X', 'X'],
        winners: [0, 2],
        scores: [4, 3, 4, 3],
        marriageCount: { A: 8, B: 6 },
      },
      {
        name: 'bare "marriages" is 10',
        end: 'marriages',
        hands: ['X', 'X', 'X'],
        winners: [0, 2],
        scores: [4, 3, 4, 3],
        marriageCount: { A: 12, B: 9 },
      },
    ])('$name', ({ end, hands, winners, scores, marriageCount }) => {
      const table = playSevenSuitors(end, hands);
      expect(contextOf(table).outcome).toEqual({ finished: true, scores, winners });
      expect(contextOf(table).marriageCount).toEqual(marriageCount);
    });
  });
});

// ---------------------------------------------------------------------------
// Anti-Cupid
// ---------------------------------------------------------------------------

/**
 * Four cards a seat, no passing. Seat 0 is dealt the 1, so it is Anti-Cupid
 * and leads; partnership A is seats 1 and 3, B seats 2 and 4.
 * Anti-Cupid takes both 7s of suit 2; A marries suit 3 with one 7 taken by
 * each partner in different tricks; B marries suit 4; suit 5 is split
 * between Anti-Cupid and seat 2; no 7 of suits 1, 6 or 7 is dealt.
 */
const AC_HAND: ScriptedTrick[] = [
  [
    [0, '1-1'],
    [1, '2-7a'],
    [2, '2-7b'],
    [3, '5-7a'],
    [4, '6-6'],
  ], // the only trump: seat 0
  [
    [0, '3-3'],
    [1, '3-7a'],
    [2, '6-8'],
    [3, '3-4'],
    [4, '7-8'],
  ], // seat 1 takes 3-7a
  [
    [1, '4-4'],
    [2, '4-7a'],
    [3, '5-7b'],
    [4, '4-7b'],
    [0, '5-5'],
  ], // seat 2 takes both 7s of suit 4
  [
    [2, '7-9'],
    [3, '7-13'],
    [4, '7-10'],
    [0, '3-7b'],
    [1, '7-11'],
  ], // seat 3 takes 3-7b
];
const AC_TRICKS = [
  { leader: 0, winner: 0, capturedBy: 0 },
  { leader: 0, winner: 1, capturedBy: 1 },
  { leader: 1, winner: 2, capturedBy: 2 },
  { leader: 2, winner: 3, capturedBy: 3 },
];
/** The same hand with Anti-Cupid's 5-5 in the third trick replaced by the Chaperone. */
const AC_CHAPERONE_HAND = substitute(AC_HAND, '5-5', 'chaperone');

describe('Anti-Cupid', () => {
  it('scores each suit: a partnership marriage, Anti-Cupid capturing both 7s, and split 7s', () => {
    const table = newTable('antiCupid', { cardsPerSeat: 4, seated: true });
    playHand(table, { tricks: AC_HAND });
    expect(contextOf(table).hand!.antiCupid).toBe(0);
    expect(lastResult(table)).toEqual({
      trump: 1,
      tricks: AC_TRICKS,
      marriages: [
        { suit: 2, by: 0 },
        { suit: 3, by: 'A' },
        { suit: 4, by: 'B' },
      ],
      // Anti-Cupid: suits 1, 5, 6, 7. Seats 1-4: suit 2; seats 1, 3: suit 3; seats 2, 4: suit 4.
      handScores: [4, 2, 2, 2, 2],
      marked: null,
      marriageCount: null,
    });
    expect(contextOf(table).scores).toEqual([4, 2, 2, 2, 2]);
  });

  it('with powers, a 7 set aside by the Chaperone forms no marriage: Anti-Cupid scores the suit', () => {
    const table = newTable('antiCupid', { options: { specials: 'powers' }, cardsPerSeat: 4, seated: true });
    playHand(table, { tricks: AC_CHAPERONE_HAND });
    const result = lastResult(table);
    expect(result.tricks).toEqual([AC_TRICKS[0], AC_TRICKS[1], { leader: 1, winner: 2, capturedBy: null }, AC_TRICKS[3]]);
    expect(result.marriages).toEqual([
      { suit: 2, by: 0 },
      { suit: 3, by: 'A' },
    ]);
    // Suit 4 is no longer B's: Anti-Cupid scores suits 1, 4, 5, 6, 7.
    expect(result.handScores).toEqual([5, 2, 1, 2, 1]);
  });

  it('with plain specials, the same Chaperone is captured like any card and suit 4 is married', () => {
    const table = newTable('antiCupid', { options: { specials: 'plain' }, cardsPerSeat: 4, seated: true });
    playHand(table, { tricks: AC_CHAPERONE_HAND });
    expect(lastResult(table).tricks).toEqual(AC_TRICKS);
    expect(lastResult(table).handScores).toEqual([4, 2, 2, 2, 2]);
  });

  it('moves the role one seat left each hand and ends after five hands; equal top scores share the win', () => {
    const table = newTable('antiCupid', { cardsPerSeat: 4, seated: true });
    for (let hand = 0; hand < 5; hand++) {
      expect(contextOf(table).outcome).toBeNull();
      playHand(table, { tricks: rotate(AC_HAND, hand, 5) });
      expect(contextOf(table).hand!.antiCupid).toBe(hand);
      expect(lastResult(table).handScores).toEqual(rotateScores([4, 2, 2, 2, 2], hand));
    }
    expect(contextOf(table).outcome).toEqual({ finished: true, scores: [12, 12, 12, 12, 12], winners: [0, 1, 2, 3, 4] });
    expect(phaseOf(table.getSnapshot())).toBe('gameOver');
  });

  it('gives the win to the single highest score after five hands', () => {
    const table = newTable('antiCupid', { options: { specials: 'powers' }, cardsPerSeat: 4, seated: true });
    for (let hand = 0; hand < 4; hand++) playHand(table, { tricks: rotate(AC_HAND, hand, 5) });
    expect(contextOf(table).scores).toEqual([10, 10, 10, 10, 8]);
    expect(contextOf(table).outcome).toBeNull();
    playHand(table, { tricks: rotate(AC_CHAPERONE_HAND, 4, 5) });
    expect(contextOf(table).outcome).toEqual({ finished: true, scores: [12, 11, 12, 11, 13], winners: [4] });
  });

  it('with passing oneEach, Anti-Cupid is the holder of the 1 after the deal, not after passing', () => {
    const table = newTable('antiCupid', { options: { passing: 'oneEach' }, cardsPerSeat: 4, seated: true });
    const { deal } = playHand(table, { tricks: AC_HAND });
    expect(deal[1]).toContain('1-1');
    const result = lastResult(table);
    expect(contextOf(table).hand!.antiCupid).toBe(1);
    expect(result.tricks[0].leader).toBe(0);
    // Around Anti-Cupid 1: A is seats 2 and 4, B seats 3 and 0. Seat 0 takes both 7s of suit 2 for B;
    // suit 3 is split between Anti-Cupid (seat 1) and seat 3; seat 2 marries suit 4 for A; suit 5 is split.
    expect(result.marriages).toEqual([
      { suit: 2, by: 'B' },
      { suit: 4, by: 'A' },
    ]);
    expect(result.handScores).toEqual([1, 5, 1, 1, 1]);
  });
});

function rotateScores(scores: readonly number[], by: number): number[] {
  return scores.map((_, seat) => scores[(seat - by + scores.length) % scores.length]);
}

// ---------------------------------------------------------------------------
// A Traitor of Love
// ---------------------------------------------------------------------------

/**
 * Three cards a seat, all passed to the other team. Team A (0, 2, 4)
 * marries suits 1 and 5, team B (1, 3, 5) suits 2, 4 and 6: the marriages
 * of rules.md's worked example.
 */
const TRAITOR_HAND: ScriptedTrick[] = [
  [
    [0, '1-1'],
    [1, '5-7a'],
    [2, '1-7a'],
    [3, '5-7b'],
    [4, '1-7b'],
    [5, '3-3'],
  ], // seat 2 wins with 1-7a
  [
    [2, '2-2'],
    [3, '2-7a'],
    [4, '3-4'],
    [5, '2-7b'],
    [0, '3-5'],
    [1, '4-7a'],
  ], // seat 3 wins with 2-7a
  [
    [3, '4-7b'],
    [4, '3-8'],
    [5, '6-7a'],
    [0, '3-6'],
    [1, '6-7b'],
    [2, '3-9'],
  ], // seat 3 wins with 4-7b
];

/** Roles with the Traitor (Hearts) at `traitor`, the other seats holding other suits. */
function rolesWithTraitor(traitor: Seat): Suit[] {
  const others: Suit[] = [3, 1, 5, 2, 4];
  return Array.from({ length: 6 }, (_, seat) => (seat === traitor ? 7 : others.shift()!));
}

describe('A Traitor of Love', () => {
  it("scores rules.md's worked example: marriages, then the accusation bonus on the Traitor's team", () => {
    const table = newTable('traitorOfLove', { cardsPerSeat: 3, seated: true });
    playHand(table, { tricks: TRAITOR_HAND, roles: [3, 1, 7, 5, 2, 4], accusations: [2, 3, 4, 1, 0, 3] });
    expect(lastResult(table)).toEqual({
      trump: 1,
      tricks: [
        { leader: 0, winner: 2, capturedBy: 2 },
        { leader: 2, winner: 3, capturedBy: 3 },
        { leader: 3, winner: 3, capturedBy: 3 },
      ],
      marriages: [
        { suit: 1, by: 'A' },
        { suit: 2, by: 'B' },
        { suit: 4, by: 'B' },
        { suit: 5, by: 'A' },
        { suit: 6, by: 'B' },
      ],
      // Seat 0: 2 + 2 (named the Traitor). Seat 2, Traitor: B's 3 - 1 (named by 0) + 1 (not by 4). Seat 4: 2. B: 3 each.
      handScores: [4, 3, 3, 3, 2, 3],
      marked: null,
      marriageCount: null,
    });
  });

  it.each([
    {
      name: 'both teammates name the Traitor: +2 each, the Traitor loses 2',
      traitor: 2,
      accusations: [2, 3, 0, 1, 2, 3],
      handScores: [4, 3, 1, 3, 4, 3],
    },
    {
      name: 'neither teammate names the Traitor: the Traitor gains 2',
      traitor: 2,
      accusations: [4, 3, 0, 1, 0, 3],
      handScores: [2, 3, 5, 3, 2, 3],
    },
    {
      name: "the Traitor's own accusation scores nothing",
      traitor: 2,
      accusations: [4, 3, 4, 1, 0, 3],
      handScores: [2, 3, 5, 3, 2, 3],
    },
    {
      name: "a Traitor on team B scores A's marriages; only team B's accusations count",
      traitor: 5,
      accusations: [2, 5, 0, 1, 2, 1],
      // Seat 1 named the Traitor: 3 + 2. Seat 3 named seat 1: 3. Traitor: 2 - 1 + 1. Team A: 2 each, their accusations ignored.
      handScores: [2, 5, 2, 3, 2, 2],
    },
    {
      name: 'both teammates name a Traitor on team B',
      traitor: 1,
      accusations: [2, 3, 4, 1, 0, 1],
      // Traitor seat 1 scores A's 2 marriages, named by both 3 and 5: 2 - 2 = 0.
      handScores: [2, 0, 2, 5, 2, 5],
    },
  ])('$name', ({ traitor, accusations, handScores }) => {
    const table = newTable('traitorOfLove', { cardsPerSeat: 3, seated: true });
    playHand(table, { tricks: TRAITOR_HAND, roles: rolesWithTraitor(traitor), accusations });
    expect(lastResult(table).handScores).toEqual(handScores);
  });

  it('can score a Traitor below zero', () => {
    // Without 5-7b team A marries only Spades: the Traitor on B scores 1, then loses 2.
    const table = newTable('traitorOfLove', { cardsPerSeat: 3, seated: true });
    const tricks = substitute(TRAITOR_HAND, '5-7b', '5-5');
    playHand(table, { tricks, roles: rolesWithTraitor(1), accusations: [2, 3, 4, 1, 0, 1] });
    expect(lastResult(table).marriages).toEqual([
      { suit: 1, by: 'A' },
      { suit: 2, by: 'B' },
      { suit: 4, by: 'B' },
      { suit: 6, by: 'B' },
    ]);
    expect(lastResult(table).handScores).toEqual([1, -1, 1, 5, 1, 5]);
    expect(contextOf(table).scores).toEqual([1, -1, 1, 5, 1, 5]);
  });

  it('waits after the last trick until all six have named a teammate', () => {
    const table = newTable('traitorOfLove', { cardsPerSeat: 3, seated: true });
    playHand(table, { tricks: TRAITOR_HAND, roles: rolesWithTraitor(0) });
    expect(phaseOf(table.getSnapshot())).toBe('accusation');
    const accusations = [2, 3, 4, 5, 0, 1];
    for (let seat = 0; seat < 5; seat++) accept(table, { type: 'traitor.accused', seat, accused: accusations[seat] });
    expect(phaseOf(table.getSnapshot())).toBe('accusation');
    expect(contextOf(table).handResults).toHaveLength(0);
    accept(table, { type: 'traitor.accused', seat: 5, accused: 1 });
    expect(contextOf(table).handResults).toHaveLength(1);
    expect(phaseOf(table.getSnapshot())).toBe('dealing');
  });

  it('ends only after a hand in which someone has more than 15: exactly 15 plays on', () => {
    const table = newTable('traitorOfLove', { cardsPerSeat: 3, seated: true });
    // Traitor seat 2, named by seat 0 only: [4, 3, 3, 3, 2, 3].
    const p = { tricks: TRAITOR_HAND, roles: rolesWithTraitor(2), accusations: [2, 3, 4, 1, 0, 3] };
    // Traitor seat 0, named by seat 2 only: [3, 3, 4, 3, 2, 3].
    const q = { tricks: TRAITOR_HAND, roles: rolesWithTraitor(0), accusations: [2, 3, 0, 5, 2, 1] };
    for (const hand of [p, p, p, q]) playHand(table, hand);
    expect(contextOf(table).scores).toEqual([15, 12, 13, 12, 8, 12]);
    expect(contextOf(table).outcome).toBeNull();
    expect(phaseOf(table.getSnapshot())).toBe('dealing');
    playHand(table, p);
    expect(contextOf(table).outcome).toEqual({ finished: true, scores: [19, 15, 16, 15, 10, 15], winners: [0] });
    expect(phaseOf(table.getSnapshot())).toBe('gameOver');
  });

  it('shares the win among equal highest scores', () => {
    const table = newTable('traitorOfLove', { cardsPerSeat: 3, seated: true });
    // Nobody names the Traitor: Traitor seat 0 [5,3,2,3,2,3]; seat 2 [2,3,5,3,2,3]; seat 1 [2,4,2,3,2,3].
    const unnamed0 = { tricks: TRAITOR_HAND, roles: rolesWithTraitor(0), accusations: [2, 3, 4, 5, 2, 3] };
    const unnamed2 = { tricks: TRAITOR_HAND, roles: rolesWithTraitor(2), accusations: [4, 3, 0, 5, 0, 3] };
    const unnamed1 = { tricks: TRAITOR_HAND, roles: rolesWithTraitor(1), accusations: [2, 3, 4, 5, 0, 3] };
    for (const hand of [unnamed0, unnamed2, unnamed0, unnamed2]) playHand(table, hand);
    expect(contextOf(table).scores).toEqual([14, 12, 14, 12, 8, 12]);
    expect(contextOf(table).outcome).toBeNull();
    playHand(table, unnamed1);
    expect(contextOf(table).outcome).toEqual({ finished: true, scores: [16, 16, 16, 15, 10, 15], winners: [0, 1, 2] });
  });
});

// ---------------------------------------------------------------------------
// Marriages from completed tricks
// ---------------------------------------------------------------------------

describe('marriagesOf', () => {
  const completed = (winner: Seat, capturedBy: Seat | null, ...cards: Card[]): CompletedTrick => ({
    leader: 0,
    plays: cards.map((card, seat) => ({ seat, card })),
    winner,
    capturedBy,
  });
  const sevenSuitorsSide = (seat: Seat) => sideOf('sevenSuitors', seat, null, 4);

  it('marries a suit whose 7s one team captured in different tricks, by different partners', () => {
    const tricks = [completed(0, 0, '3-7a', '3-3', '3-4', '3-5'), completed(2, 2, '3-6', '3-7b', '3-8', '3-9')];
    expect(marriagesOf(tricks, sevenSuitorsSide)).toEqual([{ suit: 3, by: 'A' }]);
  });

  it('marries nothing when the 7s are split between the teams', () => {
    const tricks = [completed(0, 0, '3-7a', '3-3', '3-4', '3-5'), completed(1, 1, '3-6', '3-7b', '3-8', '3-9')];
    expect(marriagesOf(tricks, sevenSuitorsSide)).toEqual([]);
  });

  it('gives the 7s to the seat that captured them after a Go-Between, not to the winner', () => {
    const tricks = [completed(0, 1, '4-7a', '4-7b', 'go-between', '4-4')];
    expect(marriagesOf(tricks, sevenSuitorsSide)).toEqual([{ suit: 4, by: 'B' }]);
  });

  it('marries nothing with a 7 set aside by a Chaperone, even when its twin is captured', () => {
    const tricks = [completed(0, null, '5-7a', 'chaperone', '5-5', '5-6'), completed(2, 2, '5-7b', '5-8', '5-9', '5-10')];
    expect(marriagesOf(tricks, sevenSuitorsSide)).toEqual([]);
  });

  it("names Anti-Cupid's marriage by its seat number, and the partnerships around it A and B", () => {
    const antiCupidSide = (seat: Seat) => sideOf('antiCupid', seat, 2, 5);
    // Around Anti-Cupid 2: A is seats 3 and 0, B seats 4 and 1 (rules.md's table).
    expect([0, 1, 2, 3, 4].map(antiCupidSide)).toEqual(['A', 'B', 2, 'A', 'B']);
    const tricks = [
      completed(2, 2, '6-7a', '6-7b', '6-6', '6-8', '6-9'),
      completed(3, 3, '1-7a', '1-2', '1-3', '1-4', '1-5'),
      completed(0, 0, '1-7b', '7-7a', '1-6', '4-4', '4-5'),
      completed(4, 4, '7-7b', '4-7a', '7-8', '7-9', '7-10'),
      completed(1, 1, '4-7b', '2-2', '2-3', '2-4', '2-5'),
    ];
    expect(marriagesOf(tricks, antiCupidSide)).toEqual([
      { suit: 1, by: 'A' },
      { suit: 4, by: 'B' },
      { suit: 6, by: 2 },
    ]);
  });

  it('lists marriages by suit, whatever order they were made in', () => {
    const tricks = [completed(1, 1, '6-7a', '6-7b', '2-7a', '2-7b')];
    expect(marriagesOf(tricks, sevenSuitorsSide)).toEqual([
      { suit: 2, by: 'B' },
      { suit: 6, by: 'B' },
    ]);
  });
});
