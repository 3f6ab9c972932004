/**
 * The operator's page's figures (GET /api/admin/fleet) as types: the one
 * description the gateway builds them to (operatorFleet.ts) and the web
 * client reads them by (web/src/api.ts). Types only, so the client's bundle
 * takes nothing of the gateway's with it.
 */
import type { Action } from '../../machines/table/refusal.js';
import type { WorkerStatus } from '../bus/workerStatusRecord.js';
import type { FleetReport } from '../projections/fleet/fleetReportTypes.js';

type WaitingOn = 'people' | 'service' | 'operator';

export interface OperatorTable {
  readonly tableId: string;
  readonly game: string;
  readonly rules: number;
  /** The innermost states it is in, as the diagrams name them. */
  readonly states: readonly string[];
  readonly waitingOn: WaitingOn;
  /** The seats awaited, what for, and whether a bot holds each (a bot's move is the service's to make). */
  readonly awaited: readonly { readonly seat: number; readonly action: Action; readonly bot: boolean }[];
  readonly lastEventAt: string;
  /** When the turn clock runs out, if it runs. */
  readonly deadline: string | null;
  /** How late the service is with the move it owes, in whole seconds, once past STUCK_AFTER_MS; null when not stuck. */
  readonly overdueSeconds: number | null;
  readonly quarantined: boolean;
  /** The worker that holds it (NATS); null when this process does, or no claim was read. */
  readonly owner: string | null;
  /** The client's replay of the table. */
  readonly replay: string;
}

/** A table worker on NATS, as the page shows it. */
export interface OperatorWorker {
  readonly worker: string;
  /** How many of the listed tables its claims name. */
  readonly listedTables: number;
  /** What it last said of itself (bus/workerStatus.ts), and how long ago; null when it says nothing (its status expired, or an older release). */
  readonly status: (Omit<WorkerStatus, 'worker'> & { readonly heardSecondsAgo: number }) | null;
}

export interface OperatorReport {
  readonly asOf: string;
  /** The gateway answering. */
  readonly process: {
    readonly rssBytes: number;
    readonly heapUsedBytes: number;
    readonly eventLoopLagMs: number;
    /** Commands settled per second over the last readings (at least 5 s apart); null until there are two. */
    readonly commandsPerSecond: number | null;
    /** Events appended that the fleet overlay has not folded yet. */
    readonly fleetLag: number;
  };
  /** Where the tables are held: by this process, or by table workers on NATS. */
  readonly owner: 'thisProcess' | 'workers';
  /** On NATS, every worker that says it runs or holds a listed table, by id. */
  readonly workers: readonly OperatorWorker[];
  readonly games: FleetReport['games'];
  readonly tables: {
    readonly inPlay: number;
    readonly waitingOnPeople: number;
    readonly waitingOnService: number;
    readonly stuck: number;
    readonly quarantined: number;
    /** At most TABLES_LISTED: the stuck first (the latest first), then those stopped for repair, then by last event, oldest first. */
    readonly listed: readonly OperatorTable[];
  };
  /** What this page would show but cannot measure here, in words. */
  readonly missing: readonly string[];
}
