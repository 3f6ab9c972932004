import { describe, expect, it } from 'vitest';
import { newTable } from '../../test/kit/table.js';
import { HEARTS } from '../cards/card.js';
import { createRng, type Rng } from '../cards/shuffle.js';
import { shuffleDeal } from '../fragments/dealing.js';
import type { HandResult } from '../table/context.js';
import type { GameName } from '../table/options.js';
import { awaitedActions } from '../table/refusal.js';
import { offer, phaseOf, startTable, type TableActor } from '../table/snapshot.js';
import { viewFor } from '../view.js';
import { randomMove } from './randomBot.js';
import { heuristicMove } from './heuristicBot.js';
import type { Seat } from '../rules/trick.js';

type Kind = 'heuristic' | 'random';

interface PlayedGame {
  readonly table: TableActor;
  /** Each hand's result with the roles or Anti-Cupid it was played under. */
  readonly hands: { result: HandResult; roles: readonly number[] | null; antiCupid: Seat | null }[];
}

/** Plays a whole game, the host's part included, with each seat's bot of the given kind. */
function playGame(game: GameName, given: Record<string, string>, seed: string, kindOf: (seat: Seat) => Kind): PlayedGame {
  const rng: Rng = createRng(seed);
  const table = newTable(game, { options: given, bots: 'all' });
  const hands: PlayedGame['hands'] = [];
  for (let moves = 0; phaseOf(table.getSnapshot()) !== 'gameOver'; moves++) {
    if (moves > 20_000) throw new Error('the game does not end');
    const snapshot = table.getSnapshot();
    if (phaseOf(snapshot) === 'dealing') {
      expect(offer(table, shuffleDeal(snapshot.context, rng))).toBe(true);
      continue;
    }
    const [{ seat, action }] = awaitedActions(snapshot);
    const move =
      kindOf(seat) === 'heuristic' ? heuristicMove(viewFor(snapshot, seat), action, rng) : randomMove(snapshot, seat, action, rng);
    const hand = snapshot.context.hand!;
    expect(offer(table, move), `${JSON.stringify(move)} is refused`).toBe(true);
    const after = table.getSnapshot().context;
    if (after.handResults.length > hands.length) {
      hands.push({ result: after.handResults[hands.length], roles: hand.roles, antiCupid: hand.antiCupid });
    }
  }
  return { table, hands };
}

const ALL: (kind: Kind) => (seat: Seat) => Kind = (kind) => () => kind;

describe('the heuristic bot', () => {
  it.each([
    ['sevenSuitors', { specials: 'powers', end: 'hands:2' }],
    ['antiCupid', { specials: 'powers', passing: 'oneEach' }],
    ['traitorOfLove', { specials: 'plain' }],
  ] as const)('plays only legal moves through a whole game of %s', (game, options) => {
    for (let i = 0; i < 2; i++) {
      const { table } = playGame(game, options, `legal-${game}-${i}`, ALL('heuristic'));
      expect(table.getSnapshot().context.outcome?.finished).toBe(true);
    }
  });

  it('marries more suits for its team than a random team does in Seven Suitors', () => {
    let heuristic = 0;
    let random = 0;
    for (let i = 0; i < 12; i++) {
      // Team A (seats 0 and 2) is heuristic in even games, team B in odd ones.
      const heuristicTeam = i % 2;
      const { hands } = playGame('sevenSuitors', { end: 'hands:2' }, `teams-${i}`, (seat) =>
        seat % 2 === heuristicTeam ? 'heuristic' : 'random',
      );
      for (const { result } of hands) {
        for (const marriage of result.marriages) {
          if ((marriage.by === 'A' ? 0 : 1) === heuristicTeam) heuristic++;
          else random++;
        }
      }
    }
    expect(heuristic).toBeGreaterThan(random * 1.3);
  });

  it('as Anti-Cupid, keeps more 7s apart than a random Anti-Cupid', () => {
    const unmarried = (kindOfAntiCupid: Kind) => {
      let count = 0;
      for (let i = 0; i < 60; i++) {
        // Everyone else plays at random, so only Anti-Cupid's play differs between the two runs.
        // The edge is small (about 13% more suits kept apart), so it takes some 60 games to show through the noise.
        const rngForRoles = `anti-${i}`;
        const { hands } = playGame('antiCupid', {}, rngForRoles, (seat) => (seat === 0 ? kindOfAntiCupid : 'random'));
        for (const { result, antiCupid } of hands) if (antiCupid === 0) count += 7 - result.marriages.length;
      }
      return count;
    };
    expect(unmarried('heuristic')).toBeGreaterThan(unmarried('random'));
  });

  it('as the Traitor, quietly helps the other team: its team marries less than the other', () => {
    let traitorsTeam = 0;
    let otherTeam = 0;
    for (let i = 0; i < 6; i++) {
      const { hands } = playGame('traitorOfLove', {}, `traitor-${i}`, ALL('heuristic'));
      for (const { result, roles } of hands) {
        const traitor = roles!.indexOf(HEARTS);
        for (const marriage of result.marriages) {
          if ((marriage.by === 'A' ? 0 : 1) === traitor % 2) traitorsTeam++;
          else otherTeam++;
        }
      }
    }
    expect(otherTeam).toBeGreaterThan(traitorsTeam);
  });

  it('decides from its seat view alone: the same view gives the same move, whatever the hidden cards', () => {
    const { table } = playGame('sevenSuitors', { end: 'hands:1' }, 'view-only', ALL('random'));
    const snapshot = table.getSnapshot();
    const view = viewFor(snapshot, 0);
    expect(JSON.stringify(view)).not.toContain('"holdings"');
    // A move is a function of (view, action, rng): two calls with equal inputs agree.
    const fresh = startTable({ game: 'sevenSuitors', options: snapshot.context.options });
    for (let seat = 0; seat < 4; seat++) offer(fresh, { type: 'seat.joined', seat, player: { name: `Bot ${seat}`, bot: true } });
    offer(fresh, shuffleDeal(fresh.getSnapshot().context, createRng('deal')));
    const passing = fresh.getSnapshot();
    const a = heuristicMove(viewFor(passing, 1), 'pass', createRng('same'));
    const b = heuristicMove(JSON.parse(JSON.stringify(viewFor(passing, 1))), 'pass', createRng('same'));
    expect(a).toEqual(b);
  });
});
