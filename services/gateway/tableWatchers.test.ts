import { describe, expect, it } from 'vitest';
import { createMemoryEventStore } from '../eventstore/memoryEventStore.js';
import { TableHost } from '../host/tableHost.js';
import { SEAT_CHANGED_HANDS } from './socketProtocol.js';
import type { TableChange } from './tableFeed.js';
import { TableWatchers, type Watcher } from './tableWatchers.js';

const ANN = 'a'.repeat(64);
const CY = 'c'.repeat(64);

describe('a seat’s socket', () => {
  it('is sent its seat’s view only while its token holds the seat; once the seat changed hands it is closed, and sent nothing', async () => {
    const host = new TableHost({ store: createMemoryEventStore() });
    const bots = [1, 2, 3].map((seat) => ({ name: `Bot ${seat}`, bot: true }));
    const { tableId } = await host.createTable({ game: 'sevenSuitors', players: [null, ...bots] });
    await host.submit(tableId, { type: 'seat.joined', seat: 0, player: { name: 'Ann', bot: false }, holder: ANN });
    const changeNow = async (): Promise<TableChange> => {
      const { version, snapshot } = await host.snapshot(tableId);
      return { tableId, version, snapshot, turnDeadline: null } as unknown as TableChange;
    };
    const sent: string[] = [];
    const closed: number[] = [];
    const socket = (holder: string): Watcher => ({ viewer: 0, holder, lastVersion: 0, send: (text) => sent.push(text), close: (code) => closed.push(code) });
    const watchers = new TableWatchers();
    const anns = socket(ANN);
    watchers.watch(tableId, anns);
    watchers.publish(await changeNow());
    expect([sent.length, closed]).toEqual([1, []]);

    // Ann leaves and Cy sits down before Ann's socket hears of it (no dismissSeat reached it).
    await host.submit(tableId, { type: 'seat.left', seat: 0 }, ANN);
    await host.submit(tableId, { type: 'seat.joined', seat: 0, player: { name: 'Cy', bot: false }, holder: CY });
    watchers.watch(tableId, socket(CY));
    sent.length = 0;
    watchers.publish(await changeNow());
    expect(closed).toEqual([SEAT_CHANGED_HANDS]);
    expect(sent).toHaveLength(1);
    expect(JSON.parse(sent[0]).view.seats[0].occupant.name).toBe('Cy');
    await host.close();
  });
});
