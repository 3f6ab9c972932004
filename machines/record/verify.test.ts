/**
 * The record checker (RECORD.md): records of real games verify, and every
 * kind of tampering is reported against the field it touched: an illegal
 * card, a wrong trick winner, a wrong score, a missing pass, a wrong
 * Anti-Cupid, wrong marriages, a hand after the game is over.
 */
import { describe, expect, it } from 'vitest';
import { accept, optionsOf } from '../../test/kit/table.js';
import type { Card } from '../cards/card.js';
import { createRng, seedFrom, type Rng } from '../cards/shuffle.js';
import { randomMove } from '../bots/randomBot.js';
import { contributedDeal, fairDeal, shuffleDeal } from '../fragments/dealing.js';
import type { TableContext, TableInput } from '../table/context.js';
import type { TableEvent } from '../table/events.js';
import type { GameName } from '../table/options.js';
import { awaitedActions } from '../table/refusal.js';
import { phaseOf, startTable } from '../table/snapshot.js';
import { recordFromEvents, type GameRecord } from './record.js';
import { verifyRecord, type RecordProblem } from './verify.js';
import { SS_DEAL, SS_PASSES } from '../fixtures/sevenSuitorsHand.js';

interface Game {
  readonly input: TableInput;
  readonly events: TableEvent[];
}

/**
 * A game's events: seats taken, then `prefix`, then random legal moves with
 * the host dealing from a seeded shuffle, until the game ends or `maxHands`
 * hands have been dealt.
 */
function playGame(
  game: GameName,
  given: Record<string, string>,
  seed: string,
  prefix: TableEvent[] = [],
  maxHands = 60,
  dealing: 'unproven' | 'fair' | 'contributed' = 'unproven',
): Game {
  const input: TableInput = { game, options: optionsOf(game, given) };
  const table = startTable(input);
  const events: TableEvent[] = [];
  const send = (event: TableEvent) => {
    accept(table, event);
    events.push(event);
  };
  for (let seat = 0; seat < table.getSnapshot().context.seatCount; seat++) {
    send({ type: 'seat.joined', seat, player: { name: `P${seat}`, bot: true } });
  }
  prefix.forEach(send);
  const rng = createRng(seed);
  for (let snapshot = table.getSnapshot(); phaseOf(snapshot) !== 'gameOver'; snapshot = table.getSnapshot()) {
    if (phaseOf(snapshot) === 'dealing') {
      if (snapshot.context.handResults.length >= maxHands) break;
      send(dealOf(dealing, snapshot.context, rng));
    } else {
      const [next] = awaitedActions(snapshot);
      send(randomMove(snapshot, next.seat, next.action, rng));
    }
  }
  table.stop();
  return { input, events };
}

/** The host's deal: a seeded shuffle, a seed's deal, or a secret's with a contribution from every other seat. */
function dealOf(dealing: 'unproven' | 'fair' | 'contributed', context: TableContext, rng: Rng): TableEvent {
  if (dealing === 'unproven') return shuffleDeal(context, rng);
  if (dealing === 'fair') return fairDeal(context, seedFrom(rng));
  const contributions = context.occupants.map((_, seat) => (seat % 2 === 0 ? seedFrom(rng) : null));
  return contributedDeal(context, seedFrom(rng), contributions);
}

/** A JSON document: every field of a record can be tampered with. */
type Writable<T> = T extends object ? { -readonly [K in keyof T]: Writable<T[K]> } : T;
type RecordDocument = Writable<GameRecord>;

/** A record as a JSON document, free to be tampered with. */
function recordOf(game: Game, eventCount = game.events.length): RecordDocument {
  return JSON.parse(JSON.stringify(recordFromEvents(game.input, game.events.slice(0, eventCount)))) as RecordDocument;
}

function problemsOf(record: unknown): readonly RecordProblem[] {
  return verifyRecord(JSON.parse(JSON.stringify(record))).problems;
}

/** The problems expected when hand 0 cannot be replayed: the refusal, then a note on the next hand if any. */
function unreplayable(record: RecordDocument, field: string, message: string): RecordProblem[] {
  const problems = [{ field, message }];
  if (record.hands.length > 1) problems.push({ field: 'hands[1]', message: 'not checked: an earlier hand could not be replayed' });
  return problems;
}

