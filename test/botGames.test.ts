/**
 * Properties over many seeded random-bot games of every game and
 * specials mode: cards are conserved, one seat acts when one is expected,
 * the record verifier re-derives every score, and views leak nothing.
 */
import { describe, expect, it } from 'vitest';
import { optionsOf } from './kit/table.js';
import { createRng } from '../machines/cards/shuffle.js';
import { deckFor, type GameName } from '../machines/table/options.js';
import type { GameRecord } from '../machines/record/record.js';
import { verifyRecord } from '../machines/record/verify.js';
import { awaitedActions, refusalOf } from '../machines/table/refusal.js';
import { offer, phaseOf, startTable, type TableSnapshot } from '../machines/table/snapshot.js';
import { viewFor, type Viewer } from '../machines/view.js';
import { expectNothingHidden } from './leakChecks.js';
import { nextSimulatedEvent, simulateGame } from '../services/simulator/simulate.js';
import type { Card } from '../machines/cards/card.js';
import { settingsFromEnv, wholeNumber } from '../drivers/flags.js';

const CONFIGS: { game: GameName; options: Record<string, string> }[] = [
  { game: 'sevenSuitors', options: { specials: 'off' } },
  { game: 'sevenSuitors', options: { specials: 'plain' } },
  { game: 'sevenSuitors', options: { specials: 'powers', end: 'hands:3' } },
  { game: 'antiCupid', options: { specials: 'plain' } },
  { game: 'antiCupid', options: { specials: 'powers', passing: 'oneEach' } },
  { game: 'traitorOfLove', options: { specials: 'plain' } },
  { game: 'traitorOfLove', options: { specials: 'powers' } },
  { game: 'firstLesson', options: { end: 'hands:3' } },
];
/**
 * Games per configuration: 40 played and verified, 2 of them scanned at every
 * event for leaks in every seat's view (the costlier check), in the everyday
 * suite; `npm run test:deep` plays 1000 and scans 20 (BOT_GAMES, BOT_SCANNED_GAMES).
 */
const { games: GAMES_PER_CONFIG, scanned: LEAK_SCANNED_GAMES } = settingsFromEnv({
  games: wholeNumber({ env: 'BOT_GAMES', default: 40 }),
  scanned: wholeNumber({ env: 'BOT_SCANNED_GAMES', default: 2 }),
});

function expectCardsConserved(record: GameRecord, deck: readonly Card[]): void {
  for (const hand of record.hands) {
    const dealt = hand.deal.flat();
    expect(new Set(dealt).size).toBe(dealt.length);
    expect([...dealt].sort()).toEqual([...deck].sort());
    const held = hand.deal.map((cards) => new Set(cards));
    for (const pass of hand.passes) {
      expect(held[pass.from].has(pass.card)).toBe(true);
    }
    for (const pass of hand.passes) {
      held[pass.from].delete(pass.card);
      held[pass.to].add(pass.card);
    }
    const played = hand.plays.map(([, card]) => card);
    expect(new Set(played).size).toBe(played.length);
    for (const [seat, card] of hand.plays) expect(held[seat].has(card)).toBe(true);
    if (hand.result !== null) {
      expect([...played].sort()).toEqual([...deck].sort());
      expect(hand.result.tricks.length * record.seats).toBe(played.length);
    }
  }
}

describe.each(CONFIGS)('$game with $options', ({ game, options: given }) => {
  const options = optionsOf(game, given);
  const deck = deckFor(options);

  it(`${GAMES_PER_CONFIG} bot games conserve cards and verify`, () => {
    let finished = 0;
    for (let i = 0; i < GAMES_PER_CONFIG; i++) {
      const { record } = simulateGame({ game, options, seed: `property-${i}`, maxHands: 60 });
      expectCardsConserved(record, deck);
      const verification = verifyRecord(JSON.parse(JSON.stringify(record)));
      expect(verification.problems).toEqual([]);
      if (record.result.finished) finished++;
    }
    expect(finished).toBe(GAMES_PER_CONFIG);
  });

  it('one seat acts when one is expected, and no view leaks hidden cards, roles, passes or accusations', () => {
    for (let i = 0; i < LEAK_SCANNED_GAMES; i++) {
      const rng = createRng(`leaks-${i}`);
      const table = startTable({ game, options });
      for (let event = nextSimulatedEvent(table.getSnapshot(), rng, 60); event !== null; ) {
        expect(offer(table, event)).toBe(true);
        const snapshot = table.getSnapshot();
        expectOneActorInTrickPlay(snapshot);
        expectNoLeaks(snapshot);
        event = nextSimulatedEvent(snapshot, rng, 60);
      }
      expect(phaseOf(table.getSnapshot())).toBe('gameOver');
    }
  });
});

function expectOneActorInTrickPlay(snapshot: TableSnapshot): void {
  if (phaseOf(snapshot) !== 'trickPlay') return;
  const awaited = awaitedActions(snapshot);
  expect(awaited).toHaveLength(1);
  const hand = snapshot.context.hand!;
  for (let seat = 0; seat < snapshot.context.seatCount; seat++) {
    if (seat === awaited[0].seat || hand.holdings[seat].length === 0) continue;
    const event = { type: 'card.played' as const, seat, card: hand.holdings[seat][0] };
    expect(refusalOf(snapshot, event)).toBe(`it is seat ${awaited[0].seat}'s turn`);
    expect(snapshot.can(event)).toBe(false);
  }
}

/** Every seat's view and the spectator's, through the one leak scan the gateway's tests use too. */
function expectNoLeaks(snapshot: TableSnapshot): void {
  const viewers: Viewer[] = [...Array.from({ length: snapshot.context.seatCount }, (_, seat) => seat), 'spectator'];
  for (const viewer of viewers) expectNothingHidden({ view: viewFor(snapshot, viewer) }, viewer, snapshot);
}
