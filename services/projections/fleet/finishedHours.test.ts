/**
 * The fleet overlay over a time range of finished games: the transitions
 * and stays of the games that ended in the range equal those of each such
 * game folded alone, summed (and every accepted machine event of theirs is
 * one transition); a range holds only the games that ended in it; hours
 * older than those kept are dropped, and a range starting there refused.
 * (Pruning is per group, when a game of the group ends in a new hour.)
 */
import { describe, expect, it } from 'vitest';
import { GAME_NAMES } from '../../../machines/table/options.js';
import type { EventStore } from '../../eventstore/eventStore.js';
import { createMemoryEventStore } from '../../eventstore/memoryEventStore.js';
import { TableHost } from '../../host/tableHost.js';
import { machineEventsOf } from '../../host/tableLog.js';
import { startProjection } from '../runner.js';
import { FINISHED_HOURS_KEPT } from './finishedHours.js';
import { fleetOverlay, type FleetState } from './fleetOverlay.js';
import { finishedFleetReport, fleetReport, RangeNotKept } from './fleetReport.js';
import { finishedBotTable, playMoves } from './fixtures/fleetInPlay.js';

const HOUR_MS = 3_600_000;
const START = Date.parse('2026-01-01T00:00:00Z');

/** A host's clock a second later at every call, which the test can move on by hours. */
function jumpingClock() {
  let ms = START;
  return {
    now: () => {
      ms += 1000;
      return new Date(ms);
    },
    jumpTo: (at: number) => {
      ms = at;
    },
  };
}

function hourAfter(ms: number): number {
  return (Math.floor(ms / HOUR_MS) + 1) * HOUR_MS;
}

interface Expected {
  /** `<game>@<rules>` → games, transitions summed, accepted machine events, visits per state. */
  readonly [group: string]: {
    finished: number;
    transitions: Record<string, number>;
    machineEvents: number;
    visits: Record<string, number>;
  };
}

/** The games among `tableIds` whose last event is from `from` to before `to`, each folded alone by the overlay, summed per group. */
async function foldedAlone(store: EventStore, tableIds: readonly string[], from: number, to: number): Promise<Expected> {
  const expected: Record<string, Expected[string]> = {};
  for (const tableId of tableIds) {
    const log = await store.read(tableId);
    const ended = Date.parse(log[log.length - 1].at);
    if (ended < from || ended >= to) continue;
    let alone: FleetState = fleetOverlay.initial();
    for (const event of log) alone = fleetOverlay.apply(alone, tableId, event);
    const [game] = fleetReport(alone, { asOf: '', lag: 0 }).games;
    expect(game.finished).toBe(1);
    const group = `${game.game}@${game.rules}`;
    expected[group] ??= { finished: 0, transitions: {}, machineEvents: 0, visits: {} };
    const sum = expected[group];
    sum.finished++;
    sum.machineEvents += machineEventsOf(log).length;
    for (const { source, target, event, count } of game.transitions) {
      const key = `${source} ${target} ${event}`;
      sum.transitions[key] = (sum.transitions[key] ?? 0) + count;
    }
    for (const { state, visits } of game.dwell) sum.visits[state] = (sum.visits[state] ?? 0) + visits;
  }
  return expected;
}

function reported(fleet: FleetState, from: number, to: number): Expected {
  const report = finishedFleetReport(fleet, { asOf: '', lag: 0, from, to });
  return Object.fromEntries(
    report.games.map((game) => [
      `${game.game}@${game.rules}`,
      {
        finished: game.finished,
        transitions: Object.fromEntries(
          game.transitions.map(({ source, target, event, count }) => [`${source} ${target} ${event}`, count]),
        ),
        machineEvents: game.transitions.reduce((sum, { count }) => sum + count, 0),
        visits: Object.fromEntries(game.dwell.map(({ state, visits }) => [state, visits])),
      },
    ]),
  );
}

