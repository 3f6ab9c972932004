/**
 * No table waits for a command to find a new owner: every worker looks,
 * every so often, for tables whose owner's life is over (and those it was
 * told to take up), and takes up those with a bot move or a timeout to
 * come, a few at a time and in an order of its own; the rest it gives back
 * for their next command to claim.
 */
import { isTableQuarantined } from '../host/quarantine.js';
import { fewAtATime } from '../tableQueues/fewAtATime.js';
import { giveBack, messageOf, type WorkerTables } from './workerTables.js';

/** Orphaned tables taken up at once: a dead worker's thousand tables are read from the log a few at a time. */
const ADOPT_CONCURRENCY = 32;

export interface OrphanAdoption {
  /** Stops looking, after the sweep under way. */
  stop(): Promise<void>;
}

/** Sweeps at once and then every `everyMs`. */
export function adoptOrphans(tables: WorkerTables, everyMs: number): OrphanAdoption {
  let sweeping: Promise<void> | null = null;
  const sweep = (): Promise<void> => {
    sweeping ??= sweepOrphans(tables).finally(() => (sweeping = null));
    return sweeping;
  };
  const timer = setInterval(() => void sweep(), everyMs);
  timer.unref();
  void sweep();
  return {
    async stop() {
      clearInterval(timer);
      await sweeping;
    },
  };
}

async function sweepOrphans(tables: WorkerTables): Promise<void> {
  const { workerId, log } = tables;
  try {
    // In an order of this worker's own, so workers taking up a dead one's tables at once mostly take different ones.
    const orphans = shuffled([...tables.toTakeUp, ...(await tables.leases.orphans())]);
    await fewAtATime(
      orphans,
      ADOPT_CONCURRENCY,
      (tableId) => adopt(tables, tableId).catch((error: unknown) => log(`${workerId} could not take up ${tableId}: ${messageOf(error)}`)),
      () => tables.isStopping(),
    );
  } catch (error) {
    log(`${workerId}: looking for tables whose owner is gone failed: ${messageOf(error)}`);
  }
}

/**
 * Takes up a table whose owner is gone, if it has a bot move or a timeout
 * to come; one that awaits only people is given back at once (its next
 * command finds it an owner), so a dead worker's idle tables are not hoarded.
 */
async function adopt(tables: WorkerTables, tableId: string): Promise<void> {
  const { host, leases, lastUsed, workerId, log } = tables;
  const take = await leases.take(tableId).catch(() => null);
  if (take === null) return; // no life now: the next sweep tries again
  tables.toTakeUp.delete(tableId);
  if (!take.taken) return;
  try {
    if (take.fresh) await host.passivate(tableId);
    await host.takeUp(tableId);
  } catch (error) {
    // A quarantined table was told of once already, by the host (onQuarantined).
    if (!isTableQuarantined(error)) log(`${workerId} could not take up ${tableId}: ${messageOf(error)}`);
    await giveBack(tables, tableId);
    return;
  }
  // A command that came meanwhile (lastUsed) keeps the table too: it may have just armed a bot.
  if (host.hasMovesToCome(tableId) || lastUsed.has(tableId)) {
    lastUsed.set(tableId, Date.now());
    log(`${workerId} took up ${tableId}, whose owner is gone`);
    tables.metrics?.tookOver();
  } else {
    await giveBack(tables, tableId);
  }
}

function shuffled<T>(items: T[]): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [items[i], items[j]] = [items[j], items[i]];
  }
  return items;
}
