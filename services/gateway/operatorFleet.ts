/**
 * The operator's view of the fleet (GET /api/admin/fleet): the tables in
 * play by game and state, what each waits on (people, the service, the
 * operator's repair), which of them the service is late for (stuck), and
 * this process's own figures. Built on the fleet overlay (the machine state
 * of every live table, folded from the logs), the lobby's listing (each
 * table's last event) and this process's metrics.
 *
 * Nothing hidden leaves it: of a table's machine state it says the states,
 * the seats awaited, what for and whether a bot holds them, never a card,
 * a role or a token.
 */
import { awaitedActions, type Action } from '../../machines/table/refusal.js';
import { phaseOf } from '../../machines/table/snapshot.js';
import { turnDeadline } from '../clock/turnClock.js';
import { activeStateIds } from '../diagram/active.js';
import type { TableOwners } from '../bus/tableOwnerReads.js';
import type { TableService } from '../host/tableService.js';
import type { LiveFleetTable } from '../projections/fleet/fleetOverlay.js';
import type { FleetReport } from '../projections/fleet/fleetReport.js';
import type { GatewayFleet } from './fleetOverlay.js';
import type { LagSource } from './eventLoopLag.js';
import type { GatewayMetrics } from './metrics.js';

/** How long past its moment a move the service owes (a bot's, a deal, a timeout) may be late before the table counts as stuck. */
export const STUCK_AFTER_MS = 30_000;
/** Tables listed one by one, the stuck and stopped first; the counts cover them all. */
const TABLES_LISTED = 200;
/** The least time between two readings of the command counter that a rate is taken over. */
const RATE_WINDOW_MS = 5_000;

type WaitingOn = 'people' | 'service' | 'operator';

