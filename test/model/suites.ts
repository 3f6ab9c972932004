/**
 * What the model-based suite explores for each game: the traversal
 * configurations (generated shortest paths), the exactly-explored sub-graphs
 * (simple paths) and the scripted games (targeted paths) with the outcomes
 * they must reach.
 */
import type { AnyStateMachine } from 'xstate';
import { expect } from 'vitest';
import { createRng } from '../../machines/cards/shuffle.js';
import { shuffleDeal } from '../../machines/fragments/dealing.js';
import type { GameName } from '../../machines/table/options.js';
import { phaseOf, type TableSnapshot } from '../../machines/table/snapshot.js';
import type { DriverSnapshot } from './driver.js';
import { scriptGame, scriptedPath, type HandSpec } from './crafted.js';
import { bothDeals, generateShortestPaths, passingOrderPaths, richDeals, seededDeals, type ModelConfig, type ModelPath } from './model.js';

type PathSource = 'generated' | 'simple' | 'targeted';

interface PathGroup {
  readonly name: string;
  readonly source: PathSource;
  readonly description: string;
  readonly paths: ModelPath[];
  /** Abstract states and model transitions of a traversal (generated groups). */
  readonly keys?: number;
  readonly modelTransitions?: number;
}

export interface GameSuite {
  readonly game: GameName;
  readonly title: string;
  /** The path groups; `only` limits them to some kinds (the traversals are skipped when not wanted). */
  readonly groups: (machine: AnyStateMachine, only?: readonly PathSource[]) => PathGroup[];
  /** Why an item of the definition is reached only by targeted paths (the report quotes this). */
  readonly onlyTargeted: Record<string, string>;
}

function generated(machine: AnyStateMachine, config: ModelConfig, description: string): PathGroup {
  const model = generateShortestPaths(machine, config);
  return {
    name: config.name,
    source: 'generated',
    description,
    paths: model.paths,
    keys: model.keys,
    modelTransitions: model.transitions,
  };
}

const LIMIT = 400_000;

function wanted(only: readonly PathSource[] | undefined, source: PathSource): boolean {
  return only === undefined || only.includes(source);
}

/** The snapshots at which each hand was over and the next one not yet dealt (or the game over). */
function afterEachHand(snapshots: readonly DriverSnapshot[]): DriverSnapshot[] {
  return snapshots.filter((s, i) => i > 0 && s.context.handResults.length > snapshots[i - 1].context.handResults.length);
}

function outcomeOf(snapshots: readonly DriverSnapshot[]) {
  const last = snapshots[snapshots.length - 1];
  expect(phaseOf(last as unknown as TableSnapshot)).toBe('gameOver');
  return last.context.outcome!;
}

const ALL_SUITS_TO = (side: 'A' | 'B'): HandSpec['marry'] => ({ 1: side, 2: side, 3: side, 4: side, 5: side, 6: side, 7: side });

// ---------------------------------------------------------------------------
// Seven Suitors

