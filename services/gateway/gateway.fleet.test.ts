/**
 * GET /api/fleet with tables of every game seated, in play and finished: its
 * counts equal a direct fold of the logs, its state ids are the diagrams',
 * it shows no card, and it follows the tables as they move on.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { GameName } from '../../machines/table/options.js';
import { startService, type TestService } from '../../drivers/embeddedService.js';
import { createMemoryEventStore } from '../eventstore/memoryEventStore.js';
import { modelOfGame } from '../diagram/files.js';
import { TableHost } from '../host/tableHost.js';
import { countDirectly, playMoves, seatFleet, tickingClock } from '../projections/fleet/fixtures/fleetInPlay.js';
import type { FleetReport } from '../projections/fleet/fleetReport.js';

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
});