/**
 * Seven Suitors with a known first hand start: the suit deck dealt in order,
 * known passes and a first trick of Clubs (trump) that seat 2's 4-10 wins.
 */
const SS_PREFIX: TableEvent[] = [
  { type: 'hand.dealt', deal: SS_DEAL, roles: null },
  ...SS_PASSES.map((passes, seat): TableEvent => ({ type: 'cards.passed', seat, passes })),
  ...(
    [
      [0, '4-4'],
      [1, '4-7a'],
      [2, '4-10'],
      [3, '4-7b'],
    ] as const
  ).map(([seat, card]): TableEvent => ({ type: 'card.played', seat, card })),
];

const sevenSuitors = playGame('sevenSuitors', {}, 'verify-ss', SS_PREFIX);
const antiCupid = playGame('antiCupid', {}, 'verify-ac');
const traitor = playGame('traitorOfLove', {}, 'verify-tl');

describe('records of real games', () => {
  it.each([
    ['sevenSuitors', {}],
    ['sevenSuitors', { specials: 'powers', end: 'marriages:4' }],
    ['antiCupid', {}],
    ['antiCupid', { specials: 'powers', passing: 'oneEach' }],
    ['traitorOfLove', {}],
    ['traitorOfLove', { specials: 'powers' }],
  ] as const)('a finished %s game with %j verifies', (game, given) => {
    const record = recordOf(playGame(game, given, `finished-${game}`));
    expect(record.result.finished).toBe(true);
    expect(problemsOf(record)).toEqual([]);
    expect(verifyRecord(record).ok).toBe(true);
  });

  it('the scripted Seven Suitors game verifies, and its first trick is as scripted', () => {
    const record = recordOf(sevenSuitors);
    expect(problemsOf(record)).toEqual([]);
    expect(record.hands[0].result!.trump).toBe(4);
    expect(record.hands[0].result!.tricks[0]).toEqual({ leader: 0, winner: 2, capturedBy: 2 });
    expect(record.hands.length).toBeGreaterThan(1);
  });

  it('keeps service settings in options without complaint', () => {
    const record = recordOf(antiCupid);
    record.options = { ...record.options, turnClock: 30, bots: [1, 2] };
    expect(problemsOf(record)).toEqual([]);
  });
});

describe('unfinished games', () => {
  it('a game stopped between hands verifies', () => {
    const record = recordOf(playGame('antiCupid', {}, 'stopped', [], 2));
    expect(record.hands).toHaveLength(2);
    expect(record.result.finished).toBe(false);
    expect(record.result.winners).toEqual([]);
    expect(problemsOf(record)).toEqual([]);
  });

  it('a game stopped in the middle of a hand verifies, its last hand without a result', () => {
    const playsOfHand1 = antiCupid.events.flatMap((event, index) => (event.type === 'card.played' ? [index] : [])).slice(60, 90);
    const record = recordOf(antiCupid, playsOfHand1[17]);
    expect(record.hands).toHaveLength(2);
    expect(record.hands[1].plays.length).toBeGreaterThan(0);
    expect(record.hands[1].result).toBeNull();
    expect(record.result).toEqual({ finished: false, scores: record.hands[0].result!.handScores, winners: [] });
    expect(problemsOf(record)).toEqual([]);
  });

  it('a game stopped during passing verifies, with the passes made so far', () => {
    const firstPass = traitor.events.findIndex((event) => event.type === 'cards.passed');
    const record = recordOf(traitor, firstPass + 2);
    expect(record.hands).toHaveLength(1);
    expect(record.hands[0].passes).toHaveLength(6);
    expect(record.hands[0].plays).toEqual([]);
    expect(problemsOf(record)).toEqual([]);
  });

  it('a game stopped during the accusations verifies', () => {
    const firstAccusation = traitor.events.findIndex((event) => event.type === 'traitor.accused');
    const record = recordOf(traitor, firstAccusation + 3);
    expect(record.hands[0].accusations!.filter((seat) => seat !== null)).toHaveLength(3);
    expect(record.hands[0].result).toBeNull();
    expect(problemsOf(record)).toEqual([]);
  });

  it('reports an unfinished game recorded as finished', () => {
    const record = recordOf(playGame('antiCupid', {}, 'stopped', [], 2));
    record.result.finished = true;
    expect(problemsOf(record)).toEqual([{ field: 'result.finished', message: 'recorded true, the rules give false' }]);
  });

  it('reports a result recorded for a hand that is not complete', () => {
    const record = recordOf(antiCupid, antiCupid.events.findIndex((event) => event.type === 'card.played') + 5);
    record.hands[0].result = recordOf(antiCupid).hands[0].result;
    expect(problemsOf(record)).toEqual([{ field: 'hands[0].result', message: 'recorded, but the hand is not complete' }]);
  });

  it('reports a complete hand without its result', () => {
    const record = recordOf(sevenSuitors);
    record.hands[0].result = null;
    expect(problemsOf(record)).toEqual([{ field: 'hands[0].result', message: 'missing, but the hand is complete' }]);
  });
});

