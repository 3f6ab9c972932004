/**
 * GET /api/fleet with tables of every game seated, in play and finished: its
 * counts equal a direct fold of the logs, its state ids are the diagrams',
 * it shows no card, and it follows the tables as they move on. With a
 * range, the games that ended in it; a range that is not two UTC hours in
 * order, close enough, is refused with what would be right.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { GameName } from '../../machines/table/options.js';
import { startService, type TestService } from '../../drivers/embeddedService.js';
import { createMemoryEventStore } from '../eventstore/memoryEventStore.js';
import { modelOfGame } from '../diagram/files.js';
import { TableHost } from '../host/tableHost.js';
import { countDirectly, playMoves, seatFleet, tickingClock } from '../projections/fleet/fixtures/fleetInPlay.js';
import type { FinishedFleetReport, FleetReport } from '../projections/fleet/fleetReport.js';

const services: TestService[] = [];
afterEach(async () => {
  await Promise.all(services.splice(0).map((service) => service.close()));
});

async function fleetOf(service: TestService): Promise<FleetReport> {
  const reply = await service.app.inject({ method: 'GET', url: '/api/fleet' });
  expect(reply.statusCode).toBe(200);
  return reply.json() as FleetReport;
}

function liveCounts(report: FleetReport) {
  return Object.fromEntries(
    report.games.map((game) => [`${game.game}@${game.rules}`, Object.fromEntries(game.states.map(({ state, tables }) => [state, tables]))]),
  );
}

describe('GET /api/fleet', () => {
  it("counts every game's tables per state as a direct fold of the logs does, in the diagrams' state ids, and no card", async () => {
    const store = createMemoryEventStore();
    const host = new TableHost({ store, now: tickingClock() });
    const service = startService({ store, host });
    services.push(service);
    const tableIds = await seatFleet(host);

    const report = await fleetOf(service);
    const direct = await countDirectly(store);
    expect(liveCounts(report)).toEqual(direct.states);
    expect(report.lag).toBe(0);
    expect(Number.isNaN(Date.parse(report.asOf))).toBe(false);
    for (const game of report.games) {
      expect({ live: game.tables, finished: game.finished }).toEqual(direct.tables[`${game.game}@${game.rules}`]);
      const ids = new Set(modelOfGame(game.game as GameName).states.map((state) => state.id));
      for (const { state } of [...game.states, ...game.dwell]) expect(ids).toContain(state);
      for (const { source, target } of game.transitions) expect([ids.has(source), ids.has(target)]).toEqual([true, true]);
    }
    // Counts only: no hand, card or seat token reaches it.
    const body = JSON.stringify(report);
    expect(body).not.toMatch(/"(deal|hand|hands|cards|card|token|holder)"/);
    expect(body).not.toMatch(/\b\d-[0-9a-z]{1,3}\b/);

    for (const tableId of tableIds.slice(1, 4)) await playMoves(host, tableId, 4, `again-${tableId}`);
    const later = await countDirectly(store);
    await vi.waitFor(async () => expect(liveCounts(await fleetOf(service))).toEqual(later.states));
  });

  it('draws the overlay on .svg and .dot only, and refuses another value of fleet, changing nothing', async () => {
    const service = startService();
    services.push(service);
    await service.host.createTable({ game: 'antiCupid', players: [{ name: 'Ada', bot: false }, null, null, null] });
    const dot = await service.app.inject({ method: 'GET', url: '/machines/antiCupid.dot?fleet=1' });
    expect(dot.statusCode).toBe(200);
    expect(dot.body).toContain('1 table');
    const plain = await service.app.inject({ method: 'GET', url: '/machines/antiCupid.dot' });
    expect(plain.body).not.toContain('1 table');
    const json = await service.app.inject({ method: 'GET', url: '/machines/antiCupid.json?fleet=1' });
    expect(json.statusCode).toBe(400);
    expect(json.json()).toMatchObject({ error: 'badRequest', message: expect.stringContaining('/machines/antiCupid.svg') });
    const two = await service.app.inject({ method: 'GET', url: '/machines/antiCupid.svg?fleet=2' });
    expect(two.statusCode).toBe(400);
  });

  it('draws a range of finished games on the diagram: their transitions, no live table, and refuses a range without fleet=1', async () => {
    const store = createMemoryEventStore();
    const host = new TableHost({ store, now: tickingClock() });
    const service = startService({ store, host });
    services.push(service);
    await seatFleet(host);
    const range = 'from=2026-01-01T00:00:00Z&to=2026-01-02T00:00:00Z';
    const live = await service.app.inject({ method: 'GET', url: '/machines/sevenSuitors.dot?fleet=1' });
    const ended = await service.app.inject({ method: 'GET', url: `/machines/sevenSuitors.dot?fleet=1&${range}` });
    expect(ended.statusCode, ended.body).toBe(200);
    expect(live.body).toMatch(/\d+ tables?</);
    expect(ended.body).not.toMatch(/\d+ tables?</);
    const finished = (await service.app.inject({ method: 'GET', url: `/api/fleet?${range}` })).json() as FinishedFleetReport;
    const played = finished.games.find((game) => game.game === 'sevenSuitors')!.transitions.filter((t) => t.event === 'card.played');
    const times = played.reduce((sum, transition) => sum + transition.count, 0);
    expect(times).toBeGreaterThan(0);
    // The finished games' plays, each drawn as taken that often.
    const drawnTimes = [...ended.body.matchAll(/card\.played[^"]*\(taken (\d+) times?\)/g)].reduce((sum, [, n]) => sum + Number(n), 0);
    expect(drawnTimes).toBe(times);
    const none = await service.app.inject({
      method: 'GET',
      url: '/machines/sevenSuitors.dot?fleet=1&from=2026-01-02T00:00:00Z&to=2026-01-03T00:00:00Z',
    });
    expect(none.body).not.toContain('(taken');
    const plain = await service.app.inject({ method: 'GET', url: `/machines/sevenSuitors.svg?${range}` });
    expect(plain.statusCode).toBe(400);
    expect(plain.json()).toMatchObject({ error: 'badRequest', message: expect.stringContaining('?fleet=1&from=') });
    const backwards = await service.app.inject({
      method: 'GET',
      url: '/machines/sevenSuitors.svg?fleet=1&from=2026-01-02T00:00:00Z&to=2026-01-01T00:00:00Z',
    });
    expect(backwards.statusCode).toBe(400);
  });

  it('answers a range of finished games, and refuses a range spelt otherwise, out of order, too long or before the hours kept', async () => {
    const store = createMemoryEventStore();
    const host = new TableHost({ store, now: tickingClock() });
    const service = startService({ store, host });
    services.push(service);
    await seatFleet(host);
    const direct = await countDirectly(store);
    const reply = await service.app.inject({ method: 'GET', url: '/api/fleet?from=2026-01-01T00:00:00Z&to=2026-01-02T00:00:00Z' });
    expect(reply.statusCode).toBe(200);
    const finished = reply.json() as FinishedFleetReport;
    expect(finished).toMatchObject({ from: '2026-01-01T00:00:00Z', to: '2026-01-02T00:00:00Z', lag: 0 });
    const live = await fleetOf(service);
    for (const game of finished.games) {
      const group = `${game.game}@${game.rules}`;
      expect(game.finished).toBe(direct.tables[group].finished);
      // Each finished game took its transitions once; the live overlay counts them too, with the live tables' own.
      const taken = live.games.find((entry) => `${entry.game}@${entry.rules}` === group)!.transitions;
      for (const { source, target, event, count } of game.transitions) {
        const all = taken.find((entry) => entry.source === source && entry.target === target && entry.event === event);
        expect(all?.count).toBeGreaterThanOrEqual(count);
      }
    }
    expect(finished.games.map((game) => game.game).sort()).toEqual(['antiCupid', 'firstLesson', 'sevenSuitors', 'traitorOfLove']);
    expect(JSON.stringify(finished)).not.toMatch(/\b\d-[0-9a-z]{1,3}\b/);
    const none = await service.app.inject({ method: 'GET', url: '/api/fleet?from=2026-01-02T00:00:00Z&to=2026-01-03T00:00:00Z' });
    expect(none.json()).toMatchObject({ games: [] });

    const refusals: [string, string][] = [
      ['from=2026-01-01T00:00:00Z', 'query.from and query.to come together'],
      ['to=2026-01-01T00:00:00Z', 'query.from and query.to come together'],
      ['from=2026-01-01&to=2026-01-02T00:00:00Z', 'query.from must be a UTC hour written as 2026-12-01T13:00:00Z'],
      ['from=2026-01-01T00:30:00Z&to=2026-01-02T00:00:00Z', 'not "2026-01-01T00:30:00Z"'],
      ['from=2026-01-01T00:00:00%2B01:00&to=2026-01-02T00:00:00Z', 'query.from must be a UTC hour'],
      ['from=2026-01-01T00:00:00.000Z&to=2026-01-02T00:00:00Z', 'query.from must be a UTC hour'],
      ['from=2026-02-30T00:00:00Z&to=2026-03-05T00:00:00Z', 'not "2026-02-30T00:00:00Z"'],
      ['from=2026-01-02T00:00:00Z&to=2026-01-01T00:00:00Z', 'query.to (2026-01-01T00:00:00Z) must be after query.from'],
      ['from=2026-01-01T00:00:00Z&to=2026-01-01T00:00:00Z', 'must be after query.from'],
      [
        'from=2026-01-01T00:00:00Z&to=2026-02-01T01:00:00Z',
        'a range spans at most 744 hours (31 days); 2026-01-01T00:00:00Z to 2026-02-01T01:00:00Z spans 745',
      ],
      ['from=2025-11-01T00:00:00Z&to=2025-11-02T00:00:00Z', 'for 31 days up to the last one that ended: from may be 2025-12-01T'],
      ['from=2026-01-01T00:00:00Z&to=2026-01-02T00:00:00Z&game=antiCupid', 'unknown field'],
      ['from=2026-01-01T00:00:00Z&from=2026-01-01T01:00:00Z&to=2026-01-02T00:00:00Z', 'query.from'],
    ];
    for (const [query, message] of refusals) {
      const refused = await service.app.inject({ method: 'GET', url: `/api/fleet?${query}` });
      expect([query, refused.statusCode]).toEqual([query, 400]);
      expect(refused.json()).toMatchObject({ error: 'badRequest', message: expect.stringContaining(message) });
    }
  });
});
