/**
 * Who may see what (RULES.md §8): a seat sees its own hand, its own role,
 * its own passes; nobody sees another seat's hand, the passes between two
 * other seats, a role before the reveal or an accusation before all are in;
 * a spectator sees only what every seat sees.
 */
import { describe, expect, it } from 'vitest';
import { accept, inPhase, newTable, playUntil } from '../test/kit/table.js';
import { HEARTS, inCanonicalOrder } from './cards/card.js';
import { createRng } from './cards/shuffle.js';
import type { PassChoice } from './table/events.js';
import type { Phase, TableActor } from './table/snapshot.js';
import { viewFor, type TableView, type Viewer } from './view.js';
import { SS_DEAL, SS_PASSES } from './fixtures/sevenSuitorsHand.js';

const CARD_PATTERN = /"(\d-(?:\d+|7a|7b)|cupid|chaperone|rival|go-between)"/g;

/** Every card named anywhere in a view. */
function cardsIn(view: TableView): Set<string> {
  return new Set([...JSON.stringify(view).matchAll(CARD_PATTERN)].map((match) => match[1]));
}

function view(table: TableActor, viewer: Viewer): TableView {
  return viewFor(table.getSnapshot(), viewer);
}

/** A seat's view less what only that seat may see: what must equal a spectator's view. */
function publicPart(seen: TableView): unknown {
  const { viewer: _viewer, seats, hand, ...rest } = seen;
  const publicSeats = seats.map(({ role: _role, ...seat }) => seat);
  if (hand === null) return { ...rest, seats: publicSeats, hand };
  const {
    cards: _cards,
    dealt: _dealt,
    legalCards: _legal,
    roleCard: _roleCard,
    passTo: _passTo,
    mayAccuse: _mayAccuse,
    passesSent: _sent,
    passesReceived: _received,
    accusation: _accusation,
    ...publicHand
  } = hand;
  return { ...rest, seats: publicSeats, hand: publicHand };
}

const withFrom = (from: number, passes: readonly PassChoice[]) => passes.map(({ to, card }) => ({ from, to, card }));

function sevenSuitorsDealt(): TableActor {
  const table = newTable('sevenSuitors', { seated: true });
  accept(table, { type: 'hand.dealt', deal: SS_DEAL, roles: null });
  return table;
}

function passAll(table: TableActor): void {
  SS_PASSES.forEach((passes, seat) => accept(table, { type: 'cards.passed', seat, passes }));
}