describe('illegal moves', () => {
  it('reports a card that does not follow suit', () => {
    const record = recordOf(sevenSuitors);
    record.hands[0].plays[1] = [1, '3-4'];
    expect(problemsOf(record)).toEqual(
      unreplayable(record, 'hands[0].plays[1]', 'seat 1 must follow Clubs, the suit led (4): the 6 of Clubs (4-6) is in its hand'),
    );
  });

  it('reports a card the seat does not hold', () => {
    const record = recordOf(sevenSuitors);
    record.hands[0].plays[1] = [1, '5-11'];
    expect(problemsOf(record)).toEqual(unreplayable(record, 'hands[0].plays[1]', "5-11 is not in seat 1's hand"));
  });

  it('reports a card that was passed away', () => {
    const record = recordOf(sevenSuitors);
    record.hands[0].plays[0] = [0, '2-2'];
    expect(problemsOf(record)).toEqual(unreplayable(record, 'hands[0].plays[0]', "2-2 is not in seat 0's hand"));
  });

  it('reports a card played out of turn', () => {
    const record = recordOf(sevenSuitors);
    record.hands[0].plays[1] = [2, '4-10'];
    expect(problemsOf(record)).toEqual(unreplayable(record, 'hands[0].plays[1]', "it is seat 1's turn"));
  });

  it('reports a card that is not a card', () => {
    const record = recordOf(sevenSuitors);
    record.hands[0].plays[2] = [2, '4-11' as Card];
    expect(problemsOf(record)).toEqual(
      unreplayable(record, 'hands[0].plays[2]', '"4-11" is not a card: suit 4 holds ranks 4, 5, 6, 7a, 7b, 8, 9, 10'),
    );
  });

  it('reports a play after the last card of the hand', () => {
    const record = recordOf(sevenSuitors);
    record.hands[0].plays.push(record.hands[0].plays[0]);
    const refused = problemsOf(record)[0];
    expect(refused.field).toBe(`hands[0].plays[${record.hands[0].plays.length - 1}]`);
    expect(refused.message).toBe('no card can be played now: the next hand has not been dealt yet');
  });

  it('reports a deal that is not the whole deck', () => {
    const record = recordOf(sevenSuitors);
    record.hands[0].deal[3][13] = '2-2';
    expect(problemsOf(record)).toEqual(unreplayable(record, 'hands[0].deal', '2-2 is dealt twice'));
  });
});

describe('passes', () => {
  it('reports a missing pass', () => {
    const record = recordOf(sevenSuitors);
    record.hands[0].passes = record.hands[0].passes.filter((pass) => !(pass.from === 0 && pass.to === 1));
    expect(problemsOf(record)).toEqual(
      unreplayable(record, 'hands[0].passes (seat 0)', 'seat 0 must pass one card to each of seats 1, 2, 3'),
    );
  });

  it("reports a seat's passes all missing at the first play", () => {
    const record = recordOf(sevenSuitors);
    record.hands[0].passes = record.hands[0].passes.filter((pass) => pass.from !== 3);
    expect(problemsOf(record)).toEqual(
      unreplayable(record, 'hands[0].plays[0]', 'no card can be played now: the hand is in passing; waiting for seat 3 to pass'),
    );
  });

  it('reports a pass of a card not held', () => {
    const record = recordOf(sevenSuitors);
    record.hands[0].passes[0] = { from: 0, to: 1, card: '7-13' };
    expect(problemsOf(record)).toEqual(unreplayable(record, 'hands[0].passes (seat 0)', "7-13 is not in seat 0's hand"));
  });

  it('reports a pass in a game played without passing', () => {
    const record = recordOf(antiCupid);
    record.hands[0].passes = [{ from: 0, to: 1, card: record.hands[0].deal[0][0] }];
    expect(problemsOf(record)).toEqual(
      unreplayable(record, 'hands[0].passes (seat 0)', 'this table does not pass cards (its passing option is none)'),
    );
  });

  it('reports, in A Traitor of Love, a pass to a teammate', () => {
    const record = recordOf(traitor);
    const pass = record.hands[0].passes.find((candidate) => candidate.from === 0 && candidate.to === 1)!;
    pass.to = 2;
    expect(problemsOf(record)).toEqual(
      unreplayable(record, 'hands[0].passes (seat 0)', 'seat 0 must pass one card to each of seats 1, 3, 5; 2 is not one of them'),
    );
  });
});