describe('the fleet overlay over a time range of finished games', () => {
  it('counts the games that ended in the range as each folded alone, summed', async () => {
    const store = createMemoryEventStore();
    const clock = jumpingClock();
    const host = new TableHost({ store, now: clock.now });
    const tableIds: string[] = [];
    for (const game of GAME_NAMES) tableIds.push(await finishedBotTable(host, game, `early-${game}`));
    // A game that goes on counts in no range, though its moves are taken in it.
    const bots = [0, 1, 2, 3, 4].map((seat) => ({ name: `B${seat}`, bot: true }));
    const { tableId: goingOn } = await host.createTable({ game: 'antiCupid', players: bots, seed: 'on', cardsPerSeat: 3 });
    await playMoves(host, goingOn, 6, 'on');
    const earlyEnd = hourAfter(clock.now().getTime());
    clock.jumpTo(earlyEnd + 2 * HOUR_MS);
    for (const game of GAME_NAMES) tableIds.push(await finishedBotTable(host, game, `late-${game}`));
    tableIds.push(await finishedBotTable(host, 'sevenSuitors', 'late-again'));
    const lateEnd = hourAfter(clock.now().getTime());

    const runner = startProjection({ source: store, projection: fleetOverlay });
    await runner.caughtUp;
    const fleet = runner.state();
    const ranges = [
      [START, earlyEnd],
      [START, START + HOUR_MS],
      [earlyEnd, earlyEnd + 2 * HOUR_MS],
      [earlyEnd + 2 * HOUR_MS, lateEnd],
      [START, lateEnd],
    ];
    for (const [from, to] of ranges) expect(reported(fleet, from, to)).toEqual(await foldedAlone(store, tableIds, from, to));
    expect(reported(fleet, earlyEnd, earlyEnd + 2 * HOUR_MS)).toEqual({});
    const all = await foldedAlone(store, tableIds, START, lateEnd);
    expect(all['sevenSuitors@1']?.finished).toBe(3);
    // Every accepted machine event of a finished game is one transition taken.
    for (const group of Object.values(all)) {
      expect(Object.values(group.transitions).reduce((sum, count) => sum + count, 0)).toBe(group.machineEvents);
    }
    await runner.stop();

    // A game ending a whole span of kept hours after the late ones: the hours before the span are dropped, and a range starting there refused.
    const lastStart = lateEnd - HOUR_MS + (FINISHED_HOURS_KEPT - 1) * HOUR_MS;
    clock.jumpTo(lastStart);
    tableIds.push(await finishedBotTable(host, 'traitorOfLove', 'last'));
    const again = startProjection({ source: store, projection: fleetOverlay });
    await again.caughtUp;
    const oldestKept = lateEnd - HOUR_MS;
    // Each group keeps at most the span up to its own newest hour: the one a game ended in since drops its older hours.
    const traitorHours = Object.keys(again.state().groups['traitorOfLove@1'].finishedHours).map((hour) => Date.parse(`${hour}:00:00Z`));
    expect(Math.min(...traitorHours)).toBe(oldestKept);
    expect(
      Math.min(...Object.keys(again.state().groups['antiCupid@1'].finishedHours).map((hour) => Date.parse(`${hour}:00:00Z`))),
    ).toBeLessThan(oldestKept);
    expect(() => finishedFleetReport(again.state(), { asOf: '', lag: 0, from: oldestKept - HOUR_MS, to: oldestKept })).toThrow(
      new RangeNotKept(new Date(oldestKept).toISOString().replace('.000Z', 'Z')),
    );
    const span = [oldestKept, lastStart + HOUR_MS] as const;
    expect(reported(again.state(), ...span)).toEqual(await foldedAlone(store, tableIds, ...span));
    expect(reported(again.state(), ...span)['traitorOfLove@1']?.finished).toBeGreaterThanOrEqual(2);
    await again.stop();
    await host.close();
  });
});
