/**
 * The daily storage budget (issue 26): one client's new tables, forks and
 * imports add so many events a UTC day, then 429 naming the budget and when
 * it resets, with nothing written; other clients keep theirs, and the next
 * day the client has its budget again.
 */
import { describe, expect, it } from 'vitest';
import { waitFor } from '../../drivers/polling.js';
import { bearer, httpBaseOf, listen, type TestService } from '../../drivers/embeddedService.js';
import { playSeat, type SeatPlay } from '../../test/seatPlayer.js';
import { servicesClosedAfterEach } from '../../test/servicesPerTest.js';
import { finishedBotGame } from '../../test/kit/serviceTables.js';
import { newToken } from '../tokens/seatTokens.js';
import { liftedRateLimits } from './limits.js';

const service = servicesClosedAfterEach();

/** 2026-12-02, 20:00 UTC: four hours before the budget resets. */
const EVENING = Date.UTC(2026, 11, 2, 20, 0, 0);
const FOUR_HOURS = 4 * 60 * 60;

function startWithBudget(eventsPerDay: number) {
  let now = EVENING;
  const started = service({ limits: { ...liftedRateLimits(), storageEventsPerDay: eventsPerDay }, storageBudgetNow: () => now });
  return { started, passHours: (hours: number) => (now += hours * 60 * 60 * 1000) };
}

function createTable(started: TestService, client: string) {
  return started.app.inject({ method: 'POST', url: '/api/tables', remoteAddress: client, payload: { game: 'sevenSuitors' } });
}

describe('the daily storage budget', () => {
  it('lets a client create tables up to its events of the day, then refuses 429 until 00:00 UTC and writes nothing', async () => {
    const { started, passHours } = startWithBudget(3);
    const versions: number[] = [];
    for (;;) {
      const created = await createTable(started, '10.0.0.1');
      if (created.statusCode !== 201) {
        expect(created.statusCode, created.body).toBe(429);
        expect(created.json()).toMatchObject({ error: 'rateLimited' });
        expect(created.json().message).toContain('daily storage budget of 3 events');
        expect(created.json().message).toContain('resets at 00:00 UTC');
        expect(created.headers['retry-after']).toBe(String(FOUR_HOURS));
        break;
      }
      versions.push(created.json().version);
      expect(versions.length, 'tables made before the budget refused one').toBeLessThanOrEqual(3);
    }
    const added = versions.reduce((sum, version) => sum + version, 0);
    expect(added).toBeGreaterThanOrEqual(3);
    expect(added - (versions.at(-1) ?? 0), 'the events before the last table, which crossed the budget').toBeLessThan(3);
    const tables = (await started.store.listTables()).length;
    expect((await createTable(started, '10.0.0.1')).statusCode).toBe(429);
    expect((await started.store.listTables()).length, 'a refused table is not written').toBe(tables);
    expect((await createTable(started, '10.0.0.2')).statusCode, 'another client keeps its own budget').toBe(201);
    passHours(3);
    expect((await createTable(started, '10.0.0.1')).statusCode, 'an hour before midnight').toBe(429);
    passHours(1);
    expect((await createTable(started, '10.0.0.1')).statusCode, 'the next UTC day').toBe(201);
  });

  it('counts the events a fork and an import write, and refuses the next once they are spent', async () => {
    const { started } = startWithBudget(5);
    const tableId = await finishedBotGame(started, { remoteAddress: '10.0.0.9' });
    const fork = () =>
      started.app.inject({ method: 'POST', url: `/api/tables/${tableId}/fork`, remoteAddress: '10.0.0.3', payload: { at: 10 } });
    const forked = await fork();
    expect(forked.statusCode, forked.body).toBe(201);
    expect(forked.json().version).toBeGreaterThan(5);
    const refused = await fork();
    expect(refused.statusCode, refused.body).toBe(429);
    expect(refused.json().message).toContain(`has added ${forked.json().version} events to the store today`);

    const record = (await started.app.inject({ method: 'GET', url: `/api/tables/${tableId}/record` })).json();
    const importRecord = () => started.app.inject({ method: 'POST', url: '/api/records', remoteAddress: '10.0.0.4', payload: record });
    const imported = await importRecord();
    expect(imported.statusCode, imported.body).toBe(201);
    const tables = (await started.store.listTables()).length;
    const refusedImport = await importRecord();
    expect(refusedImport.statusCode, refusedImport.body).toBe(429);
    expect((await started.store.listTables()).length).toBe(tables);
  });

  it("charges a rematch's new table to its proposer's budget: once it is spent, the proposal is 429 and makes no table", async () => {
    const { started } = startWithBudget(1);
    const base = httpBaseOf(await listen(started.app));
    const created = await started.app.inject({
      method: 'POST',
      url: '/api/tables',
      payload: { game: 'sevenSuitors', options: { end: 'hands:1' }, bots: [1, 2, 3] },
    });
    expect(created.statusCode, created.body).toBe(201);
    const { tableId } = created.json();
    const joined = await started.app.inject({ method: 'POST', url: `/api/tables/${tableId}/seats/0`, payload: { name: 'Ada' } });
    const { token } = joined.json();
    let over = false;
    const play: SeatPlay = { acknowledged: [], refused: [] };
    const playing = playSeat(base, { tableId, seat: 0, token }, play, () => over);
    await waitFor(async () => (await started.host.snapshot(tableId)).snapshot.context.outcome?.finished === true, 'the game to end');
    over = true;
    await playing;
    const tables = (await started.store.listTables()).length;

    const proposed = await started.app.inject({
      method: 'POST',
      url: `/api/tables/${tableId}/rematch`,
      headers: bearer(token),
      payload: { token: newToken() },
    });
    expect(proposed.statusCode, proposed.body).toBe(429);
    expect(proposed.json().message).toMatch(
      /^this client has added \d+ events to the store today, which uses up its daily storage budget of 1 events/,
    );
    expect(proposed.headers['retry-after']).toBe(String(FOUR_HOURS));
    expect((await started.store.listTables()).length, 'no rematch table is written').toBe(tables);
  });
});
