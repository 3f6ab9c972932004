/**
 * Trick play (RULES.md §3 and §6): what may be played, who wins a trick
 * under the plain rules, and how the four powers resolve, alone and stacked.
 */
import { describe, expect, it } from 'vitest';
import type { Card, Suit } from '../cards/card.js';
import { ledSuitOf, legalPlays, mayPlay, plainWinner, playRefusal, resolveTrick, type Play, type Seat } from './trick.js';

/** A trick as [seat, card] pairs in the order played. */
function trick(...plays: [Seat, Card][]): Play[] {
  return plays.map(([seat, card]) => ({ seat, card }));
}

const MOONS: Suit = 2;
const SPADES: Suit = 1;

describe('ledSuitOf', () => {
  it('is the suit of the first card led', () => {
    expect(ledSuitOf(trick([0, '3-9'], [1, '2-7a']))).toBe(3);
  });

  it('is set by the first suit card when a special card is led, and is null before one is played', () => {
    expect(ledSuitOf(trick([0, 'cupid']))).toBeNull();
    expect(ledSuitOf(trick([0, 'cupid'], [1, 'rival']))).toBeNull();
    expect(ledSuitOf(trick([0, 'cupid'], [1, 'rival'], [2, '6-8'], [3, '4-10']))).toBe(6);
  });

  it('is null for an empty trick', () => {
    expect(ledSuitOf([])).toBeNull();
  });
});

describe('legalPlays', () => {
  it('lets the leader lead any suit card, not only the 1', () => {
    expect(legalPlays(['1-1', '3-9', '7-13'], [])).toEqual(['1-1', '3-9', '7-13']);
  });

  it('forbids leading a special card while a suit card is held', () => {
    expect(legalPlays(['cupid', '3-9', 'rival', '5-5'], [])).toEqual(['3-9', '5-5']);
  });

  it('lets a player holding only special cards lead one', () => {
    expect(legalPlays(['chaperone', 'go-between'], [])).toEqual(['chaperone', 'go-between']);
  });

  it('makes a player follow the suit led when able, special cards always allowed', () => {
    const holding: Card[] = ['3-4', '2-7a', '3-9', 'cupid', '5-5'];
    expect(legalPlays(holding, trick([1, '3-6']))).toEqual(['3-4', '3-9', 'cupid']);
  });

  it('lets a player who cannot follow play any card, trump or not', () => {
    const holding: Card[] = ['2-7a', '5-5', 'rival'];
    expect(legalPlays(holding, trick([1, '3-6'], [2, '3-7b']))).toEqual(holding);
  });

  it('does not make a player follow trump: only the suit led', () => {
    // Trump is not an argument at all: a Moons holder facing a Diamonds lead may discard.
    expect(legalPlays(['2-2', '5-5'], trick([2, '3-9']))).toEqual(['2-2', '5-5']);
  });

  it('sets no suit to follow while a trick holds only special cards', () => {
    const holding: Card[] = ['4-4', '6-8', 'cupid'];
    expect(legalPlays(holding, trick([0, 'rival']))).toEqual(holding);
    expect(legalPlays(holding, trick([0, 'rival'], [1, 'chaperone']))).toEqual(holding);
  });

  it('makes the first suit card played after a special lead the suit to follow', () => {
    const holding: Card[] = ['4-4', '6-8', '6-9', 'cupid'];
    expect(legalPlays(holding, trick([0, 'rival'], [1, '6-6']))).toEqual(['6-8', '6-9', 'cupid']);
  });

  it('returns a copy, never the holding itself', () => {
    const holding: Card[] = ['1-1', '3-9'];
    const legal = legalPlays(holding, []);
    expect(legal).not.toBe(holding);
  });
});