const sevenSuitors: GameSuite = {
  game: 'sevenSuitors',
  title: 'Seven Suitors',
  onlyTargeted: {},
  groups: (machine, only) => {
    const ss = (end: string, specials: string, cardsPerSeat: number) =>
      ({ game: 'sevenSuitors', options: { end, specials }, cardsPerSeat }) as ModelConfig['input'];
    const generatedGroups = (): PathGroup[] => [
      generated(
        machine,
        {
          name: 'hands:2, 3 cards each',
          input: ss('hands:2', 'off', 3),
          maxHands: 2,
          deals: bothDeals(seededDeals('ss-a', 1), richDeals('ss-a', 2)),
          seatChanges: true,
          limit: LIMIT,
        },
        'Two hands of three cards each (one shuffled and two 7-rich deals per hand), with a seat change at the start of each phase; ends after hand 2.',
      ),
      generated(
        machine,
        {
          name: 'marriages:2, 3 cards each',
          input: ss('marriages:2', 'off', 3),
          maxHands: 3,
          deals: richDeals('ss-b', 2),
          seatChanges: false,
          limit: LIMIT,
        },
        'Up to three hands of 7-rich deals; the game ends once a team has married twice.',
      ),
      generated(
        machine,
        {
          name: 'hands:1, specials powers, 3 cards each',
          input: ss('hands:1', 'powers', 3),
          maxHands: 1,
          deals: bothDeals(seededDeals('ss-c', 2), richDeals('ss-c', 1)),
          seatChanges: false,
          limit: LIMIT,
        },
        'One hand from the 60-card deck with special cards and their powers.',
      ),
    ];
    const simpleGroups = (): PathGroup[] => [
      {
        name: 'every order of passing',
        source: 'simple',
        description:
          'getSimplePaths over an exact serialization: all 24 orders in which four seats can pass reach the same trick-play state.',
        paths: passingOrderPaths(machine, 'passing order', ss('hands:1', 'off', 3), (context) =>
          shuffleDeal(context, createRng('ss-order')),
        ),
      },
    ];
    const allSuits = ss('allSuits', 'off', 4);
    const script = (name: string, input: ModelConfig['input'], hands: HandSpec[], check: (s: readonly DriverSnapshot[]) => void) =>
      scriptedPath(machine, scriptGame(machine, name, input, hands, check));
    const targetedGroups = (): PathGroup[] => [
      {
        name: 'scripted games',
        source: 'targeted',
        description:
          'Crafted deals (4 cards each) whose plays force given marriages, for the end conditions a short traversal cannot reach.',
        paths: [
          script('allSuits: one team marks all seven suits in one hand', allSuits, [{ marry: ALL_SUITS_TO('A') }], (s) => {
            expect(outcomeOf(s).winners).toEqual([0, 2]);
          }),
          script(
            'allSuits: both complete with equal counts, a drawn tie-break hand, then a decisive one',
            allSuits,
            [
              { marry: { 1: 'A', 2: 'A', 3: 'A', 7: 'A', 4: 'B', 5: 'B', 6: 'B' } },
              { marry: { 4: 'A', 5: 'A', 6: 'A', 1: 'B', 2: 'B', 3: 'B', 7: 'B' } },
              { marry: { 1: 'A', 2: 'B' } },
              { marry: { 1: 'A', 2: 'A', 3: 'B' } },
            ],
            (s) => {
              const hands = afterEachHand(s);
              expect(hands.map((h) => h.context.tieBreak)).toEqual([false, true, true, false]);
              expect(hands[1].context.marked).toEqual({ A: [1, 2, 3, 4, 5, 6, 7], B: [1, 2, 3, 4, 5, 6, 7] });
              expect(hands[1].context.marriageCount).toEqual({ A: 7, B: 7 });
              expect(hands.slice(0, 3).map((h) => h.context.outcome)).toEqual([null, null, null]);
              expect(outcomeOf(s).winners).toEqual([0, 2]);
            },
          ),
          script(
            'allSuits: both complete in the same hand, the higher marriage count wins',
            allSuits,
            [
              { marry: { 1: 'A', 2: 'A', 3: 'A', 4: 'A', 5: 'A', 6: 'A', 7: 'B' } },
              { marry: { 1: 'A', 2: 'A', 3: 'B', 4: 'B', 5: 'B' } },
              { marry: { 7: 'A', 1: 'B', 2: 'B', 6: 'B' } },
            ],
            (s) => {
              const last = s[s.length - 1].context;
              expect(last.marriageCount).toEqual({ A: 9, B: 7 });
              expect(outcomeOf(s).winners).toEqual([0, 2]);
            },
          ),
          script(
            'marriages:1: a barren hand, then team B marries',
            ss('marriages:1', 'off', 4),
            [{ marry: {}, split: [3] }, { marry: { 3: 'B' } }],
            (s) => {
              expect(afterEachHand(s)[0].context.outcome).toBeNull();
              expect(outcomeOf(s).winners).toEqual([1, 3]);
            },
          ),
          script(
            'marriages:1: both teams reach it in the same hand with equal counts: a draw',
            ss('marriages:1', 'off', 4),
            [{ marry: { 1: 'A', 2: 'B' } }],
            (s) => {
              const outcome = outcomeOf(s);
              expect(outcome.finished).toBe(true);
              expect(outcome.winners).toEqual([]);
            },
          ),
          script(
            'hands:2: most suits marked wins',
            ss('hands:2', 'off', 4),
            [{ marry: { 1: 'A', 2: 'A', 3: 'B' } }, { marry: { 4: 'B', 5: 'B' } }],
            (s) => {
              expect(outcomeOf(s).winners).toEqual([1, 3]);
            },
          ),
          script(
            'hands:2: equal suits marked, the marriage count decides',
            ss('hands:2', 'off', 4),
            [{ marry: { 1: 'A', 2: 'B' } }, { marry: { 1: 'A' }, split: [2] }],
            (s) => {
              const last = s[s.length - 1].context;
              expect(last.marked).toEqual({ A: [1], B: [2] });
              expect(outcomeOf(s).winners).toEqual([0, 2]);
            },
          ),
        ],
      },
    ];
    return [
      ...(wanted(only, 'generated') ? generatedGroups() : []),
      ...(wanted(only, 'simple') ? simpleGroups() : []),
      ...(wanted(only, 'targeted') ? targetedGroups() : []),
    ];
  },
};

