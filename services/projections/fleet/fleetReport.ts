/**
 * The fleet overlay as GET /api/fleet serves it: counts only. It reads the
 * groups and nothing of a table, so no hand, pass or role can reach it.
 */
import { dwellQuantile, visitsOf } from './dwellTimes.js';
import type { FleetGroup, FleetState } from './fleetOverlay.js';

interface FleetGameReport {
  readonly game: string;
  readonly rules: number;
  /** Tables whose game goes on. */
  readonly tables: number;
  readonly finished: number;
  readonly quarantined: number;
  /** Live tables in each state (ancestors included), state ids as the diagrams name them; states with none left out. */
  readonly states: readonly { readonly state: string; readonly tables: number }[];
  readonly transitions: readonly { readonly source: string; readonly target: string; readonly event: string; readonly count: number }[];
  /** How long tables stayed in each state they have left, in ms (to within 19%: dwellTimes.ts). */
  readonly dwell: readonly { readonly state: string; readonly visits: number; readonly medianMs: number; readonly p90Ms: number }[];
}

export interface FleetReport {
  readonly asOf: string;
  /** Events appended that the overlay has not folded yet. */
  readonly lag: number;
  readonly games: readonly FleetGameReport[];
}

export function fleetReport(fleet: FleetState, { asOf, lag }: { asOf: string; lag: number }): FleetReport {
  const groups = Object.values(fleet.groups).sort((a, b) => (a.game === b.game ? a.rules - b.rules : a.game < b.game ? -1 : 1));
  return { asOf, lag, games: groups.map(gameReport) };
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
    transitions: Object.entries(group.transitions)
      .map(([key, count]) => {
        const [source, target, event] = key.split(' ');
        return { source, target, event, count };
      })
      .sort((a, b) => compare(`${a.source} ${a.target} ${a.event}`, `${b.source} ${b.target} ${b.event}`)),
    dwell: Object.entries(group.dwell)
      .map(([state, histogram]) => ({
        state,
        visits: visitsOf(histogram),
        medianMs: dwellQuantile(histogram, 0.5),
        p90Ms: dwellQuantile(histogram, 0.9),
      }))
      .sort((a, b) => compare(a.state, b.state)),
  };
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
