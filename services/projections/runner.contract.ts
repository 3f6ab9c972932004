/**
 * What the projection runner promises on any store, as one vitest suite:
 * every table's events folded once each, in order per table, from the start
 * or from a checkpoint, through a crash between an event and its checkpoint,
 * and a projection that throws stops there, naming the table and the seq.
 * runner.nats.test.ts runs it on memory, SQLite and a real nats-server.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AT } from '../eventstore/eventStore.contract.js';
import type { EventStore, NewEvent } from '../eventstore/eventStore.js';
import type { ProjectionCheckpoints } from './checkpoints.js';
import { isProjectionFailed, type Projection } from './projection.js';
import { startProjection, type ProjectionRunner } from './runner.js';

/** Every (table, seq) folded, in the order folded: a repeat or a gap shows at once. */
interface Seen {
  readonly folded: string[];
}

const seenEvents: Projection<Seen> = {
  name: 'seen',
  initial: () => ({ folded: [] }),
  apply(state, tableId, event) {
    if (event.type === 'boom') throw new Error(`cannot fold a ${event.type}`);
    state.folded.push(`${tableId}:${event.seq}`);
    return state;
  },
};

function moves(count: number, type = 'card.played'): NewEvent[] {
  return Array.from({ length: count }, (_, index) => ({ type, at: AT, data: { move: index } }));
}

/** The (table, seq) pairs of every event the tables hold, sorted: what a correct fold has seen, once each. */
async function everyEvent(store: EventStore): Promise<string[]> {
  const all: string[] = [];
  for (const { tableId } of await store.listTables()) {
    for (const event of await store.read(tableId)) all.push(`${tableId}:${event.seq}`);
  }
  return all.sort();
}

function sortedFolds(runner: ProjectionRunner<Seen>): string[] {
  return [...runner.state().folded].sort();
}

/** Saves like `inner` until `crash()`: from then on every save fails, as if the process died before it. */
function crashingCheckpoints(inner: ProjectionCheckpoints) {
  let crashed = false;
  const checkpoints: ProjectionCheckpoints = {
    load: (name) => inner.load(name),
    async save(name, checkpoint) {
      if (crashed) throw new Error('the process died before its checkpoint was saved');
      await inner.save(name, checkpoint);
    },
    close: async () => undefined,
  };
  return { checkpoints, crash: () => (crashed = true) };
}

export interface RunnerFixture {
  readonly store: EventStore;
  readonly checkpoints: ProjectionCheckpoints;
  close(): Promise<void>;
}

