import { describe, expect, it } from 'vitest';
import type { StoredEvent } from '../eventstore/eventStore.js';
import { TableFactsCache } from './tableFacts.js';

const at = (second: number) => `2026-01-01T00:00:${String(second).padStart(2, '0')}.000Z`;

/** A table's log: created with a 30 s turn clock, four people seated. */
function startingLog(): StoredEvent[] {
  return [
    { seq: 1, type: 'table.created', at: at(1), data: { game: 'sevenSuitors', settings: { turnSeconds: 30 } } },
    ...[0, 1, 2, 3].map((seat) => ({
      seq: seat + 2,
      type: 'seat.joined',
      at: at(seat + 2),
      data: { seat, player: { name: `P${seat}`, bot: false } },
    })),
  ];
}

/** A cache over `log`, counting its reads. */
function cacheOver(log: StoredEvent[]) {
  const reads: number[] = [];
  const cache = new TableFactsCache(async (_tableId, afterVersion) => {
    reads.push(afterVersion);
    return log.filter((event) => event.seq > afterVersion);
  });
  return { cache, reads };
}

describe('a table facts cache', () => {
  it('folds in the events of an accepted command without reading the log, and reads what it did not see', async () => {
    const log = startingLog();
    const { cache, reads } = cacheOver(log);
    expect((await cache.of('t1', 5)).settings.turnSeconds).toBe(30);
    expect(reads).toEqual([0]);

    // Seat 2 leaves and a bot takes the seat: the bot stands in for a person, learnt from the acknowledgement alone.
    const accepted: StoredEvent[] = [
      { seq: 6, type: 'seat.left', at: at(6), data: { seat: 2 } },
      { seq: 7, type: 'seat.joined', at: at(7), data: { seat: 2, player: { name: 'Bot', bot: true } } },
    ];
    log.push(...accepted);
    cache.learn('t1', accepted);
    const learnt = await cache.of('t1', 7);
    expect(reads).toEqual([0]);
    expect(learnt).toMatchObject({ version: 7, lastEventAt: at(7) });
    expect([...learnt.standIns]).toEqual([2]);

    // A move the gateway did not make (a bot's), then one it did: the gap is read from the log, not skipped.
    const botMove: StoredEvent = { seq: 8, type: 'card.played', at: at(8), data: { seat: 2, card: '4-9' } };
    const playerMove: StoredEvent = { seq: 9, type: 'seat.left', at: at(9), data: { seat: 1 } };
    log.push(botMove, playerMove);
    cache.learn('t1', [playerMove]);
    const read = await cache.of('t1', 9);
    expect(reads).toEqual([0, 7]);
    expect(read).toMatchObject({ version: 9, lastEventAt: at(9) });
  });

  it('reads the log for a table it does not keep, whatever it was told', async () => {
    const log = startingLog();
    const { cache, reads } = cacheOver(log);
    cache.learn('t1', [{ seq: 6, type: 'seat.left', at: at(6), data: { seat: 0 } }]);
    expect(await cache.of('t1', 5)).toMatchObject({ version: 5, lastEventAt: at(5) });
    expect(reads).toEqual([0]);
  });

  it('keeps a new table from its whole log as appended, from table.created, without reading it back', async () => {
    const log = startingLog();
    const { cache, reads } = cacheOver(log);
    cache.learn('t1', log);
    expect(await cache.of('t1', 5)).toMatchObject({ version: 5, lastEventAt: at(5), settings: { turnSeconds: 30 } });
    expect(reads).toEqual([]);
  });
});
