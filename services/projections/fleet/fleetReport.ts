/**
 * The fleet overlay as GET /api/fleet serves it: counts only. It reads the
 * groups and nothing of a table, so no hand, pass or role can reach it.
 * With a time range, the games that ended in it (finishedHours.ts).
 */
import { dwellQuantile, visitsOf, type DwellHistogram } from './dwellTimes.js';
import { FINISHED_HOURS_KEPT, finishedBetween, hourText, oldestHourKept } from './finishedHours.js';
import type { FleetGroup, FleetState } from './fleetOverlay.js';
import type { DwellFigures, FinishedFleetReport, FleetGameReport, FleetReport, TransitionTally } from './fleetReportTypes.js';

export type { FinishedFleetReport, FleetReport };

export function fleetReport(fleet: FleetState, { asOf, lag }: { asOf: string; lag: number }): FleetReport {
  return { asOf, lag, games: sortedGroups(fleet).map(gameReport) };
}

/** Why a range cannot be answered: it starts before the finished games kept. */
export class RangeNotKept extends RangeError {
  constructor(readonly oldest: string) {
    super(
      `finished games are kept by the hour for ${FINISHED_HOURS_KEPT / 24} days up to the last one that ended: from may be ${oldest} at the earliest`,
    );
    this.name = 'RangeNotKept';
  }
}

/** `from` and `to` in ms, on the hour; refused (RangeNotKept) when `from` is before the hours kept. */
export function finishedFleetReport(
  fleet: FleetState,
  { asOf, lag, from, to }: { asOf: string; lag: number; from: number; to: number },
): FinishedFleetReport {
  const groups = sortedGroups(fleet);
  const oldest = oldestHourKept(groups.map((group) => group.finishedHours));
  if (oldest !== null && from < oldest) throw new RangeNotKept(hourText(oldest));
  const games = groups.flatMap((group) => {
    const ended = finishedBetween(group.finishedHours, from, to);
    if (ended.tables === 0) return [];
    return [
      {
        game: group.game,
        rules: group.rules,
        finished: ended.tables,
        transitions: transitionCounts(ended.transitions),
        dwell: dwellFigures(ended.dwell),
      },
    ];
  });
  return { asOf, lag, from: hourText(from), to: hourText(to), games };
}

function sortedGroups(fleet: FleetState): FleetGroup[] {
  return Object.values(fleet.groups).sort((a, b) => (a.game === b.game ? a.rules - b.rules : a.game < b.game ? -1 : 1));
}

function gameReport(group: FleetGroup): FleetGameReport {
  return {
    game: group.game,
    rules: group.rules,
    tables: group.live,
    finished: group.finished,
    quarantined: group.quarantined,
    states: Object.entries(group.states)
      .filter(([, tables]) => tables > 0)
      .map(([state, tables]) => ({ state, tables }))
      .sort((a, b) => compare(a.state, b.state)),
    transitions: transitionCounts(group.transitions),
    dwell: dwellFigures(group.dwell),
  };
}

function transitionCounts(transitions: Record<string, number>): TransitionTally[] {
  return Object.entries(transitions)
    .map(([key, count]) => {
      const [source, target, event] = key.split(' ');
      return { source, target, event, count };
    })
    .sort((a, b) => compare(`${a.source} ${a.target} ${a.event}`, `${b.source} ${b.target} ${b.event}`));
}

function dwellFigures(dwell: Record<string, DwellHistogram>): DwellFigures[] {
  return Object.entries(dwell)
    .map(([state, histogram]) => ({
      state,
      visits: visitsOf(histogram),
      medianMs: dwellQuantile(histogram, 0.5),
      p90Ms: dwellQuantile(histogram, 0.9),
    }))
    .sort((a, b) => compare(a.state, b.state));
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