describe('hands', () => {
  it('shows a hand in canonical order, so the order of the deal says nothing: deals in any order give the same views', () => {
    const reversed = newTable('sevenSuitors', { seated: true });
    accept(reversed, { type: 'hand.dealt', deal: SS_DEAL.map((cards) => cards.slice().reverse()), roles: null });
    const shuffledPasses = newTable('sevenSuitors', { seated: true });
    accept(shuffledPasses, { type: 'hand.dealt', deal: SS_DEAL.map((cards) => [...cards.slice(7), ...cards.slice(0, 7)]), roles: null });
    const inOrder = sevenSuitorsDealt();
    for (const table of [reversed, shuffledPasses, inOrder]) passAll(table);
    for (let seat = 0; seat < 4; seat++) {
      const seen = view(inOrder, seat);
      expect(seen.hand!.cards).toEqual(inCanonicalOrder(seen.hand!.cards!));
      expect(seen.hand!.dealt).toEqual(SS_DEAL[seat]);
      expect(view(reversed, seat)).toEqual(seen);
      expect(view(shuffledPasses, seat)).toEqual(seen);
    }
  });

  it('shows each seat its own hand and no card of any other hand', () => {
    const table = sevenSuitorsDealt();
    for (let seat = 0; seat < 4; seat++) {
      const seen = view(table, seat);
      expect(seen.hand!.cards).toEqual(SS_DEAL[seat]);
      expect([...cardsIn(seen)].sort()).toEqual([...SS_DEAL[seat]].sort());
    }
  });

  it('shows a spectator no hand and no card at all before play', () => {
    const table = sevenSuitorsDealt();
    const seen = view(table, 'spectator');
    expect(seen.hand!.cards).toBeNull();
    expect(seen.hand!.legalCards).toEqual([]);
    expect(seen.hand!.roleCard).toBeNull();
    expect(cardsIn(seen).size).toBe(0);
  });

  it('shows everyone how many cards each seat holds', () => {
    const table = sevenSuitorsDealt();
    passAll(table);
    accept(table, { type: 'card.played', seat: 0, card: '4-4' });
    for (const viewer of [0, 3, 'spectator'] as const) {
      expect(view(table, viewer).seats.map((seat) => seat.cardsHeld)).toEqual([13, 14, 14, 14]);
    }
  });

  it('offers the seat to play its legal cards, and nobody else any', () => {
    const table = sevenSuitorsDealt();
    passAll(table);
    accept(table, { type: 'card.played', seat: 0, card: '4-4' });
    expect(view(table, 1).hand!.legalCards).toEqual(['4-6', '4-7a', '4-8']);
    expect(view(table, 0).hand!.legalCards).toEqual([]);
    expect(view(table, 2).hand!.legalCards).toEqual([]);
    expect(view(table, 'spectator').hand!.legalCards).toEqual([]);
    expect(view(table, 1).awaiting).toEqual([{ seat: 1, action: 'play' }]);
  });

  it('offers no legal cards while passing', () => {
    expect(view(sevenSuitorsDealt(), 0).hand!.legalCards).toEqual([]);
  });

  it('shows everyone the trick in progress, the completed tricks, trump and who holds which captured 7', () => {
    const table = sevenSuitorsDealt();
    passAll(table);
    for (const [seat, card] of [
      [0, '4-4'],
      [1, '4-7a'],
      [2, '4-10'],
      [3, '4-7b'],
      [2, '5-5'],
    ] as const) {
      accept(table, { type: 'card.played', seat, card });
    }
    for (const viewer of [0, 1, 'spectator'] as const) {
      const hand = view(table, viewer).hand!;
      expect(hand.trump).toBe(4);
      expect(hand.trick).toEqual({ leader: 2, plays: [{ seat: 2, card: '5-5' }] });
      expect(hand.tricks).toHaveLength(1);
      expect(hand.tricks[0]).toMatchObject({ leader: 0, winner: 2, capturedBy: 2 });
      expect(hand.capturedSevens).toEqual([
        { card: '4-7a', seat: 2 },
        { card: '4-7b', seat: 2 },
      ]);
      expect(hand.turn).toBe(3);
    }
  });

  it('gives a spectator exactly what every seat sees in common', () => {
    const table = sevenSuitorsDealt();
    accept(table, { type: 'cards.passed', seat: 2, passes: SS_PASSES[2] });
    for (let seat = 0; seat < 4; seat++) expect(publicPart(view(table, seat))).toEqual(publicPart(view(table, 'spectator')));
    for (const seat of [0, 1, 3]) accept(table, { type: 'cards.passed', seat, passes: SS_PASSES[seat] });
    accept(table, { type: 'card.played', seat: 0, card: '4-4' });
    for (let seat = 0; seat < 4; seat++) expect(publicPart(view(table, seat))).toEqual(publicPart(view(table, 'spectator')));
  });
});

describe('passes', () => {
  it('shows a seat its own chosen passes, and nobody whether anyone else chose what, only that they did', () => {
    const table = sevenSuitorsDealt();
    accept(table, { type: 'cards.passed', seat: 0, passes: SS_PASSES[0] });
    const own = view(table, 0);
    expect(own.hand!.passesSent).toEqual(withFrom(0, SS_PASSES[0]));
    expect(own.hand!.passesReceived).toEqual([]);
    for (const viewer of [1, 2, 3, 'spectator'] as const) {
      const seen = view(table, viewer);
      expect(seen.hand!.passesSent).toEqual([]);
      expect(seen.hand!.passesReceived).toEqual([]);
      expect(seen.seats.map((seat) => seat.hasPassed)).toEqual([true, false, false, false]);
    }
    // Seat 1 will get 2-2 from seat 0, but does not see it before every seat has passed.
    expect(cardsIn(view(table, 1)).has('2-2')).toBe(false);
  });

  it('hides received cards until every seat has passed', () => {
    const table = sevenSuitorsDealt();
    for (const seat of [0, 2, 3]) accept(table, { type: 'cards.passed', seat, passes: SS_PASSES[seat] });
    const seen = view(table, 1);
    expect(seen.hand!.passesReceived).toEqual([]);
    expect(seen.hand!.cards).toEqual(SS_DEAL[1]);
    for (const card of ['2-2', '4-8', '6-7b']) expect(cardsIn(seen).has(card)).toBe(false);
  });

  it('after the exchange, shows each seat only the passes it made and received', () => {
    const table = sevenSuitorsDealt();
    passAll(table);
    const seen = view(table, 1);
    expect(seen.hand!.passesSent).toEqual(withFrom(1, SS_PASSES[1]));
    expect(seen.hand!.passesReceived).toEqual([
      { from: 0, to: 1, card: '2-2' },
      { from: 2, to: 1, card: '4-8' },
      { from: 3, to: 1, card: '6-7b' },
    ]);
    // Cards passed between two other seats are seen by neither seat 1 nor a spectator.
    const between = ['2-3', '2-4', '6-6', '4-7b', '7-13', '7-12'];
    for (const card of between) expect(cardsIn(seen).has(card)).toBe(false);
    const spectator = view(table, 'spectator');
    expect(spectator.hand!.passesSent).toEqual([]);
    expect(spectator.hand!.passesReceived).toEqual([]);
    expect(cardsIn(spectator).size).toBe(0);
  });
});

