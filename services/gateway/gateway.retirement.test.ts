/**
 * A retired game (host/retirement.ts) through the gateway: its record is
 * still exported at its address, the same record as before, and imports
 * again; its log, view, replay and fork are 410 `gone` saying what it
 * keeps; it leaves the lobby. A game in play, and one over for less than
 * the retention, are kept whole.
 */
import { describe, expect, it } from 'vitest';
import type { TestService } from '../../drivers/embeddedService.js';
import { servicesClosedAfterEach } from '../../test/servicesPerTest.js';
import { createdTable, finishedBotGame } from '../../test/kit/serviceTables.js';
import { retireFinishedGames } from '../host/retirement.js';

const service = servicesClosedAfterEach();
const DAY_MS = 24 * 60 * 60 * 1000;

async function finishedGame(started: TestService): Promise<{ tableId: string; endedAt: number }> {
  const tableId = await finishedBotGame(started);
  const [summary] = (await started.store.listTables()).filter((table) => table.tableId === tableId);
  return { tableId, endedAt: Date.parse(summary.lastEventAt) };
}

describe('a retired game', () => {
  it('keeps its record at its address, refuses what needs its log with 410, and leaves the lobby', async () => {
    const started = service();
    const { app, store } = started;
    const { tableId, endedAt } = await finishedGame(started);
    const waiting = await createdTable(started, { game: 'sevenSuitors', bots: [1, 2, 3] });
    const recordBefore = (await app.inject({ method: 'GET', url: `/api/tables/${tableId}/record` })).json();

    const run = await retireFinishedGames(store, { olderThanDays: 7, now: new Date(endedAt + 7 * DAY_MS) });
    expect(run).toEqual({ found: 1, retired: 1, kept: 0, left: 0 });
    expect(await store.read(tableId)).toEqual([]);

    const record = await app.inject({ method: 'GET', url: `/api/tables/${tableId}/record` });
    expect(record.statusCode, record.body).toBe(200);
    expect(record.json()).toEqual(recordBefore);
    const imported = await app.inject({ method: 'POST', url: '/api/records', payload: record.json() });
    expect(imported.statusCode, imported.body).toBe(201);

    for (const [method, url] of [
      ['GET', `/api/tables/${tableId}/log`],
      ['GET', `/api/tables/${tableId}/view`],
      ['GET', `/api/tables/${tableId}/replay?at=3`],
      ['POST', `/api/tables/${tableId}/fork`],
    ] as const) {
      const response = await app.inject({ method, url, ...(method === 'POST' ? { payload: { at: 3, seat: 0, name: 'Ada' } } : {}) });
      expect(response.statusCode, `${method} ${url}: ${response.body}`).toBe(410);
      expect(response.json()).toEqual({
        error: 'gone',
        message: expect.stringMatching(
          new RegExp(
            `^table ${tableId} was retired at .+, after its game ended at .+: its log and snapshots are deleted, so it can no longer be viewed, replayed or forked; its game record is kept at GET /api/tables/${tableId}/record$`,
          ),
        ),
      });
    }
    const listed = (await store.listTables()).map((table) => table.tableId);
    expect(listed).not.toContain(tableId);
    expect(listed).toContain(waiting);
    expect((await app.inject({ method: 'GET', url: `/api/tables/${waiting}/view` })).statusCode).toBe(200);
  });

  it('is not made of a game over for less than the retention, nor of one not over; a dry run retires nothing', async () => {
    const started = service();
    const { store } = started;
    const { tableId, endedAt } = await finishedGame(started);
    await createdTable(started, { game: 'sevenSuitors', bots: [1, 2, 3] });
    const seen: string[] = [];
    const onTable = ({ tableId: id, outcome }: { tableId: string; outcome: string }) => seen.push(`${outcome} ${id}`);

    const early = await retireFinishedGames(store, { olderThanDays: 7, now: new Date(endedAt + 7 * DAY_MS - 1), onTable });
    expect(early).toEqual({ found: 0, retired: 0, kept: 0, left: 0 });
    const dry = await retireFinishedGames(store, { olderThanDays: 7, now: new Date(endedAt + 8 * DAY_MS), dryRun: true, onTable });
    expect(dry).toEqual({ found: 1, retired: 0, kept: 0, left: 0 });
    expect(seen).toEqual([`wouldRetire ${tableId}`]);
    expect((await store.read(tableId)).length).toBeGreaterThan(0);
    await expect(retireFinishedGames(store, { olderThanDays: 0, now: new Date() })).rejects.toThrow(
      'finished games are retired after a whole number of days, at least 1, not 0',
    );
  });

  it('takes at most `limit` tables a run, the longest over first, and leaves the rest to the next run', async () => {
    const started = service();
    const { store } = started;
    const first = await finishedGame(started);
    const second = await finishedGame(started);
    const now = new Date(second.endedAt + 2 * DAY_MS);
    expect(await retireFinishedGames(store, { olderThanDays: 1, now, limit: 1 })).toEqual({ found: 2, retired: 1, kept: 0, left: 1 });
    expect(await store.retired(first.tableId)).not.toBeNull();
    expect(await store.retired(second.tableId)).toBeNull();
    expect(await retireFinishedGames(store, { olderThanDays: 1, now, limit: 1 })).toEqual({ found: 1, retired: 1, kept: 0, left: 0 });
  });
});