export function describeProjectionRunner(name: string, open: () => Promise<RunnerFixture>): void {
  describe(`${name}: projection runner`, () => {
    let fixture: RunnerFixture;
    const runners: ProjectionRunner<unknown>[] = [];
    const saveErrors: unknown[] = [];
    const start = (projection: Projection<Seen>, checkpoints = fixture.checkpoints) => {
      const onSaveError = (error: unknown) => saveErrors.push(error);
      const runner = startProjection({ source: fixture.store, projection, checkpoints, onSaveError });
      runners.push(runner as ProjectionRunner<unknown>);
      return runner;
    };

    beforeEach(async () => {
      saveErrors.length = 0;
      fixture = await open();
    });

    afterEach(async () => {
      await Promise.all(runners.splice(0).map((runner) => runner.stop()));
      await fixture.close();
    });

    it('folds every table from the start, then each event appended after, once each and in order per table', async () => {
      const { store } = fixture;
      await store.append('a', moves(3), 0);
      await store.append('b', moves(2), 0);
      const runner = start(seenEvents);
      await runner.caughtUp;
      expect(sortedFolds(runner)).toEqual(['a:1', 'a:2', 'a:3', 'b:1', 'b:2']);

      await store.append('a', moves(2), 3);
      await store.append('c', moves(1), 0);
      await store.append('b', moves(1), 2);
      await vi.waitFor(() => expect(sortedFolds(runner)).toEqual(['a:1', 'a:2', 'a:3', 'a:4', 'a:5', 'b:1', 'b:2', 'b:3', 'c:1']));
      const inOrder = (tableId: string) => runner.state().folded.filter((seen) => seen.startsWith(`${tableId}:`));
      expect(inOrder('a')).toEqual(['a:1', 'a:2', 'a:3', 'a:4', 'a:5']);
      expect(runner.lag()).toBe(0);
      expect(runner.folded()).toBe(9);
    });

    it('starts from its checkpoint: folds only what came after, and the state holds everything once', async () => {
      const { store } = fixture;
      await store.append('a', moves(2), 0);
      const first = start(seenEvents);
      await first.caughtUp;
      await first.stop();

      await store.append('a', moves(1), 2);
      await store.append('b', moves(2), 0);
      const second = start(seenEvents);
      await second.caughtUp;
      expect(second.folded()).toBe(3);
      expect(sortedFolds(second)).toEqual(await everyEvent(store));
      expect(second.lag()).toBe(0);
    });

    it('after a crash between an event and its checkpoint, folds that event again once: none twice, none missed', async () => {
      const { store } = fixture;
      await store.append('a', moves(2), 0);
      const { checkpoints, crash } = crashingCheckpoints(fixture.checkpoints);
      const doomed = start(seenEvents, checkpoints);
      await doomed.caughtUp;
      crash();
      await store.append('a', moves(2), 2);
      await store.append('b', moves(1), 0);
      // Folded in memory, its checkpoint never saved.
      await vi.waitFor(() => expect(doomed.state().folded).toHaveLength(5));
      await doomed.stop();
      expect(saveErrors.length).toBeGreaterThan(0);

      const restarted = start(seenEvents);
      await restarted.caughtUp;
      expect(restarted.folded()).toBe(3);
      expect(sortedFolds(restarted)).toEqual(await everyEvent(store));
    });

    it('with saveEveryMs, saves at most that often, and what it folded since is saved when it stops', async () => {
      const { store, checkpoints } = fixture;
      await store.append('a', moves(2), 0);
      const runner = startProjection({ source: store, projection: seenEvents, checkpoints, saveEveryMs: 60_000 });
      runners.push(runner as ProjectionRunner<unknown>);
      await runner.caughtUp;
      expect((await checkpoints.load('seen'))?.positions).toEqual({ a: 2 });
      await store.append('a', moves(1), 2);
      await vi.waitFor(() => expect(runner.state().folded).toHaveLength(3));
      // Folded, and not saved within the minute.
      expect((await checkpoints.load('seen'))?.positions).toEqual({ a: 2 });
      await runner.stop();
      expect((await checkpoints.load('seen'))?.positions).toEqual({ a: 3 });
    });

    it('a projection that throws stops, naming the projection, the table and the seq, and skips nothing', async () => {
      const { store } = fixture;
      await store.append('a', moves(2), 0);
      await store.append('b', [...moves(2), ...moves(1, 'boom'), ...moves(1)], 0);
      const runner = start(seenEvents);
      const failure = await runner.caughtUp.then(
        () => null,
        (error: unknown) => error,
      );
      expect(isProjectionFailed(failure)).toBe(true);
      expect(failure).toMatchObject({ projection: 'seen', tableId: 'b', seq: 3, eventType: 'boom' });
      expect((failure as Error).message).toBe('projection seen failed on table b at event 3 (boom): cannot fold a boom');
      expect(() => runner.state()).toThrow(/table b at event 3/);
      await runner.stop();

      const saved = await fixture.checkpoints.load('seen');
      expect(saved?.positions.b ?? 0).toBeLessThan(3);
      // Started again it meets the same event, rather than stepping over it.
      const again = start(seenEvents);
      await expect(again.caughtUp).rejects.toMatchObject({ tableId: 'b', seq: 3 });
    });
  });
}