interface OperatorTable {
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

/** A table before its owner is read. */
type Listed = Omit<OperatorTable, 'owner'>;

export interface OperatorReport {
  readonly asOf: string;
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
  /** On NATS, the workers holding the listed tables, with how many of them each holds. */
  readonly workers: readonly { readonly worker: string; readonly tables: number }[];
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

export interface OperatorFleetSources {
  readonly host: TableService;
  readonly fleet: GatewayFleet;
  readonly metrics: GatewayMetrics;
  readonly lag: LagSource;
  /** On NATS: reads which worker holds each table. */
  readonly owners?: TableOwners;
  readonly now?: () => number;
}

export function operatorFleet({ host, fleet, metrics, lag, owners, now = Date.now }: OperatorFleetSources) {
  const commandRate = commandRateOf(metrics, now);
  return {
    async report(): Promise<OperatorReport> {
      const [overlay, live, listing] = await Promise.all([fleet.report(), fleet.liveTables(), host.listTables()]);
      const at = now();
      const lastEventAt = new Map(listing.map((summary) => [summary.tableId, summary.lastEventAt]));
      const quarantinedHere = new Set(host.quarantinedTables().map((quarantine) => quarantine.tableId));
      const tables = live.map((table) => operatorTable(table, lastEventAt.get(table.tableId), quarantinedHere.has(table.tableId), at));
      const memory = process.memoryUsage();
      const onWorkers = host.onOwnMove === undefined;
      const listed = [...tables].sort(listingOrder).slice(0, TABLES_LISTED);
      const held = await ownersOf(listed, onWorkers ? owners : undefined);
      return {
        asOf: new Date(at).toISOString(),
        process: {
          rssBytes: memory.rss,
          heapUsedBytes: memory.heapUsed,
          eventLoopLagMs: lag.currentMs,
          commandsPerSecond: await commandRate(),
          fleetLag: overlay.lag,
        },
        owner: onWorkers ? 'workers' : 'thisProcess',
        workers: held.workers,
        games: overlay.games,
        tables: {
          inPlay: tables.length,
          waitingOnPeople: tables.filter((table) => table.waitingOn === 'people').length,
          waitingOnService: tables.filter((table) => table.waitingOn === 'service').length,
          stuck: tables.filter((table) => table.overdueSeconds !== null).length,
          quarantined: tables.filter((table) => table.quarantined).length,
          listed: listed.map((table) => ({ ...table, owner: held.owners.get(table.tableId) ?? null })),
        },
        missing: onWorkers
          ? [...held.missing, "the workers' lag, memory and commands/s: scrape each worker's /metrics (WORKER_METRICS_PORT)"]
          : [],
      };
    },
  };
}

/** One table as the operator sees it: states, the seats awaited, and whether the service is late for it. */
function operatorTable(table: LiveFleetTable, lastEventAt: string | undefined, quarantinedHere: boolean, now: number): Listed {
  const { snapshot } = table;
  const since = lastEventAt ?? new Date(now).toISOString();
  const awaited = awaitedActions(snapshot).map(({ seat, action }) => ({
    seat,
    action,
    bot: snapshot.context.occupants[seat]?.bot === true,
  }));
  const deadline = turnDeadline(snapshot, table.turnSeconds, since);
  const quarantined = table.quarantined || quarantinedHere;
  // The moment the service owes a move from: a bot's or a deal at once, a timeout at the deadline; none while people are awaited in time.
  let due: number | null = null;
  if (awaited.some((seat) => seat.bot) || phaseOf(snapshot) === 'dealing') due = Date.parse(since);
  else if (deadline !== null && Date.parse(deadline) <= now) due = Date.parse(deadline);
  const late = due === null || quarantined ? 0 : now - due;
  const ids = activeStateIds(snapshot);
  return {
    tableId: table.tableId,
    game: table.game,
    rules: table.rules,
    states: ids.filter((id) => !ids.some((other) => other.startsWith(`${id}.`))),
    waitingOn: quarantined ? 'operator' : due === null ? 'people' : 'service',
    awaited,
    lastEventAt: since,
    deadline,
    overdueSeconds: late > STUCK_AFTER_MS ? Math.floor(late / 1000) : null,
    quarantined,
    replay: `/#/replay/${encodeURIComponent(table.tableId)}`,
  };
}

/** The listed tables' workers, or what kept them from being read. */
async function ownersOf(listed: readonly Listed[], owners: TableOwners | undefined) {
  if (owners === undefined) {
    return { owners: new Map<string, string>(), workers: [], missing: [] as string[] };
  }
  try {
    const held = await owners(listed.map((table) => table.tableId));
    const counts = new Map<string, number>();
    for (const worker of held.values()) counts.set(worker, (counts.get(worker) ?? 0) + 1);
    const workers = [...counts].map(([worker, tables]) => ({ worker, tables })).sort((a, b) => a.worker.localeCompare(b.worker));
    return { owners: held, workers, missing: [] as string[] };
  } catch (error) {
    return {
      owners: new Map<string, string>(),
      workers: [],
      missing: [`which worker holds which table: the table-owners bucket could not be read (${(error as Error).message})`],
    };
  }
}

function listingOrder(a: Listed, b: Listed): number {
  const rank = (table: Listed) => (table.overdueSeconds !== null ? 0 : table.quarantined ? 1 : 2);
  return rank(a) - rank(b) || (b.overdueSeconds ?? 0) - (a.overdueSeconds ?? 0) || a.lastEventAt.localeCompare(b.lastEventAt);
}

/** Commands settled per second, from this process's command counter read at least RATE_WINDOW_MS apart. */
function commandRateOf(metrics: GatewayMetrics, now: () => number) {
  let last: { at: number; total: number } | undefined;
  let rate: number | null = null;
  return async (): Promise<number | null> => {
    const counted = await metrics.registry.getSingleMetric('suitors_commands_total')?.get();
    const total = (counted?.values ?? []).reduce((sum, { value }) => sum + value, 0);
    const at = now();
    if (last === undefined || at - last.at >= RATE_WINDOW_MS) {
      if (last !== undefined) rate = Math.round(((total - last.total) / ((at - last.at) / 1000)) * 10) / 10;
      last = { at, total };
    }
    return rate;
  };
}
