/**
 * Every way a table refuses an event (refusalOf), each with its exact
 * message, and each leaving the table exactly as it was: the machine takes
 * no transition (offer() is false, the actor's snapshot is the same object)
 * and nothing in the context changed.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { accept, expectRefused, inPhase, newTable, playUntil, seatEveryone } from '../../test/kit/table.js';
import { FULL_DECK, SUIT_DECK, type Card, type Suit } from '../cards/card.js';
import { createRng } from '../cards/shuffle.js';
import type { TableEvent } from './events.js';
import { explainRefusal, refusalOf } from './refusal.js';
import { phaseOf, type TableActor } from './snapshot.js';
import { SS_DEAL, SS_PASSES } from '../fixtures/sevenSuitorsHand.js';

const played = (seat: number, card: unknown) => ({ type: 'card.played', seat, card });
const passed = (seat: number, passes: unknown) => ({ type: 'cards.passed', seat, passes });
const accused = (seat: number, whom: unknown) => ({ type: 'traitor.accused', seat, accused: whom });

const SS_DEALT: TableEvent = { type: 'hand.dealt', deal: SS_DEAL, roles: null };

function sevenSuitorsIn(phase: 'dealing' | 'passing' | 'trickPlay'): TableActor {
  const table = newTable('sevenSuitors');
  seatEveryone(table);
  if (phase === 'dealing') return table;
  accept(table, SS_DEALT);
  if (phase === 'passing') return table;
  SS_PASSES.forEach((passes, seat) => accept(table, { type: 'cards.passed', seat, passes }));
  return table;
}

describe('commands of the wrong shape', () => {
  it.each([null, 42, 'card.played', [], [{ type: 'card.played' }]])('refuses %j: not an object', (event) => {
    expect(refusalOf(newTable('sevenSuitors').getSnapshot(), event)).toBe('a command is a JSON object with a "type"');
  });

  it.each([
    [{}, 'undefined'],
    [{ type: 7 }, '7'],
    [{ type: null, seat: 0 }, 'null'],
  ])('refuses %j: a type that is not a string', (event, shown) => {
    // Such events never reach the machine (XState itself requires a string type), so only the refusal is checked.
    const table = newTable('sevenSuitors');
    expect(refusalOf(table.getSnapshot(), event)).toBe(
      `unknown command type ${shown}; a player sends one of cards.passed, card.played, traitor.accused`,
    );
  });

  it.each([
    [{ type: 'card.play', seat: 0, card: '1-1' }, '"card.play"'],
    [{ type: 'CARD.PLAYED' }, '"CARD.PLAYED"'],
    [{ type: 'xstate.init' }, '"xstate.init"'],
  ])('refuses %j: an unknown type', (event, shown) => {
    const table = newTable('sevenSuitors');
    seatEveryone(table);
    expectRefused(table, event, `unknown command type ${shown}; a player sends one of cards.passed, card.played, traitor.accused`);
  });

  // Found by the command fuzzer (hardening/fuzz): quoting a card nested 5,000 deep overflowed the stack, and the host threw.
  it('refuses a command nested too deep, too long or not JSON, without quoting it', () => {
    const table = newTable('sevenSuitors');
    seatEveryone(table);
    let nested: unknown = '1-1';
    for (let depth = 0; depth < 20_000; depth++) nested = { card: nested };
    expectRefused(table, { type: 'card.played', seat: 0, card: nested }, 'a command is nested at most 8 levels deep');
    const cyclic: Record<string, unknown> = { type: 'card.played', seat: 0 };
    cyclic.card = cyclic;
    expect(refusalOf(table.getSnapshot(), cyclic)).toBe('a command is nested at most 8 levels deep');
    expect(refusalOf(table.getSnapshot(), { type: 'card.played', seat: 0, card: 10n })).toBe('a command is plain JSON data');
    expectRefused(
      table,
      { type: 'card.played', seat: 0, card: 'x'.repeat(100_000) },
      'a command is at most 4096 characters as JSON, not 100041',
    );
    expect(explainRefusal(table.getSnapshot(), { type: 't'.repeat(5_000) })?.kind).toBe('malformed');
    // One array reused at every level: a few objects in memory, 10^7 values as JSON (JSON.stringify would not finish).
    let reused: unknown = '1-1';
    for (let depth = 0; depth < 7; depth++) reused = Array.from({ length: 10 }, () => reused);
    expect(refusalOf(table.getSnapshot(), { type: 'card.played', seat: 0, card: reused })).toBe(
      'a command is at most 4096 characters as JSON',
    );
  });
});

describe('seating', () => {
  it('refuses play, deals and passes before every seat is taken, naming the empty seats', () => {
    const table = newTable('sevenSuitors');
    expectRefused(table, played(0, '1-1'), 'no card can be played now: the game has not started; seats 0, 1, 2, 3 are empty');
    expectRefused(table, SS_DEALT, 'no deal is due: the game has not started; seats 0, 1, 2, 3 are empty');
    for (let seat = 0; seat < 3; seat++) accept(table, { type: 'seat.joined', seat, player: { name: `P${seat}`, bot: false } });
    expectRefused(table, passed(0, SS_PASSES[0]), 'no passing now: the game has not started; seat 3 is empty');
    expectRefused(table, played(0, '1-1'), 'no card can be played now: the game has not started; seat 3 is empty');
  });

  it('refuses an accusation outside A Traitor of Love', () => {
    expectRefused(newTable('sevenSuitors'), accused(0, 2), 'only A Traitor of Love has accusations');
    expectRefused(newTable('antiCupid'), accused(0, 2), 'only A Traitor of Love has accusations');
  });

  it.each([
    [{ seat: 4, player: { name: 'Ann', bot: false } }, 'seat must be a whole number from 0 to 3, not 4'],
    [{ seat: -1, player: { name: 'Ann', bot: false } }, 'seat must be a whole number from 0 to 3, not -1'],
    [{ seat: 1.5, player: { name: 'Ann', bot: false } }, 'seat must be a whole number from 0 to 3, not 1.5'],
    [{ seat: '1', player: { name: 'Ann', bot: false } }, 'seat must be a whole number from 0 to 3, not "1"'],
    [{ seat: 1, player: null }, 'a joining player needs a name and a bot flag'],
    [{ seat: 1, player: 'Ann' }, 'a joining player needs a name and a bot flag'],
    [{ seat: 1, player: { name: '', bot: false } }, 'a player name is 1 to 40 characters'],
    [{ seat: 1, player: { name: '   ', bot: false } }, 'a player name is 1 to 40 characters'],
    [{ seat: 1, player: { name: 'x'.repeat(41), bot: false } }, 'a player name is 1 to 40 characters'],
    [{ seat: 1, player: { name: 7, bot: false } }, 'a player name is 1 to 40 characters'],
    [{ seat: 1, player: { name: 'Ann', bot: 'no' } }, 'bot must be true or false'],
    [{ seat: 1, player: { name: 'Ann' } }, 'bot must be true or false'],
    [{ seat: 0, player: { name: 'Ann', bot: false } }, 'seat 0 is taken'],
  ])('refuses seat.joined %j', (fields, message) => {
    const table = newTable('sevenSuitors');
    accept(table, { type: 'seat.joined', seat: 0, player: { name: 'Bea', bot: true } });
    expectRefused(table, { type: 'seat.joined', ...fields }, message);
  });

  it('accepts a name of exactly 40 characters', () => {
    accept(newTable('sevenSuitors'), { type: 'seat.joined', seat: 2, player: { name: 'x'.repeat(40), bot: false } });
  });

  it.each([
    [4, 'seat must be a whole number from 0 to 3, not 4'],
    [3, 'seat 3 is empty'],
  ])('refuses seat.left of seat %j', (seat, message) => {
    const table = newTable('sevenSuitors');
    accept(table, { type: 'seat.joined', seat: 0, player: { name: 'Bea', bot: true } });
    expectRefused(table, { type: 'seat.left', seat }, message);
  });
});

describe('dealing', () => {
  it('refuses play and passing before the deal', () => {
    const table = sevenSuitorsIn('dealing');
    expectRefused(table, played(0, '1-1'), 'no card can be played now: the next hand has not been dealt yet');
    expectRefused(table, passed(0, SS_PASSES[0]), 'no passing now: the next hand has not been dealt yet');
  });

  const withCard = (seat: number, index: number, card: unknown) =>
    SS_DEAL.map((cards, s) => (s === seat ? cards.map((held, i) => (i === index ? card : held)) : cards));

  it.each([
    ['not a list', 'every card', 'a deal has one hand for each of the 4 seats'],
    ['three hands', SS_DEAL.slice(0, 3), 'a deal has one hand for each of the 4 seats'],
    ['five hands', [...SS_DEAL, []], 'a deal has one hand for each of the 4 seats'],
    ['13 cards to seat 1', SS_DEAL.map((cards, seat) => (seat === 1 ? cards.slice(1) : cards)), 'seat 1 must be dealt 14 cards'],
    ['a hand that is not a list', SS_DEAL.map((cards, seat) => (seat === 2 ? 'cards' : cards)), 'seat 2 must be dealt 14 cards'],
    ['a special card without specials', withCard(3, 13, 'cupid'), '"cupid" is not in this table\'s deck'],
    ['a card that does not exist', withCard(3, 13, '9-9'), '"9-9" is not in this table\'s deck'],
    ['a number', withCard(0, 1, 12), "12 is not in this table's deck"],
    ['a card twice', withCard(3, 13, '2-2'), '2-2 is dealt twice'],
  ])('refuses a deal with %s', (_, deal, message) => {
    expectRefused(sevenSuitorsIn('dealing'), { type: 'hand.dealt', deal, roles: null }, message);
  });

  it('refuses roles outside A Traitor of Love', () => {
    expectRefused(sevenSuitorsIn('dealing'), { type: 'hand.dealt', deal: SS_DEAL, roles: [1, 2, 3, 7] }, 'sevenSuitors deals no roles');
  });

  it('refuses a short deal without the 1, whose holder leads', () => {
    const table = newTable('sevenSuitors', { cardsPerSeat: 3 });
    seatEveryone(table);
    const deal = [0, 1, 2, 3].map((seat) => SUIT_DECK.slice(1 + seat * 3, 4 + seat * 3));
    expectRefused(table, { type: 'hand.dealt', deal, roles: null }, 'the deal must include 1-1, whose holder leads');
  });

  describe('A Traitor of Love roles', () => {
    const deal = [0, 1, 2, 3, 4, 5].map((seat) => FULL_DECK.slice(seat * 10, seat * 10 + 10));
    const dealing = () => {
      const table = newTable('traitorOfLove');
      seatEveryone(table);
      return table;
    };

    it.each([
      [null, 'A Traitor of Love deals a tracking card to each of the 6 seats'],
      [[7, 1, 2, 3, 4], 'A Traitor of Love deals a tracking card to each of the 6 seats'],
      [[7, 1, 2, 3, 4, 4], 'roles must be distinct suits from 1 to 7'],
      [[7, 1, 2, 3, 4, 8], 'roles must be distinct suits from 1 to 7'],
      [[7, 1, 2, 3, 4, '5'], 'roles must be distinct suits from 1 to 7'],
      [[6, 1, 2, 3, 4, 5], 'the roles must include Hearts (7), the Traitor'],
    ])('refuses roles %j', (roles, message) => {
      expectRefused(dealing(), { type: 'hand.dealt', deal, roles }, message);
    });

    it('accepts six distinct suits including Hearts', () => {
      accept(dealing(), { type: 'hand.dealt', deal, roles: [2, 7, 1, 3, 4, 6] as Suit[] });
    });
  });
});

describe('passing', () => {
  it('refuses play and another deal until every seat has passed, naming the seats awaited', () => {
    const table = sevenSuitorsIn('passing');
    expectRefused(table, played(0, '1-1'), 'no card can be played now: the hand is in passing; waiting for seats 0, 1, 2, 3 to pass');
    expectRefused(table, SS_DEALT, 'no deal is due: the hand is in passing; waiting for seats 0, 1, 2, 3 to pass');
    accept(table, { type: 'cards.passed', seat: 1, passes: SS_PASSES[1] });
    expectRefused(table, played(0, '1-1'), 'no card can be played now: the hand is in passing; waiting for seats 0, 2, 3 to pass');
    accept(table, { type: 'cards.passed', seat: 0, passes: SS_PASSES[0] });
    accept(table, { type: 'cards.passed', seat: 3, passes: SS_PASSES[3] });
    expectRefused(table, played(0, '1-1'), 'no card can be played now: the hand is in passing; waiting for seat 2 to pass');
  });

  const mustPass = 'seat 0 must pass one card to each of seats 1, 2, 3';
  it.each([
    ['a seat out of range', passed(4, SS_PASSES[0]), 'seat must be a whole number from 0 to 3, not 4'],
    ['passes that are not a list', passed(0, '2-2'), 'passes must be a list of { "to": seat, "card": card }'],
    ['a pass that is not an object', passed(0, [null, ...SS_PASSES[0].slice(1)]), 'passes must be a list of { "to": seat, "card": card }'],
    ['a recipient out of range', passed(0, [{ to: 7, card: '2-2' }]), 'a pass recipient: seat must be a whole number from 0 to 3, not 7'],
    [
      'a recipient that is not a number',
      passed(0, [{ to: '1', card: '2-2' }]),
      'a pass recipient: seat must be a whole number from 0 to 3, not "1"',
    ],
    ['a malformed card', passed(0, [{ to: 1, card: '2-1' }]), '"2-1" is not a card: suit 2 holds ranks 2, 3, 4, 5, 6, 7a, 7b, 8'],
    ['two cards', passed(0, SS_PASSES[0].slice(0, 2)), mustPass],
    ['four cards', passed(0, [...SS_PASSES[0], { to: 1, card: '2-5' }]), mustPass],
    ['no cards', passed(0, []), mustPass],
    ['a pass to itself', passed(0, [{ to: 0, card: '2-2' }, ...SS_PASSES[0].slice(1)]), `${mustPass}; 0 is not one of them`],
    [
      'two passes to one seat',
      passed(0, [
        { to: 1, card: '2-2' },
        { to: 1, card: '2-3' },
        { to: 3, card: '2-4' },
      ]),
      `${mustPass}; seat 1 is named twice`,
    ],
    ['a card not in hand', passed(0, [{ to: 1, card: '3-3' }, ...SS_PASSES[0].slice(1)]), "3-3 is not in seat 0's hand"],
    [
      'one card passed twice',
      passed(0, [
        { to: 1, card: '2-2' },
        { to: 2, card: '2-2' },
        { to: 3, card: '2-4' },
      ]),
      '2-2 is passed twice',
    ],
  ])('refuses %s', (_, event, message) => {
    expectRefused(sevenSuitorsIn('passing'), event, message);
  });

  it('refuses a second pass from a seat that has passed', () => {
    const table = sevenSuitorsIn('passing');
    accept(table, { type: 'cards.passed', seat: 0, passes: SS_PASSES[0] });
    expectRefused(table, passed(0, SS_PASSES[0]), 'seat 0 has already passed');
  });

  it('refuses, in A Traitor of Love, a pass to a teammate', () => {
    const table = newTable('traitorOfLove');
    playUntil(table, createRng('traitor-passing'), inPhase('passing'));
    const held = table.getSnapshot().context.hand!.holdings[0];
    const passes = [
      { to: 1, card: held[0] },
      { to: 2, card: held[1] },
      { to: 5, card: held[2] },
    ];
    expectRefused(table, passed(0, passes), 'seat 0 must pass one card to each of seats 1, 3, 5; 2 is not one of them');
    expectRefused(table, accused(0, 2), 'no accusation now: the hand is in passing; waiting for seats 0, 1, 2, 3, 4, 5 to pass');
  });

  it('refuses, in Anti-Cupid passing oneEach, three cards instead of four', () => {
    const table = newTable('antiCupid', { options: { passing: 'oneEach' } });
    playUntil(table, createRng('anti-cupid-passing'), inPhase('passing'));
    const held = table.getSnapshot().context.hand!.holdings[0];
    const passes = [
      { to: 1, card: held[0] },
      { to: 2, card: held[1] },
      { to: 3, card: held[2] },
    ];
    expectRefused(table, passed(0, passes), 'seat 0 must pass one card to each of seats 1, 2, 3, 4');
  });

  it('refuses any pass in Anti-Cupid without passing', () => {
    const table = newTable('antiCupid');
    playUntil(table, createRng('anti-cupid'), inPhase('trickPlay'));
    expectRefused(table, passed(0, []), 'this table does not pass cards (its passing option is none)');
  });
});

describe('trick play', () => {
  it('refuses out of turn, not in hand and not following suit, naming what is wrong', () => {
    const table = sevenSuitorsIn('trickPlay');
    expectRefused(table, played(1, '2-7b'), "it is seat 0's turn");
    accept(table, { type: 'card.played', seat: 0, card: '4-4' }); // Clubs led: trump for the hand
    expectRefused(table, played(0, '1-2'), "it is seat 1's turn");
    expectRefused(table, played(1, '5-11'), "5-11 is not in seat 1's hand");
    expectRefused(table, played(1, '3-4'), 'seat 1 must follow Clubs, the suit led (4): the 6 of Clubs (4-6) is in its hand');
    expectRefused(table, played(1, '2-2'), 'seat 1 must follow Clubs, the suit led (4): the 6 of Clubs (4-6) is in its hand'); // a card it was passed
    accept(table, { type: 'card.played', seat: 1, card: '4-7a' });
    expectRefused(table, played(2, '5-6'), 'seat 2 must follow Clubs, the suit led (4): the 9 of Clubs (4-9) is in its hand');
    accept(table, { type: 'card.played', seat: 2, card: '4-10' });
    expectRefused(table, played(1, '4-6'), "it is seat 3's turn");
    expectRefused(table, played(3, '3-3'), 'seat 3 must follow Clubs, the suit led (4): the 7b of Clubs (4-7b) is in its hand');
    accept(table, { type: 'card.played', seat: 3, card: '4-7b' });
    // 4-10 won: seat 2 leads the next trick.
    expectRefused(table, played(3, '6-8'), "it is seat 2's turn");
    expectRefused(table, played(0, '4-4'), "it is seat 2's turn");
  });

  it('refuses a card passed away, which is no longer in hand', () => {
    expectRefused(sevenSuitorsIn('trickPlay'), played(0, '2-2'), "2-2 is not in seat 0's hand");
  });

  it.each([
    ['4-7', '"4-7" is not a card: suit 4 holds ranks 4, 5, 6, 7a, 7b, 8, 9, 10'],
    ['1-8', '"1-8" is not a card: suit 1 holds ranks 1, 2, 3, 4, 5, 6, 7a, 7b'],
    ['8-1', '"8-1" is not a card: suits are 1 to 7'],
    ['0-7a', '"0-7a" is not a card: suits are 1 to 7'],
    [
      'joker',
      '"joker" is not a card: write suit cards as "<suit>-<rank>" (e.g. "3-9", "3-7a") or a special card (cupid, chaperone, rival, go-between)',
    ],
    [
      'Cupid',
      '"Cupid" is not a card: write suit cards as "<suit>-<rank>" (e.g. "3-9", "3-7a") or a special card (cupid, chaperone, rival, go-between)',
    ],
    [42, 'a card is a string like "3-9" or "cupid", not 42'],
    [null, 'a card is a string like "3-9" or "cupid", not null'],
    [undefined, 'a card is a string like "3-9" or "cupid", not undefined'],
  ])('refuses the malformed card %j', (card, message) => {
    expectRefused(sevenSuitorsIn('trickPlay'), played(0, card), message);
  });

  it('refuses a special card at a table without special cards as not in hand', () => {
    expectRefused(sevenSuitorsIn('trickPlay'), played(0, 'cupid'), "cupid is not in seat 0's hand");
  });

  it.each([
    [4, 'seat must be a whole number from 0 to 3, not 4'],
    [-1, 'seat must be a whole number from 0 to 3, not -1'],
    ['0', 'seat must be a whole number from 0 to 3, not "0"'],
    [null, 'seat must be a whole number from 0 to 3, not null'],
  ])('refuses a play from seat %j', (seat, message) => {
    expectRefused(sevenSuitorsIn('trickPlay'), { type: 'card.played', seat, card: '1-1' }, message);
  });

  it('refuses passes and deals once passing is over', () => {
    const table = sevenSuitorsIn('trickPlay');
    expectRefused(table, passed(0, SS_PASSES[0]), "no passing now: passing is over; it is seat 0's turn to play");
    expectRefused(table, SS_DEALT, "no deal is due: passing is over; it is seat 0's turn to play");
  });

  describe('Anti-Cupid, with special cards and no passing', () => {
    /** Seat 0 holds the 1 and the Cupid; seat 4 the other special cards. */
    const deal: Card[][] = [0, 1, 2, 3, 4].map((seat) => FULL_DECK.slice(seat * 12, seat * 12 + 12));
    deal[0] = deal[0].map((card) => (card === '2-5' ? 'cupid' : card));
    deal[4] = deal[4].map((card) => (card === 'cupid' ? '2-5' : card));
    const antiCupidInPlay = () => {
      const table = newTable('antiCupid');
      seatEveryone(table);
      accept(table, { type: 'hand.dealt', deal, roles: null });
      return table;
    };

    it('refuses a special card led while holding a suit card', () => {
      expectRefused(
        antiCupidInPlay(),
        played(0, 'cupid'),
        'seat 0 may not lead a special card while it holds a suit card: the 1 of Spades (1-1) is in its hand',
      );
    });

    it('refuses a deal during trick play, naming whose turn it is', () => {
      expectRefused(
        antiCupidInPlay(),
        { type: 'hand.dealt', deal, roles: null },
        "no deal is due: the hand is in trick play; it is seat 0's turn",
      );
    });

    it('makes followers follow, lets a player who cannot play anything, and allows a special card at any time', () => {
      const table = antiCupidInPlay();
      accept(table, { type: 'card.played', seat: 0, card: '2-2' });
      expectRefused(table, played(1, '3-3'), 'seat 1 must follow Moons, the suit led (2): the 6 of Moons (2-6) is in its hand');
      accept(table, { type: 'card.played', seat: 1, card: '2-6' });
      expectRefused(table, played(2, '7-7a'), "7-7a is not in seat 2's hand");
      accept(table, { type: 'card.played', seat: 2, card: '4-4' });
      accept(table, { type: 'card.played', seat: 3, card: '6-6' });
      expectRefused(table, played(4, '7-8'), 'seat 4 must follow Moons, the suit led (2): the 5 of Moons (2-5) is in its hand');
      accept(table, { type: 'card.played', seat: 4, card: 'chaperone' });
    });
  });
});

