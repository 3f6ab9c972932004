/**
 * The operator's view of the fleet (GET /api/admin/fleet): the tables in
 * play by game and state, what each waits on (people, the service, the
 * operator's repair), which of them the service is late for (stuck), and
 * the figures of this process and, on NATS, of every worker (the status
 * each puts in the worker-status bucket). Built on the fleet overlay (the machine state
 * of every live table, folded from the logs), the lobby's listing (each
 * table's last event) and this process's metrics.
 *
 * Nothing hidden leaves it: of a table's machine state it says the states,
 * the seats awaited, what for and whether a bot holds them, never a card,
 * a role or a token.
 */
import { awaitedActions } from '../../machines/table/refusal.js';
import { phaseOf } from '../../machines/table/snapshot.js';
import { turnDeadline } from '../clock/turnClock.js';
import { activeStateIds } from '../diagram/active.js';
import { counterRate } from '../bus/counterRate.js';
import type { TableOwners } from '../bus/tableOwnerReads.js';
import type { WorkerStatus, WorkerStatuses } from '../bus/workerStatus.js';
import type { TableService } from '../host/tableService.js';
import type { LiveFleetTable } from '../projections/fleet/fleetOverlay.js';
import type { GatewayFleet } from './fleetOverlay.js';
import type { LagSource } from '../eventLoopLag.js';
import type { GatewayMetrics } from './metrics.js';
import type { OperatorReport, OperatorTable, OperatorWorker } from './operatorReport.js';

/** How long past its moment a move the service owes (a bot's, a deal, a timeout) may be late before the table counts as stuck. */
export const STUCK_AFTER_MS = 30_000;
/** Tables listed one by one, the stuck and stopped first; the counts cover them all. */
const TABLES_LISTED = 200;
/** The least time between two readings of the command counter that a rate is taken over. */
const RATE_WINDOW_MS = 5_000;

/** A table before its owner is read. */
type Listed = Omit<OperatorTable, 'owner'>;

export interface OperatorFleetSources {
  readonly host: TableService;
  readonly fleet: GatewayFleet;
  readonly metrics: GatewayMetrics;
  readonly lag: LagSource;
  /** On NATS: reads which worker holds each table. */
  readonly owners?: TableOwners;
  /** On NATS: reads what each worker says of itself. */
  readonly workerStatuses?: WorkerStatuses;
  readonly now?: () => number;
}

export function operatorFleet({ host, fleet, metrics, lag, owners, workerStatuses, now = Date.now }: OperatorFleetSources) {
  const commandRate = counterRate(async () => commandsSettled(metrics), { windowMs: RATE_WINDOW_MS, now });
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
      const [held, statuses] = await Promise.all([
        ownersOf(listed, onWorkers ? owners : undefined),
        statusesOf(onWorkers ? workerStatuses : undefined),
      ]);
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
        workers: operatorWorkers(held.owners, statuses.statuses, at),
        games: overlay.games,
        tables: {
          inPlay: tables.length,
          waitingOnPeople: tables.filter((table) => table.waitingOn === 'people').length,
          waitingOnService: tables.filter((table) => table.waitingOn === 'service').length,
          stuck: tables.filter((table) => table.overdueSeconds !== null).length,
          quarantined: tables.filter((table) => table.quarantined).length,
          listed: listed.map((table) => ({ ...table, owner: held.owners.get(table.tableId) ?? null })),
        },
        missing: [...held.missing, ...statuses.missing],
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
  if (owners === undefined) return { owners: new Map<string, string>(), missing: [] as string[] };
  try {
    return { owners: await owners(listed.map((table) => table.tableId)), missing: [] as string[] };
  } catch (error) {
    return {
      owners: new Map<string, string>(),
      missing: [`which worker holds which table: the table-owners bucket could not be read (${(error as Error).message})`],
    };
  }
}

/** What the workers say of themselves, or what kept it from being read. */
async function statusesOf(read: WorkerStatuses | undefined): Promise<{ statuses: WorkerStatus[]; missing: string[] }> {
  if (read === undefined) return { statuses: [], missing: [] };
  try {
    return { statuses: await read(), missing: [] };
  } catch (error) {
    return {
      statuses: [],
      missing: [`the workers' memory, lag and commands/s: the worker-status bucket could not be read (${(error as Error).message})`],
    };
  }
}

/** Every worker that put its status or whose claim names a listed table, by id. */
function operatorWorkers(owners: ReadonlyMap<string, string>, statuses: readonly WorkerStatus[], now: number): OperatorWorker[] {
  const listedTables = new Map<string, number>();
  for (const worker of owners.values()) listedTables.set(worker, (listedTables.get(worker) ?? 0) + 1);
  const said = new Map(statuses.map(({ worker, ...status }) => [worker, status]));
  return [...new Set([...said.keys(), ...listedTables.keys()])].sort().map((worker) => {
    const status = said.get(worker);
    return {
      worker,
      listedTables: listedTables.get(worker) ?? 0,
      status: status === undefined ? null : { ...status, heardSecondsAgo: Math.max(0, Math.floor((now - Date.parse(status.at)) / 1000)) },
    };
  });
}

function listingOrder(a: Listed, b: Listed): number {
  const rank = (table: Listed) => (table.overdueSeconds !== null ? 0 : table.quarantined ? 1 : 2);
  return rank(a) - rank(b) || (b.overdueSeconds ?? 0) - (a.overdueSeconds ?? 0) || a.lastEventAt.localeCompare(b.lastEventAt);
}

/** Every command this process settled, by its counter. */
async function commandsSettled(metrics: GatewayMetrics): Promise<number> {
  const counted = await metrics.registry.getSingleMetric('suitors_commands_total')?.get();
  return (counted?.values ?? []).reduce((sum, { value }) => sum + value, 0);
}
