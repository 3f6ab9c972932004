/**
 * The fleet overlay folded by the runner equals the same counts taken
 * straight from the logs, with tables of every game seated, in play and
 * finished; and it is kept up to date as the tables move on.
 */
import { describe, expect, it, vi } from 'vitest';
import { createMemoryEventStore } from '../../eventstore/memoryEventStore.js';
import { TableHost } from '../../host/tableHost.js';
import { startProjection } from '../runner.js';
import { fleetOverlay } from './fleetOverlay.js';
import { fleetReport, type FleetReport } from './fleetReport.js';
import { countDirectly, playMoves, seatFleet, tickingClock, type DirectCounts } from './fixtures/fleetInPlay.js';

function expectReportMatches(report: FleetReport, direct: DirectCounts): void {
  const groups = Object.keys(direct.tables).sort();
  expect(report.games.map((game) => `${game.game}@${game.rules}`).sort()).toEqual(groups);
  for (const game of report.games) {
    const group = `${game.game}@${game.rules}`;
    expect({ live: game.tables, finished: game.finished }).toEqual(direct.tables[group]);
    expect(Object.fromEntries(game.states.map(({ state, tables }) => [state, tables]))).toEqual(direct.states[group] ?? {});
    // Every accepted machine event is one transition taken (no game has parallel states).
    expect(game.transitions.reduce((sum, { count }) => sum + count, 0)).toBe(direct.machineEvents[group] ?? 0);
    expect(game.quarantined).toBe(0);
  }
}

describe('the fleet overlay', () => {
  it("counts each game's live tables per state, its transitions and dwell times as a direct fold of the logs does", async () => {
    const store = createMemoryEventStore();
    const host = new TableHost({ store, now: tickingClock() });
    const tableIds = await seatFleet(host);
    const runner = startProjection({ source: store, projection: fleetOverlay });
    await runner.caughtUp;
    const report = fleetReport(runner.state(), { asOf: '2026-01-01T00:00:00.000Z', lag: runner.lag() });
    expectReportMatches(report, await countDirectly(store));
    expect(report.games.map((game) => game.game).sort()).toEqual(['antiCupid', 'firstLesson', 'sevenSuitors', 'traitorOfLove']);
    const sevenSuitors = report.games.find((game) => game.game === 'sevenSuitors')!;
    expect(sevenSuitors).toMatchObject({ tables: 3, finished: 1 });
    expect(sevenSuitors.states.find(({ state }) => state === 'sevenSuitors.seating')?.tables).toBe(1);
    // The host's clock moves a second a call; states passed through within one append (a deal) are stayed in 0 ms.
    const waitedFor = sevenSuitors.dwell.find(({ state }) => state === 'sevenSuitors.trickPlay');
    expect(waitedFor?.medianMs).toBeGreaterThanOrEqual(1000);
    for (const { medianMs, p90Ms, visits } of sevenSuitors.dwell) {
      expect(visits).toBeGreaterThan(0);
      expect(p90Ms).toBeGreaterThanOrEqual(medianMs);
    }

    // Moves made after the catch-up are folded as they are appended.
    for (const tableId of tableIds.slice(1, 3)) await playMoves(host, tableId, 5, `more-${tableId}`);
    const direct = await countDirectly(store);
    await vi.waitFor(() => expect(runner.lag()).toBe(0));
    expectReportMatches(fleetReport(runner.state(), { asOf: '2026-01-01T00:00:00.000Z', lag: 0 }), direct);
    await runner.stop();
    await host.close();
  });

  it('counts a table whose log holds an event the machine refuses as quarantined, in the state it stopped in', async () => {
    const store = createMemoryEventStore();
    const host = new TableHost({ store, now: tickingClock() });
    const { tableId } = await host.createTable({ game: 'sevenSuitors', players: [{ name: 'Ada', bot: false }, null, null, null] });
    await host.close();
    // Behind the host's back (a bug, or a forged append): a card played at a table still seating.
    await store.append(tableId, [{ type: 'card.played', at: '2026-01-01T00:01:00.000Z', data: { seat: 0, card: '3-9' } }], 2);
    const runner = startProjection({ source: store, projection: fleetOverlay });
    await runner.caughtUp;
    const [game] = fleetReport(runner.state(), { asOf: '2026-01-01T00:02:00.000Z', lag: 0 }).games;
    expect(game).toMatchObject({ game: 'sevenSuitors', tables: 1, quarantined: 1 });
    expect(game.states.find(({ state }) => state === 'sevenSuitors.seating')?.tables).toBe(1);
    expect(game.transitions.filter(({ event }) => event === 'card.played')).toEqual([]);
    await runner.stop();
  });
});
