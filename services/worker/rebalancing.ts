/**
 * Live tables shared fairly among the live workers, by hand-off between
 * moves, as cluster-sharding systems rebalance their shards: a worker
 * holding more than its share, ceil(tables / workers), hands the excess to
 * the workers holding fewer, a bounded number a second, the quietest tables
 * first. Each hand-off stops the table here between two of its moves (the
 * commands already queued served, its bots and clock stopped) and rewrites
 * its claim for the other worker, which takes it up at once and arms its
 * bots and clock from the log; the next command finds it there
 * (tableLeases.ts, `handOver`). A worker stopped by SIGTERM hands all its
 * tables so, spread over the others, before it ends its life.
 *
 * Loads are known without messages of their own: every worker keeps every
 * claim in view already (the owners bucket's watch), and the lives bucket
 * says who is running.
 */
import { isTableQuarantined } from '../host/quarantine.js';
import { fewAtATime } from '../tableQueues/fewAtATime.js';
import type { Claim } from './leaseBuckets.js';
import type { LifeLoad, SharedOwnership } from './tableOwnership.js';
import { giveBack, messageOf, type WorkerTables } from './workerTables.js';

/** Tables a worker hands on a second at most (WORKER_REBALANCE_PER_SECOND): each costs its new owner a take-up, about 3 ms of CPU. */
export const DEFAULT_REBALANCE_PER_SECOND = 50;
/** How often a worker compares its load with the others'. */
const ROUND_EVERY_MS = 1000;
/** Hand-offs under way at once in a round; a drain hands more at once, as the stopping worker wants out. */
const HAND_OFF_CONCURRENCY = 8;
const DRAIN_CONCURRENCY = 32;
/** Tables handed in taken up at once (read from snapshot and log), as a dead worker's are. */
const TAKE_UP_CONCURRENCY = 32;

/** So many tables to hand to that life. */
export interface HandOff {
  readonly to: Claim;
  readonly tables: number;
}

/**
 * What this worker (`loads[0]`) hands to each other life now, at most
 * `budget` tables: its excess over the fair share, shared among the lives
 * under it. Where several workers are over their share, each gives its part
 * of each deficit (by the order of their ids), so together they fill it and
 * no more.
 */
export function handOffPlan(loads: readonly LifeLoad[], budget: number): HandOff[] {
  const [mine, ...others] = loads;
  if (mine === undefined || others.length === 0) return [];
  const share = Math.ceil(loads.reduce((sum, load) => sum + load.tables, 0) / loads.length);
  let excess = Math.min(budget, mine.tables - share);
  const givers = loads
    .filter((load) => load.tables > share)
    .map((load) => load.life.worker)
    .sort();
  const rank = givers.indexOf(mine.life.worker);
  const plan: HandOff[] = [];
  for (const { life, tables } of [...others].sort((a, b) => a.tables - b.tables)) {
    const deficit = share - tables;
    if (excess <= 0 || deficit <= 0) continue;
    const part = Math.min(excess, Math.floor(deficit / givers.length) + (rank < deficit % givers.length ? 1 : 0));
    if (part > 0) plan.push({ to: life, tables: part });
    excess -= part;
  }
  return plan;
}

/** Where a stopping worker's tables go: each to the other life holding fewest at that point, so they spread evenly. */
export function drainPlan(
  loads: readonly LifeLoad[],
  tableIds: readonly string[],
): Array<{ readonly to: Claim; readonly tableIds: string[] }> {
  const others = loads.slice(1).map((load) => ({ to: load.life, tables: load.tables, tableIds: [] as string[] }));
  if (others.length === 0) return [];
  for (const tableId of tableIds) {
    const fewest = others.reduce((best, other) => (other.tables < best.tables ? other : best));
    fewest.tableIds.push(tableId);
    fewest.tables++;
  }
  return others.filter((other) => other.tableIds.length > 0).map(({ to, tableIds: handed }) => ({ to, tableIds: handed }));
}

export interface Rebalancing {
  /** Stops comparing loads, after the round under way. */
  stop(): Promise<void>;
}

