/**
 * What every event store adapter promises of retiring a table (its record
 * kept, its log and snapshot deleted), as one vitest suite; the event store
 * contract (eventStore.contract.ts) runs it for each adapter.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isTableRetired, isVersionConflict, type EventStore, type NewEvent, type TableStatus } from './eventStore.js';

const AT = '2025-01-02T03:04:05.678Z';
const LATER = '2025-02-03T04:05:06.789Z';
const RETIRED_AT = '2025-03-04T05:06:07.890Z';
const FINISHED: TableStatus = { game: 'sevenSuitors', phase: 'gameOver', finished: true };
const RECORD = { format: 'suitors-record/3', table: 't1', hands: [{ plays: ['4-9', '2-7'] }] };

function played(card: string, at = AT): NewEvent {
  return { type: 'card.played', at, data: { seat: 0, card } };
}

async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the promise to reject, but it resolved');
}

export function describeRetirementContract(name: string, open: () => Promise<EventStore>, cleanup?: () => Promise<void> | void): void {
  describe(`${name}: retiring a table`, () => {
    let store: EventStore;

    beforeEach(async () => {
      store = await open();
      await store.append('t1', [played('a'), played('b')], 0);
      await store.append('t1', [played('c', LATER)], 2, FINISHED);
      await store.saveSnapshot('t1', { version: 3, snapshot: { phase: 'gameOver' } });
      await store.append('t2', [played('x')], 0, { game: 'sevenSuitors', phase: 'trickPlay' });
    });

    afterEach(async () => {
      await store.close();
      await cleanup?.();
    });

    it('keeps the record and what the log said last, and deletes the log and the snapshot', async () => {
      await store.retire('t1', { expectedVersion: 3, record: RECORD, at: RETIRED_AT });

      expect(await store.retired('t1')).toEqual({
        tableId: 't1',
        version: 3,
        lastEventAt: LATER,
        status: FINISHED,
        retiredAt: RETIRED_AT,
        record: RECORD,
      });
      expect(await store.read('t1')).toEqual([]);
      expect(await store.version('t1')).toBe(0);
      expect(await store.loadSnapshot('t1')).toBeNull();
      expect((await store.listTables()).map((table) => table.tableId)).toEqual(['t2']);
      // The other table is untouched.
      expect((await store.read('t2')).map((event) => event.seq)).toEqual([1]);
      expect(await store.retired('t2')).toBeNull();
      expect(await store.retired('nobody')).toBeNull();
    });

    it('refuses to retire a log that is not at the expected version, or no log at all, and changes nothing', async () => {
      for (const [tableId, expectedVersion, actualVersion] of [
        ['t1', 2, 3],
        ['t1', 4, 3],
        ['nobody', 1, 0],
      ] as const) {
        const refusal = await rejectionOf(store.retire(tableId, { expectedVersion, record: RECORD, at: RETIRED_AT }));
        expect(isVersionConflict(refusal)).toBe(true);
        expect(refusal).toMatchObject({ tableId, expectedVersion, actualVersion });
      }
      expect(await store.version('t1')).toBe(3);
      expect(await store.loadSnapshot('t1')).toEqual({ version: 3, snapshot: { phase: 'gameOver' } });
      expect(await store.retired('t1')).toBeNull();
      expect(await store.retired('nobody')).toBeNull();
    });

    it('refuses an append to a retired table at any version, and a second retirement, with TableRetired', async () => {
      await store.retire('t1', { expectedVersion: 3, record: RECORD, at: RETIRED_AT });

      for (const expectedVersion of [0, 3]) {
        const refusal = await rejectionOf(store.append('t1', [played('late')], expectedVersion));
        expect(isTableRetired(refusal)).toBe(true);
        expect((refusal as Error).message).toBe('table t1 was retired: its log is gone and it takes no more events');
      }
      expect(isTableRetired(await rejectionOf(store.retire('t1', { expectedVersion: 3, record: {}, at: LATER })))).toBe(true);
      expect(await store.read('t1')).toEqual([]);
      expect((await store.retired('t1'))?.record).toEqual(RECORD);
    });

    it('refuses a malformed retirement before touching the log', async () => {
      await expect(store.retire('t1', { expectedVersion: 0, record: RECORD, at: RETIRED_AT })).rejects.toThrow(
        /expectedVersion must be the version of its log, a whole number >= 1, not 0/,
      );
      await expect(store.retire('t1', { expectedVersion: 3, record: 10n, at: RETIRED_AT })).rejects.toThrow(
        /the record of table t1 is not JSON/,
      );
      await expect(store.retire('t1', { expectedVersion: 3, record: RECORD, at: '' })).rejects.toThrow(/needs an ISO-8601 time/);
      await expect(store.retire('', { expectedVersion: 3, record: RECORD, at: RETIRED_AT })).rejects.toThrow(/non-empty string/);
      expect(await store.version('t1')).toBe(3);
    });
  });
}