// ---------------------------------------------------------------------------
// Anti-Cupid

const antiCupid: GameSuite = {
  game: 'antiCupid',
  title: 'Anti-Cupid',
  onlyTargeted: {},
  groups: (machine, only) => {
    const ac = (specials: string, passing: string, cardsPerSeat: number) =>
      ({ game: 'antiCupid', options: { specials, passing }, cardsPerSeat }) as ModelConfig['input'];
    const generatedGroups = (): PathGroup[] => [
      generated(
        machine,
        {
          name: 'no passing, 2 cards each, five hands',
          input: ac('plain', 'none', 2),
          maxHands: 5,
          deals: bothDeals(seededDeals('ac-a', 1), richDeals('ac-a', 1)),
          seatChanges: true,
          limit: LIMIT,
        },
        'A whole game: five hands of two cards each (one shuffled and one 7-rich deal per hand); passing is skipped by its guard.',
      ),
      generated(
        machine,
        {
          name: 'oneEach passing, specials powers, 4 cards each',
          input: ac('powers', 'oneEach', 4),
          maxHands: 1,
          deals: bothDeals(seededDeals('ac-b', 1), richDeals('ac-b', 1)),
          seatChanges: true,
          limit: LIMIT,
        },
        'One hand with passing (one card to each of the four others) and special cards with powers.',
      ),
    ];
    const rotation = ac('plain', 'none', 3);
    const game = () =>
      scriptGame(
        machine,
        'five hands: the role rotates left and the game ends after the fifth',
        rotation,
        [{ marry: { 1: 'A' } }, { marry: { 2: 'B' } }, { marry: {}, split: [3] }, { marry: { 4: 'A', 5: 'B' } }, { marry: { 6: 'A' } }],
        (s) => {
          // The first hand's Anti-Cupid held the 1 card; then the role moves one seat left each hand.
          const first = s.find((snap) => snap.context.firstAntiCupid !== null)!.context.firstAntiCupid!;
          const roles = [
            ...new Set(
              s.flatMap((snap) =>
                snap.context.hand === null ? [] : [`hand ${snap.context.hand.index}: seat ${snap.context.hand.antiCupid}`],
              ),
            ),
          ];
          expect(roles).toEqual([0, 1, 2, 3, 4].map((i) => `hand ${i}: seat ${(first + i) % 5}`));
          expect(afterEachHand(s).map((h) => h.context.outcome === null)).toEqual([true, true, true, true, false]);
          expect(outcomeOf(s).finished).toBe(true);
        },
      );
    const targetedGroups = (): PathGroup[] => [
      {
        name: 'scripted games',
        source: 'targeted',
        description: 'A scripted five-hand game with crafted deals (3 cards each), checking the rotation of the role.',
        paths: [scriptedPath(machine, game())],
      },
    ];
    return [...(wanted(only, 'generated') ? generatedGroups() : []), ...(wanted(only, 'targeted') ? targetedGroups() : [])];
  },
};

// ---------------------------------------------------------------------------
// A Traitor of Love

