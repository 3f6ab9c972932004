/**
 * A flood of table creations from many addresses is mostly refused by the
 * client's or the network's share of the waiting tables (issue 26): each
 * refusal must cost a look at that client's and network's own tables, not a
 * listing of the store nor a scan of every table.
 */
import { describe, expect, it } from 'vitest';
import { newTable } from '../../test/kit/table.js';
import { resolveLimits } from './limits.js';
import { Lobby } from './lobby.js';
import type { TableChange } from './tableFeed.js';
import type { TableFacts } from './tableFacts.js';

describe('the shares of the tables waiting for players', () => {
  it('refuse a client, or a network, past its share without listing the store', async () => {
    let clock = Date.parse('2026-01-01T00:00:00Z');
    let listings = 0;
    const lobby = new Lobby({
      list: async () => {
        listings++;
        return [];
      },
      current: async () => {
        throw new Error('no table is looked up here');
      },
      limits: resolveLimits({ seatingTablesPerClient: 2, seatingTablesPerNetwork: 3 }),
      now: () => clock,
    });
    const seating = newTable('sevenSuitors').getSnapshot();
    let made = 0;
    const make = async (client: string) => {
      const done = await lobby.reserveSeatingTable(client);
      const tableId = `t-${made++}`;
      const change: TableChange = {
        tableId,
        version: 1,
        snapshot: seating,
        facts: { lastEventAt: new Date(clock).toISOString() } as TableFacts,
        turnDeadline: null,
      };
      lobby.tableChanged(change);
      done(tableId);
    };
    for (const client of ['10.0.0.1', '10.0.0.1', '10.0.0.2']) await make(client);
    // The listing is stale from here on: a request that needed it would list the store again.
    clock += 5_000;
    listings = 0;
    for (let attempt = 0; attempt < 50; attempt++) {
      await expect(lobby.reserveSeatingTable('10.0.0.1')).rejects.toMatchObject({ kind: 'rateLimited' });
      await expect(lobby.reserveSeatingTable(`10.0.0.${10 + attempt}`)).rejects.toMatchObject({ kind: 'rateLimited' });
    }
    expect(listings).toBe(0);
    // Another network's creation lists it, once.
    await make('10.0.1.1');
    expect(listings).toBe(1);
  });
});
