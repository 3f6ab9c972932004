/**
 * Tables of bots alone play themselves at bot pace with nobody at them, so
 * those in play are capped per client (429) and in all (503), whether made
 * with a bot at every seat or forked with nobody taking a seat (issue 26: a
 * cost many addresses could otherwise multiply).
 */
import { describe, expect, it } from 'vitest';
import { createMemoryEventStore } from '../eventstore/memoryEventStore.js';
import { waitFor } from '../../drivers/polling.js';
import type { TestService } from '../../drivers/embeddedService.js';
import { servicesClosedAfterEach } from '../../test/servicesPerTest.js';
import { finishedBotGame } from '../../test/kit/serviceTables.js';

const service = servicesClosedAfterEach();
const MANY = { perSecond: 1000, burst: 1000 };
const ALL_BOTS = { game: 'sevenSuitors', options: { end: 'hands:1' }, bots: [0, 1, 2, 3] };

function post(started: TestService, url: string, payload: object, remoteAddress: string) {
  return started.app.inject({ method: 'POST', url, payload, remoteAddress });
}

describe('tables of bots alone in play', () => {
  it('are capped per client (429) and in all (503), forks nobody sits at included; a table with a person is not', async () => {
    const store = createMemoryEventStore();
    const finished = await finishedBotGame(service({ store }), { remoteAddress: '10.9.9.9' });
    // Bots that take an hour a move: every table this gateway makes stays in play for the test.
    const slow = service({
      store,
      botDelayMs: 3_600_000,
      limits: { botTablesPerClient: 2, botTablesInAll: 3, routes: { createTable: MANY, forkTable: MANY } },
    });
    const first = await post(slow, '/api/tables', ALL_BOTS, '10.0.0.1');
    expect(first.statusCode, first.body).toBe(201);
    const forked = await post(slow, `/api/tables/${finished}/fork`, { at: 5 }, '10.0.0.1');
    expect(forked.statusCode, forked.body).toBe(201);
    const third = await post(slow, '/api/tables', ALL_BOTS, '10.0.0.1');
    expect(third.statusCode).toBe(429);
    expect(third.json()).toEqual({
      error: 'rateLimited',
      message: '10.0.0.1 has 2 tables of bots alone in play, the most one client may; watch one, or wait until one of them ends',
    });
    expect((await post(slow, `/api/tables/${finished}/fork`, { at: 5 }, '10.0.0.1')).statusCode).toBe(429);
    // The caller takes a seat at the fork: a person is at it, so it is not a table of bots alone.
    expect((await post(slow, `/api/tables/${finished}/fork`, { at: 5, seat: 0, name: 'Ada' }, '10.0.0.1')).statusCode).toBe(201);

    const another = await post(slow, '/api/tables', ALL_BOTS, '10.0.0.2');
    expect(another.statusCode).toBe(201);
    const full = await post(slow, '/api/tables', ALL_BOTS, '10.0.0.3');
    expect(full.statusCode).toBe(503);
    expect(full.headers['retry-after']).toBe('1');
    const watch = [first.json().tableId, forked.json().tableId, another.json().tableId].map((tableId) => `table ${tableId}`);
    expect(full.json()).toEqual({
      error: 'unavailable',
      message: `the service has 3 tables of bots alone in play, the most it runs at once; watch ${watch.join(', ')}, or try again later`,
    });
    // A table with a seat left for people counts against the seating cap, not this one.
    expect((await post(slow, '/api/tables', { game: 'sevenSuitors' }, '10.0.0.3')).statusCode).toBe(201);
  });

  it('frees a place once the table is over', async () => {
    const started = service({ limits: { botTablesPerClient: 1, routes: { createTable: MANY } } });
    const first = await post(started, '/api/tables', ALL_BOTS, '10.0.0.1');
    expect(first.statusCode, first.body).toBe(201);
    const { tableId } = first.json();
    await waitFor(
      async () => (await started.host.snapshot(tableId)).snapshot.context.outcome?.finished === true,
      `table ${tableId} to finish`,
    );
    // Once the lobby's listing (at most a second old) shows it finished.
    await waitFor(async () => (await post(started, '/api/tables', ALL_BOTS, '10.0.0.1')).statusCode === 201, 'a second table of bots');
  });
});