describe('A Traitor of Love accusations', () => {
  const atAccusation = () => {
    const table = newTable('traitorOfLove');
    playUntil(table, createRng('accuse'), inPhase('accusation'));
    return table;
  };

  it('refuses an accusation during trick play, naming whose turn it is', () => {
    const table = newTable('traitorOfLove');
    playUntil(table, createRng('accuse'), inPhase('trickPlay'));
    const turn = table.getSnapshot().context.hand!.turn;
    expectRefused(table, accused(0, 2), `no accusation now: passing is over; it is seat ${turn}'s turn to play`);
  });

  it('refuses play, passes and deals after the last trick, naming the seats yet to accuse', () => {
    const table = atAccusation();
    const waiting = 'every card is played; waiting for seats 0, 1, 2, 3, 4, 5 to name a teammate';
    expectRefused(table, played(0, '1-1'), `no card can be played now: ${waiting}`);
    expectRefused(table, passed(0, []), `no passing now: ${waiting}`);
    expectRefused(table, { type: 'hand.dealt', deal: [], roles: [] }, `no deal is due: ${waiting}`);
    const accusations = [2, 3, 4, 5, 0];
    accusations.forEach((whom, seat) => accept(table, { type: 'traitor.accused', seat, accused: whom }));
    expectRefused(table, played(0, '1-1'), 'no card can be played now: every card is played; waiting for seat 5 to name a teammate');
  });

  it.each([
    [accused(0, 1), 'seat 0 must name one of its teammates, seat 2 or seat 4, not 1'],
    [accused(0, 0), 'seat 0 must name one of its teammates, seat 2 or seat 4, not 0'],
    [accused(3, 2), 'seat 3 must name one of its teammates, seat 1 or seat 5, not 2'],
    [accused(0, 6), 'the accused: seat must be a whole number from 0 to 5, not 6'],
    [accused(0, '2'), 'the accused: seat must be a whole number from 0 to 5, not "2"'],
    [accused(6, 2), 'seat must be a whole number from 0 to 5, not 6'],
  ])('refuses %j', (event, message) => {
    expectRefused(atAccusation(), event, message);
  });

  it('refuses a second accusation from a seat that has named a teammate', () => {
    const table = atAccusation();
    accept(table, { type: 'traitor.accused', seat: 0, accused: 2 });
    expectRefused(table, accused(0, 4), 'seat 0 has already named a teammate');
  });
});