const traitorOfLove: GameSuite = {
  game: 'traitorOfLove',
  title: 'A Traitor of Love',
  onlyTargeted: {
    gameOver:
      'The game ends only after a hand in which someone has more than 15 points. The traversal explores one hand of 3 cards each (a player scores at most 7 + 2 in a hand), so game over needs at least two hands of crafted deals in which one team marries all seven suits: scripted games.',
    'scoring (always) #0': 'Taken when the game is over (see gameOver): only the scripted two-hand games pass 15 points.',
    'scoring (always) #0=true': 'gameIsOver is true only once someone has more than 15 points: the scripted two-hand games.',
  },
  groups: (machine, only) => {
    const tl = (specials: string, cardsPerSeat: number) =>
      ({ game: 'traitorOfLove', options: { specials }, cardsPerSeat }) as ModelConfig['input'];
    const generatedGroups = (): PathGroup[] => [
      generated(
        machine,
        {
          name: 'plain, 3 cards each',
          input: tl('plain', 3),
          maxHands: 1,
          deals: bothDeals(seededDeals('tl-a', 1), richDeals('tl-a', 2)),
          seatChanges: true,
          limit: LIMIT,
        },
        'One hand of three cards each (one shuffled and two 7-rich deals), passing, play and accusation, with a seat change at the start of each phase.',
      ),
      generated(
        machine,
        {
          name: 'specials powers, 3 cards each',
          input: tl('powers', 3),
          maxHands: 1,
          deals: bothDeals(seededDeals('tl-b', 2), richDeals('tl-b', 1)),
          seatChanges: false,
          limit: LIMIT,
        },
        'One hand from the 60-card deck with special cards and their powers.',
      ),
    ];
    const input = tl('plain', 3);
    const all = ALL_SUITS_TO('A');
    // Seats 0, 2, 4 are team A; 1, 3, 5 team B. Each seat names one of its two teammates.
    const traitorUnsuspected: HandSpec = { marry: all, traitor: 1, accusations: [2, 3, 4, 5, 0, 3] };
    const traitorCaught: HandSpec = { marry: all, traitor: 2, accusations: [2, 3, 0, 5, 2, 1] };
    const targetedGroups = (): PathGroup[] => [
      {
        name: 'scripted games',
        source: 'targeted',
        description:
          'Crafted deals (3 cards each: the 1 card, all fourteen 7s, three low cards) in which team A marries all seven suits every hand.',
        paths: [
          scriptedPath(
            machine,
            scriptGame(
              machine,
              'an unsuspected Traitor on team B passes 15 points alone',
              input,
              [traitorUnsuspected, traitorUnsuspected],
              (s) => {
                const hands = afterEachHand(s);
                expect(hands[0].context.scores).toEqual([7, 9, 7, 0, 7, 0]);
                expect(hands[0].context.outcome).toBeNull();
                expect(outcomeOf(s)).toEqual({ finished: true, scores: [14, 18, 14, 0, 14, 0], winners: [1] });
              },
            ),
          ),
          scriptedPath(
            machine,
            scriptGame(machine, 'matchmakers who named the Traitor share the win', input, [traitorCaught, traitorCaught], (s) => {
              expect(afterEachHand(s)[0].context.scores).toEqual([9, 0, -2, 0, 9, 0]);
              expect(outcomeOf(s)).toEqual({ finished: true, scores: [18, 0, -4, 0, 18, 0], winners: [0, 4] });
            }),
          ),
        ],
      },
    ];
    return [...(wanted(only, 'generated') ? generatedGroups() : []), ...(wanted(only, 'targeted') ? targetedGroups() : [])];
  },
};

// ---------------------------------------------------------------------------
// A first lesson

const firstLesson: GameSuite = {
  game: 'firstLesson',
  title: 'Seven Suitors: a first lesson',
  onlyTargeted: {},
  groups: (machine, only) => {
    const lesson = (end: string, cardsPerSeat: number) =>
      ({ game: 'firstLesson', options: { end, specials: 'off' }, cardsPerSeat }) as ModelConfig['input'];
    const generatedGroups = (): PathGroup[] => [
      generated(
        machine,
        {
          name: 'hands:2, 3 cards each',
          input: lesson('hands:2', 3),
          maxHands: 2,
          deals: bothDeals(seededDeals('fl-a', 1), richDeals('fl-a', 2)),
          seatChanges: true,
          limit: LIMIT,
        },
        'Two hands of three cards each (one shuffled and two 7-rich deals per hand), with a seat change at the start of each phase; passing is left at once; ends after hand 2.',
      ),
    ];
    const script = (name: string, input: ModelConfig['input'], hands: HandSpec[], check: (s: readonly DriverSnapshot[]) => void) =>
      scriptedPath(machine, scriptGame(machine, name, input, hands, check));
    const targetedGroups = (): PathGroup[] => [
      {
        name: 'scripted games',
        source: 'targeted',
        description: 'Crafted deals (4 cards each) whose plays force given marriages: who wins a lesson, with no pass in the log.',
        paths: [
          script('hands:1: the team with more suits marked wins', lesson('hands:1', 4), [{ marry: { 1: 'B', 2: 'B', 3: 'A' } }], (s) => {
            expect(s.every((each) => each.context.hand?.passChoices == null)).toBe(true);
            expect(outcomeOf(s).winners).toEqual([1, 3]);
          }),
          script(
            'hands:2: equal suits marked, the marriage count decides',
            lesson('hands:2', 4),
            [{ marry: { 1: 'A', 2: 'B' } }, { marry: { 1: 'A' }, split: [2] }],
            (s) => {
              expect(s[s.length - 1].context.marked).toEqual({ A: [1], B: [2] });
              expect(outcomeOf(s).winners).toEqual([0, 2]);
            },
          ),
        ],
      },
    ];
    return [...(wanted(only, 'generated') ? generatedGroups() : []), ...(wanted(only, 'targeted') ? targetedGroups() : [])];
  },
};

export const SUITES: Record<GameName, GameSuite> = { sevenSuitors, antiCupid, traitorOfLove, firstLesson };
