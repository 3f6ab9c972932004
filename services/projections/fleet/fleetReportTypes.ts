/**
 * GET /api/fleet's answers as types (fleetReport.ts makes them), in a module
 * with no imports, so the web client and the diagrams read the same
 * description without taking the projection with them.
 */

/** Live tables in one state node, as GET /api/fleet counts them. */
export interface StateTally {
  readonly state: string;
  readonly tables: number;
}

/** Times one transition was taken: from the outermost state left to the outermost entered, on an event type. */
export interface TransitionTally {
  readonly source: string;
  readonly target: string;
  readonly event: string;
  readonly count: number;
}

export interface DwellFigures {
  readonly state: string;
  readonly visits: number;
  readonly medianMs: number;
  readonly p90Ms: number;
}

export interface FleetGameReport {
  readonly game: string;
  readonly rules: number;
  /** Tables whose game goes on. */
  readonly tables: number;
  readonly finished: number;
  readonly quarantined: number;
  /** Live tables in each state (ancestors included), state ids as the diagrams name them; states with none left out. */
  readonly states: readonly StateTally[];
  readonly transitions: readonly TransitionTally[];
  /** How long tables stayed in each state they have left, in ms (to within 19%: dwellTimes.ts). */
  readonly dwell: readonly DwellFigures[];
}

export interface FleetReport {
  readonly asOf: string;
  /** Events appended that the overlay has not folded yet. */
  readonly lag: number;
  readonly games: readonly FleetGameReport[];
}

/** The games of one group that ended in the range, over their whole runs. */
interface FinishedGameReport {
  readonly game: string;
  readonly rules: number;
  /** Games that ended in the range. */
  readonly finished: number;
  readonly transitions: readonly TransitionTally[];
  readonly dwell: readonly DwellFigures[];
}

export interface FinishedFleetReport {
  readonly asOf: string;
  readonly lag: number;
  /** The range asked for, ISO times on the hour: games that ended at or after `from` and before `to`. */
  readonly from: string;
  readonly to: string;
  /** The groups with games that ended in the range. */
  readonly games: readonly FinishedGameReport[];
}