describe('mayPlay', () => {
  it('never allows a card that is not in hand', () => {
    expect(mayPlay(['3-4'], [], '3-9')).toBe(false);
    expect(mayPlay(['3-4'], trick([0, '5-5']), 'cupid')).toBe(false);
  });

  it.each([
    { holding: ['1-1', '3-9', 'cupid'], plays: [] },
    { holding: ['rival', 'cupid'], plays: [] },
    { holding: ['3-4', '2-7a', '3-9', 'cupid', '5-5'], plays: trick([1, '3-6']) },
    { holding: ['2-7a', '5-5', 'rival'], plays: trick([1, '3-6']) },
    { holding: ['4-4', '6-8', 'cupid'], plays: trick([0, 'rival']) },
    { holding: ['4-4', '6-8', 'cupid'], plays: trick([0, 'rival'], [1, '6-6']) },
  ] as { holding: Card[]; plays: Play[] }[])('agrees with legalPlays card by card: $holding', ({ holding, plays }) => {
    const legal = legalPlays(holding, plays);
    for (const card of holding) expect(mayPlay(holding, plays, card)).toBe(legal.includes(card));
  });
});

describe('playRefusal', () => {
  it('accepts a legal card', () => {
    expect(playRefusal(0, ['1-1', '3-9'], [], '3-9')).toBeNull();
    expect(playRefusal(1, ['3-4', 'cupid'], trick([0, '3-9']), 'cupid')).toBeNull();
    expect(playRefusal(1, ['2-4', '5-5'], trick([0, '3-9']), '5-5')).toBeNull();
    expect(playRefusal(3, ['rival'], [], 'rival')).toBeNull();
  });

  it('refuses a card that is not in hand', () => {
    expect(playRefusal(1, ['1-2', '5-10'], [], '5-11')).toBe("5-11 is not in seat 1's hand");
  });

  it('refuses a card not in hand before asking whether it follows suit', () => {
    expect(playRefusal(2, ['4-9'], trick([1, '4-4']), '5-11')).toBe("5-11 is not in seat 2's hand");
  });

  it('refuses a special card led while a suit card is held, naming one', () => {
    expect(playRefusal(0, ['cupid', '2-3', '1-1'], [], 'cupid')).toBe(
      'seat 0 may not lead a special card while it holds a suit card: the 3 of Moons (2-3) is in its hand',
    );
  });

  it('refuses a card that does not follow suit, naming a card that would', () => {
    expect(playRefusal(2, ['5-6', '4-9', '4-10'], trick([1, '4-4']), '5-6')).toBe(
      'seat 2 must follow Clubs, the suit led (4): the 9 of Clubs (4-9) is in its hand',
    );
  });

  it('refuses a trump played by a player who can follow the suit led', () => {
    expect(playRefusal(3, ['2-7a', '3-3'], trick([2, '3-9']), '2-7a')).toBe(
      'seat 3 must follow Diamonds, the suit led (3): the 3 of Diamonds (3-3) is in its hand',
    );
  });

  it('measures following against the first suit card after a special lead', () => {
    expect(playRefusal(3, ['3-3', '6-6'], trick([1, 'cupid'], [2, '6-8']), '3-3')).toBe(
      'seat 3 must follow Pyramids, the suit led (6): the 6 of Pyramids (6-6) is in its hand',
    );
  });
});