describe('game over', () => {
  // XState warns on the console about events sent to a finished actor; the refusal is what is tested here.
  beforeEach(() => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  const finished = () => {
    const table = newTable('sevenSuitors', { options: { end: 'hands:1' } });
    playUntil(table, createRng('over'), inPhase('gameOver'));
    return table;
  };

  it('refuses every command once the game is over', () => {
    const table = finished();
    expectRefused(table, played(0, '1-1'), 'no card can be played now: the game is over');
    expectRefused(table, passed(0, SS_PASSES[0]), 'no passing now: the game is over');
    expectRefused(table, SS_DEALT, 'no deal is due: the game is over');
  });

  it('refuses seat changes once the game is over, as the finished machine does', () => {
    const table = finished();
    expectRefused(table, { type: 'seat.left', seat: 0 }, 'no seat can be left now: the game is over');
    expectRefused(
      table,
      { type: 'seat.joined', seat: 0, player: { name: 'Ann', bot: false } },
      'no seat can be taken now: the game is over',
    );
    expect(explainRefusal(table.getSnapshot(), { type: 'seat.left', seat: 0 })?.kind).toBe('notNow');
  });

  it('still lets seats change hands in the middle of a game', () => {
    const table = sevenSuitorsIn('trickPlay');
    accept(table, { type: 'seat.left', seat: 2 });
    expect(phaseOf(table.getSnapshot())).toBe('trickPlay');
    accept(table, { type: 'card.played', seat: 0, card: '1-1' });
    expectRefused(table, { type: 'seat.left', seat: 2 }, 'seat 2 is empty');
    accept(table, { type: 'seat.joined', seat: 2, player: { name: 'Bot 2', bot: true } });
    expectRefused(table, { type: 'seat.joined', seat: 2, player: { name: 'Ann', bot: false } }, 'seat 2 is taken');
  });
});

describe('kinds of refusal', () => {
  it('tells a malformed command, a command at the wrong moment and a move against the rules apart', () => {
    const table = sevenSuitorsIn('trickPlay');
    const snapshot = table.getSnapshot();
    expect(explainRefusal(snapshot, { type: 'card.play' })?.kind).toBe('malformed');
    expect(explainRefusal(snapshot, played(0, '9-9'))?.kind).toBe('malformed');
    expect(explainRefusal(snapshot, played(1, '2-7b'))?.kind).toBe('notNow');
    expect(explainRefusal(snapshot, passed(0, SS_PASSES[0]))?.kind).toBe('notNow');
    expect(explainRefusal(snapshot, played(0, '2-2'))?.kind).toBe('illegal');
    expect(explainRefusal(snapshot, played(0, '1-1'))).toBeNull();
  });
});
