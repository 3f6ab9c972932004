/**
 * Global budgets for the costly routes (issue 26, item 1): however many
 * clients send them, so many forks (replays, imports, new tables) are under
 * way at once and so many wait; the next is 503 with Retry-After at once and
 * makes nothing; each route has its own budget, so a fork flood does not
 * refuse a new table.
 */
import { describe, expect, it } from 'vitest';
import { waitFor } from '../../drivers/polling.js';
import { servicesClosedAfterEach } from '../../test/servicesPerTest.js';
import { finishedBotGame } from '../../test/kit/serviceTables.js';
import { DEFAULT_LIMITS, liftedRateLimits } from './limits.js';
import { WorkQueue } from './costlyWork.js';
import { openLocalStorage } from '../storage/storage.js';
import { TableHost } from '../host/tableHost.js';

const service = servicesClosedAfterEach();

/** A host on memory whose forks wait until `letGo` is called; `forksStarted` counts those begun. */
function hostWithHeldForks() {
  const store = openLocalStorage({ kind: 'memory' }).store;
  const host = new TableHost({ store, autopilot: { botDelayMs: 0 } });
  let letGo!: () => void;
  const held = new Promise<void>((resolve) => (letGo = resolve));
  const fork = host.forkTable.bind(host);
  let started = 0;
  host.forkTable = async (...args) => {
    started++;
    await held;
    return fork(...args);
  };
  return { store, host, letGo: () => letGo(), forksStarted: () => started };
}

describe('the budgets of costly routes', () => {
  it('take so many forks at once and so many waiting, refuse the next 503 with Retry-After and make nothing for it, and leave new tables their own budget', async () => {
    // Forks held until the test lets them go, so that six are sent while the first is under way.
    const { store, host, letGo, forksStarted } = hostWithHeldForks();
    const started = service({
      store,
      host,
      limits: { ...liftedRateLimits(), budgets: { ...DEFAULT_LIMITS.budgets, forkTable: { atOnce: 1, waiting: 2 } } },
    });
    const tableId = await finishedBotGame(started);
    const tablesBefore = (await started.store.listTables()).length;
    const sendFork = () => started.app.inject({ method: 'POST', url: `/api/tables/${tableId}/fork`, payload: { at: 10 } });
    const sent = Array.from({ length: 6 }, sendFork);
    await waitFor(async () => forksStarted() === 1, 'the first fork to be under way');
    const created = await started.app.inject({ method: 'POST', url: '/api/tables', payload: { game: 'sevenSuitors' } });
    letGo();
    const forks = await Promise.all(sent);
    expect(created.statusCode, created.body).toBe(201);
    expect(forks.map((answer) => answer.statusCode).sort()).toEqual([201, 201, 201, 503, 503, 503]);
    for (const refused of forks.filter((answer) => answer.statusCode === 503)) {
      expect(refused.headers['retry-after']).toBe('1');
      expect(refused.json()).toEqual({
        error: 'unavailable',
        message: 'the service is working on 1 forks at once with 2 waiting, the most it takes; try again in a second',
      });
    }
    // Three forks and the new table; nothing for the refused.
    expect((await started.store.listTables()).length).toBe(tablesBefore + 4);
    expect(forksStarted()).toBe(3);
    expect((await sendFork()).statusCode).toBe(201);
  });

  it('refuse a request past its budget before reading its body: a full line answers 503 even to a body that is no JSON', async () => {
    const { store, host, letGo, forksStarted } = hostWithHeldForks();
    const started = service({
      store,
      host,
      limits: { ...liftedRateLimits(), budgets: { ...DEFAULT_LIMITS.budgets, forkTable: { atOnce: 1, waiting: 0 } } },
    });
    const tableId = await finishedBotGame(started);
    const url = `/api/tables/${tableId}/fork`;
    const first = started.app.inject({ method: 'POST', url, payload: { at: 10 } });
    await waitFor(async () => forksStarted() === 1, 'the first fork to be under way');
    // A megabyte of record would be parsed before its refusal otherwise; a body that is no JSON shows it was not.
    const unread = await started.app.inject({ method: 'POST', url, headers: { 'content-type': 'application/json' }, payload: '{"at": 1' });
    expect(unread.statusCode, unread.body).toBe(503);
    letGo();
    expect((await first).statusCode).toBe(201);
    const read = await started.app.inject({ method: 'POST', url, headers: { 'content-type': 'application/json' }, payload: '{"at": 1' });
    expect(read.statusCode).toBe(400);
  });

  it('pass each place to the next in line, first come first served, and free it when the work fails', async () => {
    const queue = new WorkQueue('forks', { atOnce: 1, waiting: 2 });
    const order: string[] = [];
    let release!: () => void;
    const first = queue.run(() => new Promise<void>((resolve) => (release = resolve)).then(() => order.push('first')));
    const second = queue.run(async () => {
      order.push('second');
      throw new Error('the fork failed');
    });
    const third = queue.run(async () => order.push('third'));
    await expect(queue.run(async () => 'fourth')).rejects.toMatchObject({ kind: 'unavailable' });
    expect(queue.load).toEqual({ underWay: 1, waiting: 2 });
    release();
    await first;
    await expect(second).rejects.toThrow('the fork failed');
    await third;
    expect(order).toEqual(['first', 'second', 'third']);
    expect(queue.load).toEqual({ underWay: 0, waiting: 0 });
    expect(await queue.run(async () => 'again')).toBe('again');
  });
});