describe('plainWinner', () => {
  it('gives RULES.md §9: both 7s of trump, the first played wins', () => {
    // Trump Moons. Seat 2 leads 3-9; seat 3 plays 2-7a; seat 0 3-8; seat 1 2-7b.
    const plays = trick([2, '3-9'], [3, '2-7a'], [0, '3-8'], [1, '2-7b']);
    expect(plainWinner(plays, MOONS)).toBe(3);
  });

  it('gives §9 with the 7s swapped to seat 3 still: 7a and 7b do not rank, the order does', () => {
    const plays = trick([2, '3-9'], [3, '2-7b'], [0, '3-8'], [1, '2-7a']);
    expect(plainWinner(plays, MOONS)).toBe(3);
  });

  it('gives the first-played of both 7s of the suit led when no trump is played', () => {
    expect(plainWinner(trick([0, '4-6'], [1, '4-7b'], [2, '4-5'], [3, '4-7a']), SPADES)).toBe(1);
    expect(plainWinner(trick([0, '4-7a'], [1, '4-6'], [2, '4-7b'], [3, '4-5']), SPADES)).toBe(0);
  });

  it('lets a higher card beat both 7s', () => {
    expect(plainWinner(trick([0, '4-7a'], [1, '4-8'], [2, '4-7b'], [3, '4-5']), SPADES)).toBe(1);
  });

  it('gives the trick to any trump over a higher card of the suit led', () => {
    expect(plainWinner(trick([0, '6-12'], [1, '1-2'], [2, '6-11'], [3, '6-6']), SPADES)).toBe(1);
  });

  it('gives the trick to the highest of several trumps', () => {
    expect(plainWinner(trick([0, '3-3'], [1, '1-5'], [2, '1-6'], [3, '1-4']), SPADES)).toBe(2);
  });

  it('ignores off-suit cards of higher rank when no trump is played', () => {
    expect(plainWinner(trick([0, '3-5'], [1, '7-13'], [2, '3-6'], [3, '6-12']), SPADES)).toBe(2);
  });

  it('ranks within trump when trump is led', () => {
    expect(plainWinner(trick([0, '2-3'], [1, '2-8'], [2, '5-11'], [3, '2-7a']), MOONS)).toBe(1);
  });

  it('never gives a trick to a special card', () => {
    expect(plainWinner(trick([0, '3-3'], [1, 'cupid'], [2, 'rival'], [3, '3-4']), SPADES)).toBe(3);
  });

  it('takes the suit led from the first suit card when a special card is led', () => {
    expect(plainWinner(trick([0, 'chaperone'], [1, '5-6'], [2, '5-8'], [3, '4-10']), 3)).toBe(2);
  });

  it('still lets a trump win a trick led with a special card', () => {
    expect(plainWinner(trick([0, 'cupid'], [1, '5-6'], [2, '3-3'], [3, '5-11']), 3)).toBe(2);
  });

  it('gives a trick of only special cards to its leader', () => {
    expect(plainWinner(trick([2, 'cupid'], [3, 'rival'], [0, 'chaperone'], [1, 'go-between']), SPADES)).toBe(2);
  });
});