describe('results', () => {
  it('reports a wrong trick winner', () => {
    const record = recordOf(sevenSuitors);
    record.hands[0].result!.tricks[0].winner = 1;
    expect(problemsOf(record)).toEqual([{ field: 'hands[0].result.tricks[0].winner', message: 'recorded 1, the rules give 2' }]);
  });

  it('reports a wrong capture', () => {
    const record = recordOf(sevenSuitors);
    record.hands[0].result!.tricks[0].capturedBy = null;
    expect(problemsOf(record)).toEqual([{ field: 'hands[0].result.tricks[0].capturedBy', message: 'recorded null, the rules give 2' }]);
  });

  it('reports a missing trick', () => {
    const record = recordOf(sevenSuitors);
    record.hands[0].result!.tricks.pop();
    expect(problemsOf(record)).toEqual([{ field: 'hands[0].result.tricks', message: 'the hand has 14 tricks; the record lists 13' }]);
  });

  it('reports a wrong trump', () => {
    const record = recordOf(sevenSuitors);
    record.hands[0].result = { ...record.hands[0].result!, trump: 5 };
    expect(problemsOf(record)).toEqual([{ field: 'hands[0].result.trump', message: 'recorded 5, the rules give 4' }]);
  });

  it('reports wrong marriages', () => {
    const record = recordOf(sevenSuitors);
    const derived = record.hands[0].result!.marriages;
    const tampered = [...derived.filter((marriage) => marriage.suit !== 7), { suit: 7 as const, by: 'A' as const }].sort(
      (a, b) => a.suit - b.suit,
    );
    record.hands[0].result = { ...record.hands[0].result!, marriages: tampered };
    expect(JSON.stringify(tampered)).not.toBe(JSON.stringify(derived));
    expect(problemsOf(record)).toEqual([
      { field: 'hands[0].result.marriages', message: `recorded ${JSON.stringify(tampered)}, the rules give ${JSON.stringify(derived)}` },
    ]);
  });

  it('reports a wrong Anti-Cupid marriage side', () => {
    const record = recordOf(antiCupid);
    const index = record.hands.findIndex((hand) => hand.result!.marriages.some((marriage) => typeof marriage.by === 'number'));
    expect(index).toBeGreaterThanOrEqual(0);
    const derived = record.hands[index].result!.marriages;
    const tampered = derived.map((marriage) => (typeof marriage.by === 'number' ? { ...marriage, by: 'A' as const } : marriage));
    record.hands[index].result = { ...record.hands[index].result!, marriages: tampered };
    expect(problemsOf(record)).toEqual([
      {
        field: `hands[${index}].result.marriages`,
        message: `recorded ${JSON.stringify(tampered)}, the rules give ${JSON.stringify(derived)}`,
      },
    ]);
  });

  it('reports wrong marked suits and marriage counts, per team', () => {
    const record = recordOf(sevenSuitors);
    const result = record.hands[0].result!;
    const marked = result.marked!;
    const count = result.marriageCount!;
    record.hands[0].result = {
      ...result,
      marked: { A: [...marked.A, 9 as never], B: marked.B },
      marriageCount: { A: count.A, B: count.B + 1 },
    };
    expect(problemsOf(record)).toEqual([
      {
        field: 'hands[0].result.marked.A',
        message: `recorded ${JSON.stringify([...marked.A, 9])}, the rules give ${JSON.stringify(marked.A)}`,
      },
      { field: 'hands[0].result.marriageCount.B', message: `recorded ${count.B + 1}, the rules give ${count.B}` },
    ]);
  });

  it('reports a wrong game score', () => {
    const record = recordOf(sevenSuitors);
    const scores = record.result.scores;
    record.result = { ...record.result, scores: [scores[0] + 1, ...scores.slice(1)] };
    expect(problemsOf(record)).toEqual([
      { field: 'result.scores', message: `recorded ${JSON.stringify(record.result.scores)}, the rules give ${JSON.stringify(scores)}` },
    ]);
  });

  it('reports a wrong hand score', () => {
    const record = recordOf(antiCupid);
    const handScores = record.hands[2].result!.handScores;
    const tampered = handScores.map((score, seat) => (seat === 4 ? score + 1 : score));
    record.hands[2].result = { ...record.hands[2].result!, handScores: tampered };
    expect(problemsOf(record)).toEqual([
      {
        field: 'hands[2].result.handScores',
        message: `recorded ${JSON.stringify(tampered)}, the rules give ${JSON.stringify(handScores)}`,
      },
    ]);
  });

  it('reports wrong winners', () => {
    const record = recordOf(traitor);
    const winners = record.result.winners;
    record.result = { ...record.result, winners: [5] };
    expect(winners).not.toEqual([5]);
    expect(problemsOf(record)).toEqual([{ field: 'result.winners', message: `recorded [5], the rules give ${JSON.stringify(winners)}` }]);
  });

  it('reports a wrong Anti-Cupid', () => {
    const record = recordOf(antiCupid);
    const actual = record.hands[1].antiCupid!;
    record.hands[1].antiCupid = (actual + 2) % 5;
    expect(problemsOf(record)).toEqual([
      { field: 'hands[1].antiCupid', message: `recorded ${(actual + 2) % 5}, the rules give ${actual}` },
    ]);
  });

  it('rotates Anti-Cupid one seat left each hand in the records it accepts', () => {
    const record = recordOf(antiCupid);
    const first = record.hands[0].antiCupid!;
    expect(record.hands[0].deal[first]).toContain('1-1');
    expect(record.hands.map((hand) => hand.antiCupid)).toEqual([0, 1, 2, 3, 4].map((index) => (first + index) % 5));
  });
});

