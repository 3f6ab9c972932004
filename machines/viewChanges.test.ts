import { describe, expect, it } from 'vitest';
import { newTable } from '../test/kit/table.js';
import { randomMove } from './bots/randomBot.js';
import { createRng, seedFrom, type Rng } from './cards/shuffle.js';
import { fairDeal } from './fragments/dealing.js';
import type { TableEvent } from './table/events.js';
import { GAME_NAMES, type GameName } from './table/options.js';
import { awaitedActions } from './table/refusal.js';
import { offer, phaseOf, type TableSnapshot } from './table/snapshot.js';
import { nextVersionOf, viewChanges, withChanges, type Json } from './viewChanges.js';
import { viewFor, type Viewer } from './view.js';

/** A value as a client holds it: read from its JSON, frozen so that applying changes cannot alter it. */
function asReceived(value: unknown): Json {
  return deepFreeze(JSON.parse(JSON.stringify(value)) as Json);
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}

function nextEvent(snapshot: TableSnapshot, rng: Rng): TableEvent | null {
  const phase = phaseOf(snapshot);
  if (phase === 'gameOver') return null;
  const { context } = snapshot;
  if (phase === 'seating') {
    const seat = context.occupants.indexOf(null);
    return { type: 'seat.joined', seat, player: { name: `P${seat}`, bot: false } };
  }
  if (phase === 'dealing') return fairDeal(context, seedFrom(rng));
  const awaited = awaitedActions(snapshot);
  const { seat, action } = awaited[rng.below(awaited.length)];
  return randomMove(snapshot, seat, action, rng);
}

/** Every version of a whole game of random moves. */
function playedGame(game: GameName, seed: string): TableSnapshot[] {
  const table = newTable(game);
  const rng = createRng(seed);
  const versions = [table.getSnapshot()];
  for (let event = nextEvent(table.getSnapshot(), rng); event !== null; event = nextEvent(table.getSnapshot(), rng)) {
    if (!offer(table, event)) throw new Error(`the machine refused ${event.type}`);
    versions.push(table.getSnapshot());
  }
  table.stop();
  return versions;
}

describe('a view sent as what changed since the last one', () => {
  for (const game of GAME_NAMES) {
    it(`rebuilds every viewer's next view exactly, over whole games of ${game}, in a fraction of the bytes`, () => {
      let wholeBytes = 0;
      let changeBytes = 0;
      for (const seed of ['a', 'b']) {
        const versions = playedGame(game, `view-changes-${game}-${seed}`);
        const seats = versions[0].context.seatCount;
        const viewers: Viewer[] = [...Array.from({ length: seats }, (_, seat) => seat), 'spectator'];
        for (const viewer of viewers) {
          let before = viewFor(versions[0], viewer);
          let held = asReceived(before);
          for (const snapshot of versions.slice(1)) {
            const after = viewFor(snapshot, viewer);
            const changes = viewChanges(before, after);
            const sent = JSON.stringify(changes);
            const rebuilt = withChanges(held, asReceived(changes) as never);
            expect(rebuilt).toEqual(JSON.parse(JSON.stringify(after)));
            wholeBytes += JSON.stringify(after).length;
            changeBytes += sent.length;
            before = after;
            held = deepFreeze(rebuilt);
          }
        }
      }
      // The point of sending changes: most of a view is as it was (about 7% of the bytes over these games).
      expect(changeBytes / wholeBytes).toBeLessThan(0.15);
    });
  }

  it('sends nothing for a view that did not change, and sets what differs by the shortest path', () => {
    const before = { a: 1, list: [1, 2], inner: { b: 'x', c: null as string | null } };
    expect(viewChanges(before, structuredClone(before))).toEqual([]);
    expect(viewChanges(before, { ...before, inner: { b: 'x', c: 'y' } })).toEqual([[['inner', 'c'], 'y']]);
    // An array that grew is appended to; one that shrank is set whole.
    expect(viewChanges(before, { ...before, list: [1, 2, 3] })).toEqual([[['list', 2], 3]]);
    expect(viewChanges(before, { ...before, list: [1] })).toEqual([[['list'], [1]]]);
    // A value whose kind changed is set whole.
    expect(viewChanges(before, { ...before, inner: null })).toEqual([[['inner'], null]]);
    expect(viewChanges(null, before)).toEqual([[[], before]]);
  });

  it('turns the message held into the next version’s, and refuses changes from a version not held', () => {
    const held = deepFreeze({ type: 'view', version: 4, view: { turn: 1 }, turnDeadline: null, activeStates: ['a'] });
    const changes = { from: 4, version: 6, changes: [[['view', 'turn'], 2]] as const };
    expect(nextVersionOf(held, changes)).toEqual({ type: 'view', version: 6, view: { turn: 2 }, turnDeadline: null, activeStates: ['a'] });
    expect(nextVersionOf(held, { ...changes, from: 5 })).toBeNull();
  });

  it('leaves the older view as it was, and refuses a change that does not fit the view', () => {
    const before = deepFreeze({ a: { b: [1, 2] }, c: 3 });
    const after = withChanges(before, [
      [['a', 'b', 2], 5],
      [['c'], 4],
    ]);
    expect(after).toEqual({ a: { b: [1, 2, 5] }, c: 4 });
    expect(before).toEqual({ a: { b: [1, 2] }, c: 3 });
    // Changes landing in one place, and in a value an earlier change set, leave every value given as it was.
    const setting = deepFreeze({ e: 5, f: [1] });
    const many = withChanges(before, [
      [['a', 'b', 0], 9],
      [['a', 'b', 1], 8],
      [['c'], setting],
      [['c', 'f', 1], 2],
    ]);
    expect(many).toEqual({ a: { b: [9, 8] }, c: { e: 5, f: [1, 2] } });
    expect(setting).toEqual({ e: 5, f: [1] });
    expect(before).toEqual({ a: { b: [1, 2] }, c: 3 });
    expect(() => withChanges(before, [[['d'], 1]])).toThrow(/does not fit/);
    expect(() => withChanges(before, [[['a', 'b', 3], 1]])).toThrow(/does not fit/);
  });
});