describe('resolveTrick', () => {
  describe('without powers', () => {
    it.each(['off', 'plain'] as const)('with specials %s, the plain winner wins and captures', (specials) => {
      const plays = trick([0, '3-8'], [1, '3-9'], [2, '3-3'], [3, '3-4']);
      expect(resolveTrick(plays, SPADES, specials, 4)).toEqual({ winner: 1, capturedBy: 1 });
    });

    it('with specials plain, special cards have no power and never win', () => {
      const plays = trick([0, '3-8'], [1, '3-9'], [2, 'cupid'], [3, 'go-between']);
      expect(resolveTrick(plays, MOONS, 'plain', 4)).toEqual({ winner: 1, capturedBy: 1 });
      const chaperoned = trick([0, '4-10'], [1, 'chaperone'], [2, 'rival'], [3, '4-7a']);
      expect(resolveTrick(chaperoned, MOONS, 'plain', 4)).toEqual({ winner: 0, capturedBy: 0 });
    });

    it('with specials plain, a trick of only special cards is won and captured by its leader', () => {
      const plays = trick([1, 'rival'], [2, 'cupid'], [3, 'chaperone'], [0, 'go-between']);
      expect(resolveTrick(plays, SPADES, 'plain', 4)).toEqual({ winner: 1, capturedBy: 1 });
    });
  });

  describe('each power alone', () => {
    it('Cupid: the player of Cupid wins and captures', () => {
      const plays = trick([0, '3-8'], [1, '3-9'], [2, 'cupid'], [3, '3-3']);
      expect(resolveTrick(plays, MOONS, 'powers', 4)).toEqual({ winner: 2, capturedBy: 2 });
    });

    it('Cupid beats trumps too', () => {
      const plays = trick([0, 'cupid'], [1, '3-9'], [2, '2-8'], [3, '3-3']);
      expect(resolveTrick(plays, MOONS, 'powers', 4)).toEqual({ winner: 0, capturedBy: 0 });
    });

    it('Chaperone: nobody captures, the would-be winner leads next', () => {
      const plays = trick([0, '4-10'], [1, 'chaperone'], [2, '4-4'], [3, '4-7a']);
      expect(resolveTrick(plays, MOONS, 'powers', 4)).toEqual({ winner: 0, capturedBy: null });
    });

    it('Rival: the lowest card of the suit led wins, ignoring trumps (rules.md example)', () => {
      // Seat 0 leads 5-9; seat 1, with no Stars, trumps with 2-8; seat 2 plays Rival; seat 3 plays 5-6.
      const plays = trick([0, '5-9'], [1, '2-8'], [2, 'rival'], [3, '5-6']);
      expect(plainWinner(plays, MOONS)).toBe(1);
      expect(resolveTrick(plays, MOONS, 'powers', 4)).toEqual({ winner: 3, capturedBy: 3 });
    });

    it('Rival: a lone card of the suit led wins, even against trump', () => {
      const plays = trick([0, '5-11'], [1, '2-2'], [2, 'rival'], [3, '6-6']);
      expect(resolveTrick(plays, MOONS, 'powers', 4)).toEqual({ winner: 0, capturedBy: 0 });
    });

    it('Rival: when both 7s tie for lowest, the first played wins', () => {
      const plays = trick([0, '6-9'], [1, '6-7b'], [2, '6-7a'], [3, 'rival']);
      expect(resolveTrick(plays, SPADES, 'powers', 4)).toEqual({ winner: 1, capturedBy: 1 });
      const swapped = trick([0, '6-9'], [1, '6-7a'], [2, '6-7b'], [3, 'rival']);
      expect(resolveTrick(swapped, SPADES, 'powers', 4)).toEqual({ winner: 1, capturedBy: 1 });
    });

    it('Rival: a lower card than the 7s beats them', () => {
      const plays = trick([0, '6-7a'], [1, '6-7b'], [2, '6-6'], [3, 'rival']);
      expect(resolveTrick(plays, SPADES, 'powers', 4)).toEqual({ winner: 2, capturedBy: 2 });
    });

    it('Rival: the suit led is set by the first suit card when a special is led', () => {
      const plays = trick([0, 'rival'], [1, '5-9'], [2, '2-2'], [3, '5-11']);
      expect(resolveTrick(plays, MOONS, 'powers', 4)).toEqual({ winner: 1, capturedBy: 1 });
    });

    it('Go-Between: the winner leads next, the player to its left captures', () => {
      const plays = trick([0, '3-8'], [1, '3-9'], [2, 'go-between'], [3, '3-3']);
      expect(resolveTrick(plays, MOONS, 'powers', 4)).toEqual({ winner: 1, capturedBy: 2 });
    });

    it.each([
      { seats: 4, plays: trick([0, '3-8'], [1, '3-3'], [2, 'go-between'], [3, '3-9']), winner: 3 },
      { seats: 5, plays: trick([1, '3-3'], [2, '3-4'], [3, 'go-between'], [4, '3-9'], [0, '3-5']), winner: 4 },
      { seats: 6, plays: trick([0, '3-3'], [1, '3-4'], [2, 'go-between'], [3, '3-5'], [4, '3-6'], [5, '3-9']), winner: 5 },
    ])('Go-Between: with $seats seats, capture wraps from the last seat to seat 0', ({ seats, plays, winner }) => {
      expect(resolveTrick(plays, SPADES, 'powers', seats)).toEqual({ winner, capturedBy: 0 });
    });
  });

  describe('powers meeting in one trick apply in the order played', () => {
    it('Cupid then Go-Between: Cupid wins, the player to its left captures (rules.md example)', () => {
      const plays = trick([0, '3-8'], [1, '3-9'], [2, 'cupid'], [3, 'go-between']);
      expect(resolveTrick(plays, MOONS, 'powers', 4)).toEqual({ winner: 2, capturedBy: 3 });
    });

    it('Go-Between then Cupid: Cupid wins and captures (rules.md example)', () => {
      const plays = trick([0, '3-8'], [1, '3-9'], [2, 'go-between'], [3, 'cupid']);
      expect(resolveTrick(plays, MOONS, 'powers', 4)).toEqual({ winner: 3, capturedBy: 3 });
    });

    it('Chaperone then Cupid: Chaperone ends the resolution, Cupid has no effect (rules.md example)', () => {
      const plays = trick([0, '4-10'], [1, 'chaperone'], [2, 'cupid'], [3, '4-7a']);
      expect(resolveTrick(plays, MOONS, 'powers', 4)).toEqual({ winner: 0, capturedBy: null });
    });

    it('Cupid then Chaperone: Cupid wins, then the cards are set aside and Cupid leads (rules.md example)', () => {
      const plays = trick([0, '4-10'], [1, 'cupid'], [2, 'chaperone'], [3, '4-7a']);
      expect(resolveTrick(plays, MOONS, 'powers', 4)).toEqual({ winner: 1, capturedBy: null });
    });

    it('Go-Between then Chaperone: the cards are set aside, the winner leads', () => {
      const plays = trick([0, '3-8'], [1, '3-9'], [2, 'go-between'], [3, 'chaperone']);
      expect(resolveTrick(plays, MOONS, 'powers', 4)).toEqual({ winner: 1, capturedBy: null });
    });

    it('Chaperone then Go-Between: Go-Between cannot bring set-aside cards back', () => {
      const plays = trick([0, '3-8'], [1, 'chaperone'], [2, 'go-between'], [3, '3-9']);
      expect(resolveTrick(plays, MOONS, 'powers', 4)).toEqual({ winner: 3, capturedBy: null });
    });

    it('Chaperone then Rival: Rival has no effect', () => {
      const plays = trick([0, '5-9'], [1, 'chaperone'], [2, '5-6'], [3, 'rival']);
      expect(resolveTrick(plays, MOONS, 'powers', 4)).toEqual({ winner: 0, capturedBy: null });
    });

    it('Rival then Chaperone: the Rival winner leads, nobody captures', () => {
      const plays = trick([0, '5-9'], [1, 'rival'], [2, '5-6'], [3, 'chaperone']);
      expect(resolveTrick(plays, MOONS, 'powers', 4)).toEqual({ winner: 2, capturedBy: null });
    });

    it('Rival then Go-Between: capture moves to the left of the Rival winner', () => {
      const plays = trick([0, '5-9'], [1, 'rival'], [2, '5-6'], [3, 'go-between']);
      expect(resolveTrick(plays, MOONS, 'powers', 4)).toEqual({ winner: 2, capturedBy: 3 });
    });

    it('Go-Between then Rival: Rival picks a new winner, who captures', () => {
      const plays = trick([0, '5-9'], [1, 'go-between'], [2, '5-6'], [3, 'rival']);
      expect(resolveTrick(plays, MOONS, 'powers', 4)).toEqual({ winner: 2, capturedBy: 2 });
    });

    it('Cupid then Rival: the later Rival decides', () => {
      const plays = trick([0, '5-9'], [1, 'cupid'], [2, '5-6'], [3, 'rival']);
      expect(resolveTrick(plays, MOONS, 'powers', 4)).toEqual({ winner: 2, capturedBy: 2 });
    });

    it('Rival then Cupid: the later Cupid decides', () => {
      const plays = trick([0, '5-9'], [1, 'rival'], [2, '5-6'], [3, 'cupid']);
      expect(resolveTrick(plays, MOONS, 'powers', 4)).toEqual({ winner: 3, capturedBy: 3 });
    });

    it('Cupid then Go-Between wraps the capture past the last seat', () => {
      const plays = trick([1, '2-3'], [2, '2-4'], [3, '2-5'], [4, 'cupid'], [0, 'go-between']);
      expect(resolveTrick(plays, MOONS, 'powers', 5)).toEqual({ winner: 4, capturedBy: 0 });
    });

    it('all four, Chaperone last: Cupid, Go-Between, Rival each act, then the cards are set aside', () => {
      // Plain: 5-9 (seat 0). Cupid: seat 1. Go-Between: seat 2 captures. Rival: 5-6 (seat 5) wins and captures. Chaperone: set aside.
      const plays = trick([0, '5-9'], [1, 'cupid'], [2, 'go-between'], [3, 'rival'], [4, 'chaperone'], [5, '5-6']);
      expect(resolveTrick(plays, 3, 'powers', 6)).toEqual({ winner: 5, capturedBy: null });
    });

    it('all four, Chaperone last, in another order', () => {
      // Plain: seat 0. Go-Between: seat 1 captures. Rival: 5-6 (seat 4). Cupid: seat 3. Chaperone: set aside, seat 3 leads.
      const plays = trick([0, '5-9'], [1, 'go-between'], [2, 'rival'], [3, 'cupid'], [4, '5-6'], [5, 'chaperone']);
      expect(resolveTrick(plays, 3, 'powers', 6)).toEqual({ winner: 3, capturedBy: null });
    });

    it('all four, Chaperone first: nothing after it acts', () => {
      const plays = trick([0, '5-9'], [1, 'chaperone'], [2, 'rival'], [3, 'cupid'], [4, '5-6'], [5, 'go-between']);
      expect(resolveTrick(plays, 3, 'powers', 6)).toEqual({ winner: 0, capturedBy: null });
    });

    it('Go-Between last after Cupid and Rival: the capture moves from the last winner', () => {
      const plays = trick([0, '5-9'], [1, 'cupid'], [2, '5-6'], [3, 'rival'], [4, 'go-between']);
      expect(resolveTrick(plays, MOONS, 'powers', 5)).toEqual({ winner: 2, capturedBy: 3 });
    });
  });

  describe('tricks without a suit card', () => {
    it('Rival with no suit card has no effect; the leader wins, Go-Between moves the capture, Chaperone sets aside', () => {
      const plays = trick([0, 'rival'], [1, 'go-between'], [2, 'chaperone'], [3, 'cupid']);
      expect(resolveTrick(plays, SPADES, 'powers', 4)).toEqual({ winner: 0, capturedBy: null });
    });

    it('Rival with no suit card leaves the leader winning for a later Go-Between', () => {
      const plays = trick([2, 'rival'], [3, 'go-between'], [0, 'cupid'], [1, 'chaperone']);
      // Leader 2; Rival: no effect; Go-Between: capture to 3; Cupid: seat 0 wins; Chaperone: set aside.
      expect(resolveTrick(plays, SPADES, 'powers', 4)).toEqual({ winner: 0, capturedBy: null });
    });

    it('a trick of only special cards led by Cupid: Cupid is also the leader, and leads next', () => {
      // Leader 1 (Cupid); Go-Between: capture to 2; Rival: no suit card, no effect; Chaperone: set aside.
      const plays = trick([1, 'cupid'], [2, 'go-between'], [3, 'rival'], [0, 'chaperone']);
      expect(resolveTrick(plays, SPADES, 'powers', 4)).toEqual({ winner: 1, capturedBy: null });
    });
  });
});