describe('A Traitor of Love roles and accusations', () => {
  it('reports roles without the Traitor', () => {
    const record = recordOf(traitor);
    record.hands[0].roles = [1, 2, 3, 4, 5, 6];
    expect(problemsOf(record)).toEqual(unreplayable(record, 'hands[0].deal', 'the roles must include Hearts (7), the Traitor'));
  });

  it('reports an accusation of a seat that is not a teammate', () => {
    const record = recordOf(traitor);
    record.hands[0].accusations![0] = 1;
    expect(problemsOf(record)).toEqual(
      unreplayable(record, 'hands[0].accusations[0]', 'seat 0 must name one of its teammates, seat 2 or seat 4, not 1'),
    );
  });

  it('reports a missing accusation: the hand is not complete, and the next deal is not due', () => {
    const record = recordOf(traitor);
    expect(record.hands.length).toBeGreaterThan(1);
    record.hands[0].accusations![3] = null;
    const problems = [
      { field: 'hands[0].result', message: 'recorded, but the hand is not complete' },
      { field: 'hands[1].deal', message: 'no deal is due: every card is played; waiting for seat 3 to name a teammate' },
    ];
    if (record.hands.length > 2) problems.push({ field: 'hands[2]', message: 'not checked: an earlier hand could not be replayed' });
    expect(problemsOf(record)).toEqual(problems);
  });

  it('reports a changed accusation through the scores it changes', () => {
    const record = recordOf(traitor);
    const roles = record.hands[0].roles!;
    const traitorSeat = roles.indexOf(7);
    const mate = (traitorSeat + 2) % 6;
    const other = (traitorSeat + 4) % 6;
    // The mate switches between naming the Traitor (+2 for it, -1 for the Traitor) and not (+1 for the Traitor).
    const before = record.hands[0].accusations![mate];
    record.hands[0].accusations![mate] = before === traitorSeat ? other : traitorSeat;
    const fields = problemsOf(record).map((problem) => problem.field);
    expect(fields).toContain('hands[0].result.handScores');
    expect(fields).toContain('result.scores');
  });
});