describe('A Traitor of Love: roles and accusations', () => {
  const atPhase = (phase: Phase, seed: string) => {
    const table = newTable('traitorOfLove', { seated: true });
    playUntil(table, createRng(seed), inPhase(phase));
    return table;
  };

  it('shows each seat its own tracking card and role, and no other role, before the reveal', () => {
    const table = atPhase('trickPlay', 'roles');
    const roles = table.getSnapshot().context.hand!.roles!;
    const traitor = roles.indexOf(HEARTS);
    for (let seat = 0; seat < 6; seat++) {
      const seen = view(table, seat);
      expect(seen.hand!.roleCard).toBe(roles[seat]);
      expect(seen.seats.map((summary) => summary.role)).toEqual(
        roles.map((_, other) => (other !== seat ? null : other === traitor ? 'traitor' : 'matchmaker')),
      );
      expect(seen.hand!.traitor).toBeNull();
    }
    const spectator = view(table, 'spectator');
    expect(spectator.hand!.roleCard).toBeNull();
    expect(spectator.seats.every((summary) => summary.role === null)).toBe(true);
  });

  it('hides every accusation and the Traitor until all six are in, then reveals them to all', () => {
    const table = atPhase('accusation', 'accusations');
    const roles = table.getSnapshot().context.hand!.roles!;
    const accusations = [2, 3, 4, 5, 0, 1];
    for (let seat = 0; seat < 5; seat++) {
      accept(table, { type: 'traitor.accused', seat, accused: accusations[seat] });
      for (const viewer of [0, 1, 2, 3, 4, 5, 'spectator'] as const) {
        const seen = view(table, viewer);
        expect(seen.hand!.accusations).toBeNull();
        expect(seen.hand!.traitor).toBeNull();
        expect(seen.hand!.accusation).toBe(viewer !== 'spectator' && viewer <= seat ? accusations[viewer] : null);
        expect(seen.seats.map((summary) => summary.hasAccused)).toEqual([0, 1, 2, 3, 4, 5].map((other) => other <= seat));
        expect(seen.seats.filter((summary) => summary.role !== null).length).toBe(viewer === 'spectator' ? 0 : 1);
      }
    }
    accept(table, { type: 'traitor.accused', seat: 5, accused: accusations[5] });
    for (const viewer of [0, 3, 'spectator'] as const) {
      const seen = view(table, viewer);
      expect(seen.hand!.traitor).toBe(roles.indexOf(HEARTS));
      expect(seen.hand!.accusations).toEqual(accusations);
      expect(seen.seats.map((summary) => summary.role)).toEqual(roles.map((role) => (role === HEARTS ? 'traitor' : 'matchmaker')));
    }
  });

  it('hides the roles of the next hand again', () => {
    const table = atPhase('accusation', 'next-hand');
    for (const [seat, accused] of [2, 3, 4, 5, 0, 1].entries()) accept(table, { type: 'traitor.accused', seat, accused });
    playUntil(table, createRng('next-hand-deal'), (snapshot) => snapshot.context.hand!.index === 1);
    const roles = table.getSnapshot().context.hand!.roles!;
    const seen = view(table, 0);
    expect(seen.hand!.traitor).toBeNull();
    expect(seen.hand!.accusations).toBeNull();
    expect(seen.hand!.roleCard).toBe(roles[0]);
    expect(seen.seats.filter((summary) => summary.role !== null).map((summary) => summary.seat)).toEqual([0]);
  });
});

describe('Anti-Cupid', () => {
  it('shows everyone who is Anti-Cupid', () => {
    const table = newTable('antiCupid', { seated: true });
    playUntil(table, createRng('anti-cupid'), inPhase('trickPlay'));
    const antiCupid = table.getSnapshot().context.hand!.antiCupid;
    expect(antiCupid).not.toBeNull();
    for (const viewer of [0, 4, 'spectator'] as const) expect(view(table, viewer).hand!.antiCupid).toBe(antiCupid);
  });
});
