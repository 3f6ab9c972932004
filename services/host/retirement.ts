/**
 * Retiring finished games (docs/operations.md, "Retiring finished games"):
 * a game over for longer than the retention keeps its game record and loses
 * its log and snapshot (EventStore.retire), so the store holds the record
 * of it (a few KiB, where the log and snapshots took tens to hundreds) and
 * the record stays exportable at its address. The record kept is the one
 * `GET /api/tables/:id/record` answered before: both are `recordOfLog`.
 *
 * `suitors retire` runs it once (services/cli/commands/retire.ts); the
 * embedded service runs it every hour when SUITORS_RETAIN_FINISHED_DAYS is
 * set (`retireEveryHour`). A table that moves on while it is retired (a
 * late event) is refused by the store's version check and kept whole.
 */
import { isTableRetired, isVersionConflict, type EventStore, type TableSummary } from '../eventstore/eventStore.js';
import { recordOfLog } from './replay.js';

const DAY_MS = 24 * 60 * 60 * 1000;

export interface RetirementOptions {
  /** A finished game whose last event is older than this many whole days is retired. */
  readonly olderThanDays: number;
  readonly now: Date;
  /** Finds and reports what would be retired, and retires nothing. */
  readonly dryRun?: boolean;
  /** The most tables one run retires, oldest first (the service's hourly run takes a slice at a time). */
  readonly limit?: number;
  /** Told of each table as it is retired, found to retire (a dry run), or kept (and why). */
  readonly onTable?: (outcome: TableRetirement) => void;
}

interface TableRetirement {
  readonly tableId: string;
  /** When its game ended. */
  readonly lastEventAt: string;
  readonly outcome: 'retired' | 'wouldRetire' | 'kept';
  /** Why a table was kept: it moved on, or its log would not make a record. */
  readonly reason?: string;
}

export interface RetirementRun {
  /** Finished games older than the retention, found in this run. */
  readonly found: number;
  readonly retired: number;
  readonly kept: number;
  /** Found, but past the run's limit: the next run takes them. */
  readonly left: number;
}

/** Retires (or, dry, finds) every finished game whose last event is more than `olderThanDays` days old. */
export async function retireFinishedGames(store: EventStore, options: RetirementOptions): Promise<RetirementRun> {
  const { olderThanDays, now, dryRun = false, limit = Number.POSITIVE_INFINITY, onTable = () => undefined } = options;
  if (!Number.isSafeInteger(olderThanDays) || olderThanDays < 1) {
    throw new RangeError(`finished games are retired after a whole number of days, at least 1, not ${olderThanDays}`);
  }
  const due = dueForRetirement(await store.listTables(), now.getTime() - olderThanDays * DAY_MS);
  const taken = due.slice(0, limit);
  let retired = 0;
  let kept = 0;
  for (const table of taken) {
    const outcome = dryRun ? { outcome: 'wouldRetire' as const } : await retireOne(store, table, now);
    if (outcome.outcome === 'retired') retired++;
    if (outcome.outcome === 'kept') kept++;
    onTable({ tableId: table.tableId, lastEventAt: table.lastEventAt, ...outcome });
    // One table a turn: building a long game's record is the event loop's work, and the service serves meanwhile.
    await new Promise((resolve) => setImmediate(resolve));
  }
  return { found: due.length, retired, kept, left: due.length - taken.length };
}

/** Finished games whose last event is at or before `cutoffMs`, the longest over first. */
function dueForRetirement(tables: readonly TableSummary[], cutoffMs: number): TableSummary[] {
  return tables
    .filter((table) => table.status?.finished === true && Date.parse(table.lastEventAt) <= cutoffMs)
    .sort((a, b) => Date.parse(a.lastEventAt) - Date.parse(b.lastEventAt));
}

async function retireOne(store: EventStore, table: TableSummary, now: Date): Promise<Pick<TableRetirement, 'outcome' | 'reason'>> {
  const { tableId } = table;
  const log = await store.read(tableId);
  let record;
  try {
    record = recordOfLog(tableId, log);
  } catch (error) {
    return { outcome: 'kept', reason: `its log makes no game record (${(error as Error).message})` };
  }
  try {
    await store.retire(tableId, { expectedVersion: log.length, record, at: now.toISOString() });
    return { outcome: 'retired' };
  } catch (error) {
    if (isVersionConflict(error)) return { outcome: 'kept', reason: 'it moved on while it was being retired' };
    if (isTableRetired(error)) return { outcome: 'kept', reason: 'another process retired it first' };
    throw error;
  }
}

/** How often the service looks for games to retire, and how many it retires each time at most. */
const RETIRE_EVERY_MS = 60 * 60 * 1000;
const RETIRED_PER_RUN = 500;

/**
 * Retires finished games older than `olderThanDays` now, and an hour after
 * each run ends, a slice of 500 at a time; returns the stop, which waits for
 * a run under way.
 */
export function retireEveryHour(
  store: EventStore,
  olderThanDays: number,
  report: { readonly ran: (run: RetirementRun) => void; readonly failed: (error: unknown) => void },
): () => Promise<void> {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const run = async (): Promise<void> => {
    try {
      report.ran(await retireFinishedGames(store, { olderThanDays, now: new Date(), limit: RETIRED_PER_RUN }));
    } catch (error) {
      report.failed(error);
    }
    if (!stopped) timer = setTimeout(runAgain, RETIRE_EVERY_MS).unref();
  };
  const runAgain = () => {
    running = run();
  };
  let running = run();
  return async () => {
    stopped = true;
    clearTimeout(timer);
    await running;
  };
}