describe('hands beyond the end of the game', () => {
  it.each([
    ['sevenSuitors', sevenSuitors],
    ['antiCupid', antiCupid],
    ['traitorOfLove', traitor],
  ] as const)('reports, in %s, a hand recorded after the game is over', (_, game) => {
    const record = recordOf(game);
    expect(record.result.finished).toBe(true);
    record.hands.push(JSON.parse(JSON.stringify(record.hands[0])));
    expect(problemsOf(record)).toEqual([{ field: `hands[${record.hands.length - 1}].deal`, message: 'no deal is due: the game is over' }]);
  });
});

describe('the document itself', () => {
  it.each([null, 'record', 7, []])('reports %j as not a record', (document) => {
    const problems = verifyRecord(document).problems;
    expect(problems[0]).toEqual(
      Array.isArray(document)
        ? {
            field: 'format',
            message: 'must be "seven-suitors-record/3" (or the older "seven-suitors-record/2" or "seven-suitors-record/1"), not undefined',
          }
        : { field: '', message: 'a record is a JSON object' },
    );
    expect(verifyRecord(document).ok).toBe(false);
  });

  it('reports a wrong format but still checks the game', () => {
    const record = recordOf(antiCupid);
    (record as { format: string }).format = 'seven-suitors-record/4';
    expect(problemsOf(record)).toEqual([
      {
        field: 'format',
        message:
          'must be "seven-suitors-record/3" (or the older "seven-suitors-record/2" or "seven-suitors-record/1"), not "seven-suitors-record/4"',
      },
    ]);
  });

  it('reports an unknown game and stops', () => {
    const record = recordOf(antiCupid);
    (record as { game: string }).game = 'bridge';
    expect(problemsOf(record)).toEqual([
      { field: 'game', message: 'must be sevenSuitors, antiCupid, traitorOfLove or firstLesson, not "bridge"' },
    ]);
  });

  it('reports the wrong number of seats', () => {
    const record = recordOf(antiCupid);
    record.seats = 4;
    expect(problemsOf(record)).toEqual([{ field: 'seats', message: 'antiCupid has 5 seats, not 4' }]);
  });

  it('reports a rules option left out, and checks the game with its default', () => {
    const record = recordOf(sevenSuitors);
    record.options = { end: 'allSuits' } as RecordDocument['options'];
    expect(problemsOf(record)).toEqual([
      { field: 'options.specials', message: 'missing: a record writes every rules option, defaults included' },
    ]);
  });

  it('reports an impossible option', () => {
    const record = recordOf(antiCupid);
    record.options = { ...record.options, specials: 'off' } as RecordDocument['options'];
    expect(problemsOf(record)).toEqual([
      { field: 'options', message: 'specials "off" is impossible in antiCupid: its hand size needs the 60-card deck; use plain or powers' },
    ]);
  });

  it('reports options that contradict the deals: a record of a plain game checked as Seven Suitors without specials', () => {
    const record = recordOf(playGame('sevenSuitors', { specials: 'plain', end: 'hands:1' }, 'plain'));
    record.options = { ...record.options, specials: 'off' } as RecordDocument['options'];
    expect(problemsOf(record)).toEqual([{ field: 'hands[0].deal', message: 'seat 0 must be dealt 14 cards' }]);
  });

  it('reports hands that are not a list', () => {
    const record = recordOf(antiCupid);
    (record as { hands: unknown }).hands = {};
    expect(problemsOf(record)).toEqual([{ field: 'hands', message: 'must be an array of hands' }]);
  });

  it('reports a hand that is not a hand', () => {
    const record = recordOf(antiCupid);
    (record.hands as unknown[])[1] = 'a hand';
    expect(problemsOf(record)).toEqual([
      { field: 'hands[1]', message: 'a hand needs deal, passes, plays and result' },
      { field: 'hands[2]', message: 'not checked: an earlier hand could not be replayed' },
    ]);
  });
});