/** Every ROUND_EVERY_MS hands this worker's excess on, `perSecond` tables a second at most (0: never). */
export function rebalanceTables(tables: WorkerTables, sharing: SharedOwnership, perSecond: number): Rebalancing {
  if (perSecond === 0) return { stop: () => Promise.resolve() };
  const budget = Math.max(1, Math.round((perSecond * ROUND_EVERY_MS) / 1000));
  let round: Promise<void> | null = null;
  const timer = setInterval(() => {
    round ??= handOffRound(tables, sharing, budget).finally(() => (round = null));
  }, ROUND_EVERY_MS);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await round;
    },
  };
}

async function handOffRound(tables: WorkerTables, sharing: SharedOwnership, budget: number): Promise<void> {
  try {
    const plan = handOffPlan(sharing.liveLoads(), budget);
    if (plan.length === 0) return;
    // The quietest first: a table idle for long is the least likely to have a command on its way.
    const quietest = tables.leases.heldTables().sort((a, b) => (tables.lastUsed.get(a) ?? 0) - (tables.lastUsed.get(b) ?? 0));
    const moves: Array<{ tableId: string; to: Claim }> = [];
    for (const { to, tables: count } of plan) {
      for (const tableId of quietest.splice(0, count)) moves.push({ tableId, to });
    }
    await fewAtATime(
      moves,
      HAND_OFF_CONCURRENCY,
      ({ tableId, to }) => handOff(tables, sharing, tableId, to),
      () => tables.isStopping(),
    );
  } catch (error) {
    tables.log(`${tables.workerId}: comparing its load with the other workers' failed: ${messageOf(error)}`);
  }
}

/** Hands every table this worker holds to the others, spread over them; for a worker that is stopping. */
export async function handOverAll(tables: WorkerTables, sharing: SharedOwnership): Promise<void> {
  const held = tables.leases.heldTables();
  const plan = drainPlan(sharing.liveLoads(), held);
  if (plan.length === 0) return;
  const moves = plan.flatMap(({ to, tableIds }) => tableIds.map((tableId) => ({ tableId, to })));
  await fewAtATime(moves, DRAIN_CONCURRENCY, ({ tableId, to }) => handOff(tables, sharing, tableId, to));
  const spread = plan.map(({ to, tableIds }) => `${tableIds.length} to ${to.worker}`).join(', ');
  tables.log(`${tables.workerId} handed its ${held.length} tables on as it stops: ${spread}`);
}

async function handOff(tables: WorkerTables, sharing: SharedOwnership, tableId: string, to: Claim): Promise<void> {
  // Let go in the table's queue: after the commands already there, before any that waits for the hand-off.
  const handed = await sharing.handOver(tableId, to, () => tables.host.letGo(tableId)).catch(() => false);
  // Not handed: the claim is still this worker's (its next command or sweep takes the table up again), or another's.
  if (!handed) return;
  tables.lastUsed.delete(tableId);
  tables.metrics?.handOff('out');
  tables.log(`${tables.workerId} handed ${tableId} to ${to.worker}`);
}

/** Takes up, a few at a time, every table another worker hands this one: its bots and clock go on here. */
export function takeUpHandedTables(tables: WorkerTables, sharing: SharedOwnership): void {
  const waiting: string[] = [];
  let running = 0;
  const pump = (): void => {
    while (running < TAKE_UP_CONCURRENCY && waiting.length > 0) {
      running++;
      void takeUpHanded(tables, waiting.shift()!).finally(() => {
        running--;
        pump();
      });
    }
  };
  sharing.onHandedIn((tableId) => {
    waiting.push(tableId);
    pump();
  });
}

async function takeUpHanded(tables: WorkerTables, tableId: string): Promise<void> {
  const { host, leases, workerId, log } = tables;
  if (tables.isStopping() || !leases.holds(tableId)) return;
  tables.lastUsed.set(tableId, Date.now());
  tables.metrics?.handOff('in');
  try {
    // A copy left here from an earlier claim may be behind the log.
    await host.passivate(tableId);
    await host.takeUp(tableId);
  } catch (error) {
    if (!isTableQuarantined(error)) log(`${workerId} could not take up ${tableId}, handed to it: ${messageOf(error)}`);
    await giveBack(tables, tableId);
  }
}
