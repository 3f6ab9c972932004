/**
 * The behaviour every event store adapter promises, as one vitest suite.
 * An adapter's test file calls describeEventStoreContract with a function
 * that opens a fresh, empty store; the suite closes it after each test and
 * then calls `cleanup`.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { isVersionConflict, type EventStore, type NewEvent, type StoredEvent, type TableStatus } from './eventStore.js';
import { describeRetirementContract } from './retirement.contract.js';

export const AT = '2025-01-02T03:04:05.678Z';

export function played(card: string, seat = 0): NewEvent {
  return { type: 'card.played', at: AT, data: { seat, card } };
}

function status(phase: string): TableStatus {
  return { game: 'sevenSuitors', phase };
}

/** The error a promise rejected with, or a failure if it resolved. */
async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the promise to reject, but it resolved');
}

function seqsOf(events: readonly StoredEvent[]): number[] {
  return events.map((event) => event.seq);
}

export function describeEventStoreContract(name: string, open: () => Promise<EventStore>, cleanup?: () => Promise<void> | void): void {
  describe(`${name}: event store contract`, () => {
    let store: EventStore;

    beforeEach(async () => {
      store = await open();
    });

    afterEach(async () => {
      await store.close();
      await cleanup?.();
    });

    describe('append', () => {
      it('appends to a new table at version 0 and numbers its events from 1', async () => {
        expect(await store.append('t1', [played('4-9')], 0)).toBe(1);
        expect(await store.append('t1', [played('2-7', 1)], 1)).toBe(2);
        expect(await store.read('t1')).toEqual([
          { seq: 1, type: 'card.played', at: AT, data: { seat: 0, card: '4-9' } },
          { seq: 2, type: 'card.played', at: AT, data: { seat: 1, card: '2-7' } },
        ]);
      });

      it('refuses an append at the wrong version with a VersionConflict and writes nothing', async () => {
        await store.append('t1', [played('a'), played('b')], 0, status('trickPlay'));

        for (const wrongVersion of [0, 1, 3, 9]) {
          const error = await rejectionOf(store.append('t1', [played('x')], wrongVersion, status('gameOver')));
          expect(isVersionConflict(error)).toBe(true);
          expect(error).toMatchObject({ tableId: 't1', expectedVersion: wrongVersion, actualVersion: 2 });
          expect((error as Error).message).toContain('t1');
        }

        expect(seqsOf(await store.read('t1'))).toEqual([1, 2]);
        expect(await store.version('t1')).toBe(2);
        expect(await store.listTables()).toEqual([{ tableId: 't1', version: 2, lastEventAt: AT, status: status('trickPlay') }]);
      });

      it('refuses an append to an unknown table at any version but 0, and creates nothing', async () => {
        const error = await rejectionOf(store.append('ghost', [played('x')], 3));
        expect(isVersionConflict(error)).toBe(true);
        expect(error).toMatchObject({ tableId: 'ghost', expectedVersion: 3, actualVersion: 0 });
        expect(await store.read('ghost')).toEqual([]);
        expect(await store.listTables()).toEqual([]);
      });

      it('appends several events all or nothing', async () => {
        expect(await store.append('t1', [played('a'), played('b'), played('c')], 0)).toBe(3);
        expect(seqsOf(await store.read('t1'))).toEqual([1, 2, 3]);

        const error = await rejectionOf(store.append('t1', [played('d'), played('e')], 2));
        expect(isVersionConflict(error)).toBe(true);
        expect((await store.read('t1')).map((event) => (event.data as { card: string }).card)).toEqual(['a', 'b', 'c']);
      });

      it('applies appends in the order they were called, so unawaited appends to one table chain', async () => {
        const versions = await Promise.all([
          store.append('t1', [played('a')], 0),
          store.append('t1', [played('b'), played('c')], 1),
          store.append('t1', [played('d')], 3),
        ]);
        expect(versions).toEqual([1, 3, 4]);
        expect((await store.read('t1')).map((event) => (event.data as { card: string }).card)).toEqual(['a', 'b', 'c', 'd']);
      });

      it('keeps event data as JSON, unaffected by later changes to the appended or read objects', async () => {
        const data = { seat: 2, hand: ['1-1', '7-7'], roles: { traitor: null, note: 'é ♥ 愛' }, score: -3.5 };
        const event: NewEvent = { type: 'hand.dealt', at: AT, data };
        const appending = store.append('t1', [event], 0);
        data.hand.push('mutated');
        await appending;

        const [read] = await store.read('t1');
        expect(read).toEqual({ seq: 1, type: 'hand.dealt', at: AT, data: { ...data, hand: ['1-1', '7-7'] } });
        (read.data as { hand: string[] }).hand.push('mutated again');
        expect((await store.read('t1'))[0].data).toEqual({ ...data, hand: ['1-1', '7-7'] });
      });

      it('refuses malformed appends before touching the log', async () => {
        await expect(store.append('t1', [], 0)).rejects.toThrow(/at least one event/);
        await expect(store.append('t1', [played('a')], -1)).rejects.toThrow(/expectedVersion/);
        await expect(store.append('t1', [played('a')], 0.5)).rejects.toThrow(/expectedVersion/);
        await expect(store.append('', [played('a')], 0)).rejects.toThrow(/table id/);
        await expect(store.append('t1', [{ type: '', at: AT, data: null }], 0)).rejects.toThrow(/type/);
        await expect(store.append('t1', [{ type: 'x', at: AT, data: { big: 1n } }], 0)).rejects.toThrow(/not JSON/);
        expect(await store.version('t1')).toBe(0);
        expect(await store.listTables()).toEqual([]);
      });
    });

    describe('read and version', () => {
      it('reads all events, or only those after a version', async () => {
        await store.append('t1', [played('a'), played('b'), played('c'), played('d')], 0);
        expect(seqsOf(await store.read('t1'))).toEqual([1, 2, 3, 4]);
        expect(seqsOf(await store.read('t1', 0))).toEqual([1, 2, 3, 4]);
        expect(seqsOf(await store.read('t1', 2))).toEqual([3, 4]);
        expect(seqsOf(await store.read('t1', 4))).toEqual([]);
        expect(seqsOf(await store.read('t1', 10))).toEqual([]);
      });

      it('reports the version as the seq of the last event', async () => {
        await store.append('t1', [played('a'), played('b')], 0);
        expect(await store.version('t1')).toBe(2);
        await store.append('t1', [played('c')], 2);
        expect(await store.version('t1')).toBe(3);
      });

      it('reads an unknown table as empty, at version 0', async () => {
        await store.append('t1', [played('a')], 0);
        expect(await store.read('nobody-here')).toEqual([]);
        expect(await store.read('nobody-here', 3)).toEqual([]);
        expect(await store.version('nobody-here')).toBe(0);
      });

      it('keeps the logs of different tables apart', async () => {
        await store.append('t1', [played('a')], 0);
        await store.append('t2', [played('b'), played('c')], 0);
        expect(seqsOf(await store.read('t1'))).toEqual([1]);
        expect(seqsOf(await store.read('t2'))).toEqual([1, 2]);
      });
    });

    describe('listTables', () => {
      it('lists every table with its version, the time of its last event and the last status given, by table id', async () => {
        expect(await store.listTables()).toEqual([]);
        const at = (card: string, time: string) => ({ ...played(card), at: time });
        await store.append('b-table', [at('a', '2026-01-01T10:00:00.000Z')], 0, status('passing'));
        await store.append('a-table', [at('a', '2026-01-01T10:00:01.000Z')], 0);
        await store.append('b-table', [at('b', '2026-01-01T10:00:02.000Z')], 1, { ...status('trickPlay'), hand: 2 });
        // No status: the last one stays. The last event's time is the last of the append's events.
        await store.append('b-table', [at('c', '2026-01-01T10:00:03.000Z'), at('d', '2026-01-01T10:00:04.000Z')], 2);
        expect(await store.listTables()).toEqual([
          { tableId: 'a-table', version: 1, lastEventAt: '2026-01-01T10:00:01.000Z', status: null },
          { tableId: 'b-table', version: 4, lastEventAt: '2026-01-01T10:00:04.000Z', status: { ...status('trickPlay'), hand: 2 } },
        ]);
      });
    });

    describe('subscribe', () => {
      it('tells a listener of every appended event, in order', async () => {
        const heard: [string, StoredEvent][] = [];
        store.subscribe((tableId, event) => heard.push([tableId, event]));
        await store.append('t1', [played('a'), played('b')], 0);
        await store.append('t2', [played('c')], 0);
        await store.append('t1', [played('d')], 2);

        await vi.waitFor(() => expect(heard).toHaveLength(4));
        expect(heard.map(([tableId, event]) => `${tableId}#${event.seq}`)).toEqual(['t1#1', 't1#2', 't2#1', 't1#3']);
        expect(heard[3][1]).toEqual({ seq: 3, type: 'card.played', at: AT, data: { seat: 0, card: 'd' } });
      });

      it('does not tell listeners of refused appends', async () => {
        const heard: string[] = [];
        store.subscribe((tableId, event) => heard.push(`${tableId}#${event.seq}`));
        await store.append('t1', [played('a')], 0);
        await rejectionOf(store.append('t1', [played('b')], 0));
        await store.append('t1', [played('c')], 1);
        await vi.waitFor(() => expect(heard).toHaveLength(2));
        expect(heard).toEqual(['t1#1', 't1#2']);
      });

      it('stops telling a listener once it unsubscribes', async () => {
        const stopped: number[] = [];
        const kept: number[] = [];
        const unsubscribe = store.subscribe((_, event) => stopped.push(event.seq));
        store.subscribe((_, event) => kept.push(event.seq));
        await store.append('t1', [played('a')], 0);
        await vi.waitFor(() => expect(stopped).toEqual([1]));

        unsubscribe();
        unsubscribe(); // a second call is harmless
        await store.append('t1', [played('b'), played('c')], 1);
        await vi.waitFor(() => expect(kept).toEqual([1, 2, 3]));
        expect(stopped).toEqual([1]);
      });

      it('keeps appending and telling other listeners when a listener throws', async () => {
        const heard: number[] = [];
        const quietConsole = vi.spyOn(console, 'error').mockImplementation(() => undefined);
        try {
          store.subscribe(() => {
            throw new Error('a broken listener');
          });
          store.subscribe((_, event) => heard.push(event.seq));
          expect(await store.append('t1', [played('a')], 0)).toBe(1);
          await vi.waitFor(() => expect(heard).toEqual([1]));
          expect(await store.version('t1')).toBe(1);
        } finally {
          quietConsole.mockRestore();
        }
      });
    });

    describe('snapshots', () => {
      it('loads null for a table without a snapshot', async () => {
        expect(await store.loadSnapshot('t1')).toBeNull();
      });

      it('loads the latest snapshot saved, and keeps a newer one over an older one saved later', async () => {
        await store.append('t1', [played('a'), played('b'), played('c'), played('d')], 0);
        await store.saveSnapshot('t1', { version: 2, snapshot: { phase: 'passing', hands: [[1, 2]] } });
        expect(await store.loadSnapshot('t1')).toEqual({ version: 2, snapshot: { phase: 'passing', hands: [[1, 2]] } });

        await store.saveSnapshot('t1', { version: 4, snapshot: { phase: 'trickPlay' } });
        expect(await store.loadSnapshot('t1')).toEqual({ version: 4, snapshot: { phase: 'trickPlay' } });

        await store.saveSnapshot('t1', { version: 3, snapshot: { phase: 'stale' } });
        expect(await store.loadSnapshot('t1')).toEqual({ version: 4, snapshot: { phase: 'trickPlay' } });
        expect(await store.loadSnapshot('t2')).toBeNull();
      });

      it('refuses a snapshot ahead of the log', async () => {
        await store.append('t1', [played('a')], 0);
        await expect(store.saveSnapshot('t1', { version: 2, snapshot: {} })).rejects.toThrow(/only at version 1/);
        expect(await store.loadSnapshot('t1')).toBeNull();
      });
    });

    describe('concurrency', () => {
      it('accepts exactly one of many concurrent appends at the same expected version', async () => {
        await store.append('t1', [played('first')], 0);
        const contenders = Array.from({ length: 10 }, (_, writer) =>
          store.append('t1', [played(`writer ${writer}`), played(`writer ${writer} again`)], 1),
        );
        const outcomes = await Promise.allSettled(contenders);

        const accepted = outcomes.filter((outcome) => outcome.status === 'fulfilled');
        expect(accepted).toEqual([{ status: 'fulfilled', value: 3 }]);
        for (const outcome of outcomes) {
          if (outcome.status === 'rejected') {
            expect(isVersionConflict(outcome.reason)).toBe(true);
            expect(outcome.reason).toMatchObject({ tableId: 't1', expectedVersion: 1, actualVersion: 3 });
          }
        }
        const log = await store.read('t1');
        expect(seqsOf(log)).toEqual([1, 2, 3]);
        const winner = (log[1].data as { card: string }).card;
        expect((log[2].data as { card: string }).card).toBe(`${winner} again`);
      });

      it('keeps many tables written concurrently apart and gapless', async () => {
        const tables = Array.from({ length: 40 }, (_, index) => `table-${String(index).padStart(2, '0')}`);
        const appendsPerTable = 15;
        await Promise.all(
          tables.map(async (tableId) => {
            for (let version = 0; version < appendsPerTable; version++) {
              await store.append(tableId, [played(`${tableId}/${version}`)], version, status(`after ${version + 1}`));
            }
          }),
        );

        for (const tableId of tables) {
          const log = await store.read(tableId);
          expect(seqsOf(log)).toEqual(Array.from({ length: appendsPerTable }, (_, index) => index + 1));
          expect(log.map((event) => (event.data as { card: string }).card)).toEqual(
            Array.from({ length: appendsPerTable }, (_, index) => `${tableId}/${index}`),
          );
        }
        expect(await store.listTables()).toEqual(
          tables.map((tableId) => ({ tableId, version: appendsPerTable, lastEventAt: AT, status: status(`after ${appendsPerTable}`) })),
        );
      });
    });
  });
  describeRetirementContract(name, open, cleanup);
}