describe('fair deals (formats 2 and 3)', () => {
  const fairTraitor = playGame('traitorOfLove', { specials: 'plain' }, 'fair-traitor', [], 2, 'fair');
  const fairSuitors = playGame('sevenSuitors', { end: 'hands:2' }, 'fair-suitors', [], 2, 'fair');

  it('writes each hand’s commitment and revealed seed, and verifies every deal against its seed', () => {
    for (const game of [fairTraitor, fairSuitors]) {
      const record = recordOf(game);
      expect(record.format).toBe('seven-suitors-record/3');
      for (const hand of record.hands) {
        expect(hand.fairness).toEqual({
          scheme: 'hmac-sha256-fisher-yates/1',
          commitment: expect.stringMatching(/^[0-9a-f]{64}$/),
          seed: expect.stringMatching(/^[0-9a-f]{64}$/),
          contributions: null,
        });
      }
      expect(verifyRecord(record)).toEqual({ ok: true, problems: [], unverifiedDeals: [], uncontributedDeals: [] });
    }
  });

  it('reports a tampered seed or commitment against the hand’s fairness', () => {
    const record = recordOf(fairSuitors);
    const [first, second] = record.hands;
    first.fairness!.seed = second.fairness!.seed;
    second.fairness!.commitment = first.fairness!.commitment;
    expect(problemsOf(record)).toEqual([
      { field: 'hands[0].fairness', message: 'the commitment is not the SHA-256 of the seed' },
      { field: 'hands[1].fairness', message: 'the commitment is not the SHA-256 of the seed' },
    ]);
    expect(verifyRecord(record).unverifiedDeals).toEqual([0, 1]);
  });

  it('reports a deal that is not its seed’s, even when the game it tells is legal', () => {
    const record = recordOf(fairSuitors);
    // Another seed's deal, with a matching commitment: the game replays (a different one), the proof does not hold.
    const other = recordOf(playGame('sevenSuitors', { end: 'hands:2' }, 'other', [], 2, 'fair'));
    record.hands[0].fairness = other.hands[1].fairness;
    expect(problemsOf(record)[0]).toEqual({
      field: 'hands[0].fairness',
      message: expect.stringMatching(/^seat \d's cards are not the ones the seed deals$/),
    });
  });

  it('reports role cards that are not the seed’s', () => {
    const record = recordOf(fairTraitor);
    const roles = record.hands[0].roles!;
    [roles[0], roles[1]] = [roles[1], roles[0]];
    expect(problemsOf(record)[0]).toEqual({ field: 'hands[0].fairness', message: 'the role cards are not the ones the seed deals' });
  });

  it('reports a scored hand whose seed is not revealed, an unknown scheme, and a missing fairness', () => {
    const record = recordOf(fairSuitors);
    record.hands[0].fairness!.seed = null;
    record.hands[1].fairness!.scheme = 'shuffled-by-hand' as 'hmac-sha256-fisher-yates/1';
    expect(problemsOf(record)).toEqual([
      { field: 'hands[0].fairness.seed', message: 'missing: the hand is scored, so its seed must be revealed' },
      {
        field: 'hands[1].fairness.scheme',
        message: 'must be "hmac-sha256-fisher-yates/1" or "seat-contributions-sha256/2", not "shuffled-by-hand"',
      },
    ]);
    delete record.hands[0].fairness;
    expect(problemsOf(record)[0]).toEqual({
      field: 'hands[0].fairness',
      message: 'missing: formats 2 and 3 write fairness on every hand (null for a deal made without a seed)',
    });
  });

  it('keeps the seed of an unfinished hand out of the record, and leaves that deal unverified', () => {
    const record = recordOf(fairTraitor, fairTraitor.events.length - 3);
    const last = record.hands.at(-1)!;
    expect(last.result).toBeNull();
    expect(last.fairness).toEqual({
      scheme: 'hmac-sha256-fisher-yates/1',
      commitment: expect.any(String),
      seed: null,
      contributions: null,
    });
    expect(verifyRecord(record)).toEqual({
      ok: true,
      problems: [],
      unverifiedDeals: [record.hands.length - 1],
      uncontributedDeals: [],
    });
  });

  it('still verifies a format 1 record, and says none of its deals is verified', () => {
    const record = recordOf(fairSuitors);
    (record as { format: string }).format = 'seven-suitors-record/1';
    for (const hand of record.hands) delete hand.fairness;
    expect(verifyRecord(record)).toEqual({ ok: true, problems: [], unverifiedDeals: [0, 1], uncontributedDeals: [] });
  });

  it('still verifies a format 2 record, whose deals take no contributions, and refuses a scheme 2 deal in it', () => {
    const record = recordOf(fairSuitors);
    (record as { format: string }).format = 'seven-suitors-record/2';
    for (const hand of record.hands) delete hand.fairness!.contributions;
    expect(verifyRecord(record)).toEqual({ ok: true, problems: [], unverifiedDeals: [], uncontributedDeals: [] });
    record.hands[0].fairness!.scheme = 'seat-contributions-sha256/2';
    expect(problemsOf(record)[0]).toEqual({
      field: 'hands[0].fairness.scheme',
      message: 'must be "hmac-sha256-fisher-yates/1", not "seat-contributions-sha256/2"',
    });
  });

  it('reports a hand whose deal is not a list, whatever its proof says, without throwing', () => {
    const record = recordOf(fairSuitors);
    (record.hands[0] as { deal: unknown }).deal = null;
    expect(problemsOf(record)[0]).toEqual({ field: 'hands[0]', message: 'a hand needs deal, passes, plays and result' });
  });

  it('writes each seat’s cards in canonical order, also from a log that holds them in dealt order (before deals were provable), and the record verifies', () => {
    const dealtOrder = SS_DEAL.map((cards) => cards.slice().reverse());
    const game = playGame('sevenSuitors', {}, 'verify-ss', [{ type: 'hand.dealt', deal: dealtOrder, roles: null }, ...SS_PREFIX.slice(1)]);
    const record = recordOf(game);
    expect(record.hands[0].deal).toEqual(SS_DEAL);
    expect(verifyRecord(record).ok).toBe(true);
  });

  it('reports deals made without a seed as unverified, not as problems', () => {
    const record = recordOf(sevenSuitors);
    expect(verifyRecord(record)).toEqual({
      ok: true,
      problems: [],
      unverifiedDeals: record.hands.map((_, index) => index),
      uncontributedDeals: [],
    });
  });
});

describe('deals the seats contributed to (format 3)', () => {
  const contributed = playGame('traitorOfLove', { specials: 'plain' }, 'contributed-traitor', [], 2, 'contributed');

  it('writes each seat’s contribution beside the secret and commitment, and verifies every deal and role deal from them', () => {
    const record = recordOf(contributed);
    for (const hand of record.hands) {
      expect(hand.fairness).toEqual({
        scheme: 'seat-contributions-sha256/2',
        commitment: expect.stringMatching(/^[0-9a-f]{64}$/),
        seed: expect.stringMatching(/^[0-9a-f]{64}$/),
        contributions: [0, 1, 2, 3, 4, 5].map((seat) => (seat % 2 === 0 ? expect.stringMatching(/^[0-9a-f]{64}$/) : null)),
      });
    }
    expect(verifyRecord(record)).toEqual({ ok: true, problems: [], unverifiedDeals: [], uncontributedDeals: [] });
  });

  it('fails a changed contribution, one dropped, one added, naming the hand and a seat whose cards then differ', () => {
    for (const [seat, value] of [
      [2, 'changed'],
      [4, null],
      [1, 'added'],
    ] as const) {
      const record = recordOf(contributed);
      const contributions = record.hands[1].fairness!.contributions!;
      contributions[seat] = value === null ? null : `${value === 'changed' ? 'f' : 'e'}${'0'.repeat(63)}`;
      const [problem] = problemsOf(record);
      expect(problem.field).toBe('hands[1].fairness');
      expect(problem.message).toMatch(/^seat \d's cards are not the ones the seed and the contributions deal$/);
      expect(verifyRecord(record).unverifiedDeals).toEqual([1]);
    }
  });

  it('fails a malformed contribution, and a format 3 record that leaves the contributions out, naming where', () => {
    const record = recordOf(contributed);
    record.hands[0].fairness!.contributions![3] = 'not hex';
    expect(problemsOf(record)[0]).toEqual({
      field: 'hands[0].fairness',
      message: "seat 3's contribution must be 64 lowercase hex characters, or null",
    });
    delete record.hands[0].fairness!.contributions;
    expect(problemsOf(record)[0]).toEqual({
      field: 'hands[0].fairness.contributions',
      message: "missing: format 3 writes the seats' contributions beside the seed (null for a scheme 1 deal)",
    });
  });

  it('keeps the contributions of a hand in play out of the record, as its secret', () => {
    const record = recordOf(contributed, contributed.events.length - 3);
    expect(record.hands.at(-1)!.fairness).toEqual({
      scheme: 'seat-contributions-sha256/2',
      commitment: expect.any(String),
      seed: null,
      contributions: null,
    });
  });
});
