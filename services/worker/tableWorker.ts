/**
 * A table worker: serves, over NATS, the commands of the tables it owns
 * (services/worker/README.md), with a TableHost inside. Every worker listens
 * to `tables.*.cmd` in one queue group, so an undirected command reaches one
 * of them, and to `tables.*.cmd.<its id>` for commands addressed to it. A
 * worker that gets a command for a table nobody owns claims the table and
 * serves it; one owned by another worker it forwards there, once. The
 * accepted events are the log's (JetStream: messages on `tables.<id>.events`),
 * which gateways follow; the reply carries them too.
 *
 * The owner of a table also plays its bots and runs its turn clock (the
 * host's autopilot), and only while it holds the table's lease. Every
 * worker looks out for tables whose owner's life is gone and takes up those
 * with a bot move or a timeout to come, so a table never waits for a
 * command to find a new owner.
 */
import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import type { Msg, NatsConnection, Subscription } from '@nats-io/nats-core';
import { isVersionConflict, type EventStore } from '../eventstore/eventStore.js';
import { isTableRefusal, TableRefusal } from '../host/errors.js';
import { isTableQuarantined } from '../host/quarantine.js';
import { TableHost } from '../host/tableHost.js';
import type { Accepted } from '../host/tableService.js';
import { DEFAULT_BOT_DELAY_MS } from '../host/autopilot.js';
import { fewAtATime } from '../tableQueues/fewAtATime.js';
import { isNoResponders } from '../nats/natsErrors.js';
import {
  decodeRequest,
  encode,
  isTableUnavailable,
  replyOfError,
  TableUnavailable,
  type NewTableRequest,
  type TableCommandRequest,
  type TableReply,
} from '../bus/protocol.js';
import { isRoutableTableId, tableSubjects, WORKER_QUEUE } from '../bus/subjects.js';
import { DEFAULT_LEASE_TTL_MS, leaseTtlOf, openLeaseBuckets, type LeaseBuckets } from './leaseBuckets.js';
import { checkNewTable, checkSeatCommand, DEFAULT_WORKER_LIMITS, type WorkerRequestLimits } from './requestChecks.js';
import { NoLease, TableLeases, type TableOwnership } from './tableLeases.js';

export interface TableWorkerOptions {
  readonly nc: NatsConnection;
  /** The shared event log (JetStream in production); the worker appends with expected versions. */
  readonly store: EventStore;
  /** A subject token unique among running workers; made from the host name, pid and a random suffix by default. */
  readonly workerId?: string;
  /** How long a worker's lease outlives its last renewal: the longest a crashed worker's tables wait for a new owner. */
  readonly leaseTtlMs?: number;
  readonly renewEveryMs?: number;
  /** Replicas of the lease buckets when this worker creates them (3 on a 3-node cluster). */
  readonly leaseReplicas?: number;
  /** A table with no command for this long is passivated and its claim given up. */
  readonly idleReleaseMs?: number;
  /** A snapshot is written after this many events since the last (WORKER_SNAPSHOT_EVERY by default). */
  readonly snapshotEvery?: number;
  /** How long to wait for the owner when forwarding a command to it. */
  readonly forwardTimeoutMs?: number;
  /** Wait before each bot move, in ms (SUITORS_BOT_DELAY_MS; 600 by default, 0 in tests). */
  readonly botDelayMs?: number;
  /** How often to look for tables whose owner is gone; a quarter of the lease TTL (at most 500 ms) by default. */
  readonly orphanSweepMs?: number;
  readonly log?: (line: string) => void;
  /** The deployment's subject prefix (NATS_PREFIX), the gateways' too. */
  readonly prefix?: string;
  /** Names the lease buckets (`<namespace>-worker-leases`, `<namespace>-table-owners`): the event stream's name. */
  readonly leaseNamespace?: string;
  /**
   * Who owns which table: the KV leases by default. The fault tests put a
   * worker here that is told every table is its own, to show the log's
   * expected version still lets only one of two such workers append.
   */
  readonly ownership?: (onLost: (tableId: string, why: string) => void) => Promise<TableOwnership>;
  /** What a new table may ask for (requestChecks.ts): the gateway's own limits, held again here. */
  readonly limits?: WorkerRequestLimits;
}

export interface TableWorker {
  readonly workerId: string;
  /** The tables this worker owns (and may serve) now. */
  ownedTables(): string[];
  /** Stops taking commands, finishes those under way, gives up every lease (so others take over at once) and closes the host. */
  stop(): Promise<void>;
}

export const DEFAULT_IDLE_RELEASE_MS = 5 * 60_000;
const DEFAULT_FORWARD_TIMEOUT_MS = 4000;
/** Orphaned tables taken up at once: a dead worker's thousand tables are read from the log a few at a time. */
const ADOPT_CONCURRENCY = 32;
/**
 * Snapshots four times as often as the embedded host: taking a dead
 * worker's tables up reads each one's events after its snapshot, a
 * JetStream request per append, and at 25 a take-up costs the worker about
 * 3 ms of CPU where at 100 it cost 7 (bench/takeover.ts). The price is a
 * 6 KB KV write per ~20 appends, which no answer waits for.
 */
export const WORKER_SNAPSHOT_EVERY = 25;

export function newWorkerId(): string {
  const host = hostname()
    .replace(/[^A-Za-z0-9_-]/g, '-')
    .slice(0, 30);
  return `w-${host}-${process.pid}-${randomBytes(3).toString('hex')}`;
}

export async function startTableWorker(options: TableWorkerOptions): Promise<TableWorker> {
  const { nc, store } = options;
  const workerId = options.workerId ?? newWorkerId();
  if (!isRoutableTableId(workerId)) throw new RangeError(`worker id ${JSON.stringify(workerId)} must be letters, digits, - and _`);
  const wantedTtlMs = options.leaseTtlMs ?? DEFAULT_LEASE_TTL_MS;
  const idleReleaseMs = options.idleReleaseMs ?? DEFAULT_IDLE_RELEASE_MS;
  const forwardTimeoutMs = options.forwardTimeoutMs ?? DEFAULT_FORWARD_TIMEOUT_MS;
  const log = options.log ?? (() => undefined);
  const subjects = tableSubjects(options.prefix);
  const host = new TableHost({
    store,
    snapshotEvery: options.snapshotEvery ?? WORKER_SNAPSHOT_EVERY,
    onQuarantined: (verdict) => log(`${workerId}: ${verdict.message}`),
    autopilot: {
      botDelayMs: options.botDelayMs ?? DEFAULT_BOT_DELAY_MS,
      // Fenced twice: the lease says who may move, and the log's expected version refuses a deposed owner's move.
      mayAct: (tableId) => leases.holds(tableId),
      // The next sweep takes the table up again if this worker still holds it, or takes it if nobody does.
      onMoveLost: (tableId) => toTakeUp.add(tableId),
      onError: (error, tableId) => {
        if (isVersionConflict(error)) void leases.verify(tableId);
        else log(`${workerId}: table ${tableId} could not move by itself: ${(error as Error)?.message ?? String(error)}`);
      },
    },
  });
  const lastUsed = new Map<string, number>();
  const underWay = new Set<Promise<void>>();
  /**
   * Tables the next sweep must take up though no dead life names them: new
   * tables this worker could not claim (NATS trouble), and tables whose owed
   * move was lost (nothing is armed for them any more).
   */
  const toTakeUp = new Set<string>();
  let stopping = false;
  const onLost = (tableId: string, why: string): void => {
    log(`${workerId} stops serving ${tableId}: ${why}`);
    dropTable(tableId);
  };
  const { leases, leaseTtlMs } =
    options.ownership !== undefined
      ? { leases: await options.ownership(onLost), leaseTtlMs: wantedTtlMs }
      : await startLeases(nc, workerId, wantedTtlMs, options, onLost, log);

  /** Forgets the table's actor (it may be stale now) and stops its bots and clock; the next owner rebuilds it from the log. */
  function dropTable(tableId: string): void {
    lastUsed.delete(tableId);
    host.letGo(tableId).catch((error: unknown) => log(`${workerId} could not passivate ${tableId}: ${(error as Error).message}`));
  }

  function respond(msg: Msg, reply: TableReply): void {
    msg.respond(encode(reply));
  }

  async function serveCommand(msg: Msg, request: TableCommandRequest): Promise<void> {
    const { tableId } = request;
    if (!isRoutableTableId(tableId) || subjects.tableIdOf(msg.subject) !== tableId) throw unknownTable(tableId);
    // Before any claim: a command no seat's holder sent takes nothing, not even a lease.
    if (request.op === 'submit') checkSeatCommand(request.args[0], holderOf(request.args[1]));
    if (!leases.holds(tableId)) {
      // No claim for a table that does not exist: a made-up id would leave its mark in the owners bucket.
      if ((await store.version(tableId)) === 0) throw unknownTable(tableId);
      const take = await leases.take(tableId);
      if (!take.taken) {
        await forwardToOwner(msg, request, take.owner);
        return;
      }
      // Newly claimed: a copy left from an earlier claim may be behind the log.
      if (take.fresh) await host.passivate(tableId);
    }
    lastUsed.set(tableId, Date.now());
    try {
      const accepted =
        request.op === 'repairTable'
          ? await host.repair(tableId)
          : await host.submit(tableId, request.args[0], holderOf(request.args[1]), request.seenVersion);
      respond(msg, { ok: true, worker: workerId, result: accepted });
    } catch (error) {
      if (isTableRefusal(error) && error.kind === 'unknownTable') {
        lastUsed.delete(tableId);
        await leases.release(tableId);
      }
      // Someone else appended to a table this worker holds: make sure it still does before serving it again.
      if (isVersionConflict(error)) void leases.verify(tableId);
      respond(msg, replyOfError(workerId, error, isTableRefusal(error) ? await versionOf(tableId) : undefined));
    }
  }

  async function versionOf(tableId: string): Promise<number | undefined> {
    try {
      return (await host.snapshot(tableId)).version;
    } catch {
      return undefined;
    }
  }

  /** Passes the command to the worker holding the table's claim, and its answer back; never twice. */
  async function forwardToOwner(msg: Msg, request: TableCommandRequest, owner: string): Promise<void> {
    const { tableId } = request;
    if (request.forwardedBy !== undefined || !isRoutableTableId(owner)) {
      throw new TableUnavailable(`table ${tableId} is owned by ${owner}, which did not take the command; try again`);
    }
    try {
      const answer = await nc.request(subjects.commandFor(tableId, owner), encode({ ...request, forwardedBy: workerId }), {
        timeout: forwardTimeoutMs,
      });
      msg.respond(answer.data);
    } catch (error) {
      const why = isNoResponders(error) ? 'is not running' : 'did not answer in time';
      throw new TableUnavailable(`table ${tableId} is owned by ${owner}, which ${why}; its lease expires within ${leaseTtlMs} ms`);
    }
  }

  async function serveNewTable(msg: Msg, request: NewTableRequest): Promise<void> {
    try {
      const accepted = await makeNewTable(host, request, options.limits ?? DEFAULT_WORKER_LIMITS);
      // The table is made and durable, so it is answered as made whatever happens to its claim: a sweep finds it an owner.
      await ownNewTable(accepted.tableId).catch(() => toTakeUp.add(accepted.tableId));
      respond(msg, { ok: true, worker: workerId, result: accepted });
    } catch (error) {
      respond(msg, replyOfError(workerId, error));
    }
  }

  /** Claims a table this worker has just made, and keeps it; or, when it cannot, leaves it to the next sweep. */
  async function ownNewTable(tableId: string): Promise<void> {
    // A new id nobody else knows yet: claiming it cannot meet another owner.
    const take = await leases.take(tableId).catch(() => ({ taken: false as const, owner: '' }));
    if (take.taken) {
      lastUsed.set(tableId, Date.now());
      // Armed before the claim was: a bot move that came first was dropped.
      await host.takeUp(tableId);
    } else {
      // Nobody holds the new table: its bots wait until a sweep (or a command) finds it an owner.
      toTakeUp.add(tableId);
      await host.letGo(tableId);
    }
  }

  function handle(msg: Msg): void {
    const request = decodeRequest(msg);
    const work = (async () => {
      if (typeof request === 'string') return respond(msg, replyOfError(workerId, new TableRefusal('malformed', request)));
      if (stopping) throw new TableUnavailable(`worker ${workerId} is stopping; try again`);
      if (request.op === 'createTable' || request.op === 'importRecord' || request.op === 'forkTable') return serveNewTable(msg, request);
      return serveCommand(msg, request);
    })().catch((error: unknown) => {
      respond(msg, replyOfError(workerId, isTableUnavailable(error) ? error : unavailableOf(error)));
    });
    underWay.add(work);
    void work.finally(() => underWay.delete(work));
  }

  const callback = (error: Error | null, msg: Msg): void => {
    if (error === null) handle(msg);
  };
  const subscriptions: Subscription[] = [
    nc.subscribe(subjects.anyCommand, { queue: WORKER_QUEUE, callback }),
    nc.subscribe(subjects.commandsFor(workerId), { callback }),
    nc.subscribe(subjects.create, { queue: WORKER_QUEUE, callback }),
  ];
  await nc.flush();

  const idleTimer = setInterval(
    () => {
      const cutoff = Date.now() - idleReleaseMs;
      for (const [tableId, used] of lastUsed) {
        // A table with a bot move or timeout to come is not idle: letting it go would leave it to nobody.
        if (used > cutoff || host.hasMovesToCome(tableId)) continue;
        lastUsed.delete(tableId);
        void host.letGo(tableId).then(
          () => leases.release(tableId),
          () => leases.release(tableId),
        );
      }
    },
    Math.min(idleReleaseMs, 60_000),
  );
  idleTimer.unref();

  /**
   * Takes up a table whose owner is gone, if it has a bot move or a timeout
   * to come; one that awaits only people is given back at once (its next
   * command finds it an owner), so a dead worker's idle tables are not hoarded.
   */
  async function adopt(tableId: string): Promise<void> {
    const take = await leases.take(tableId).catch(() => null);
    if (take === null) return; // no life now: the next sweep tries again
    toTakeUp.delete(tableId);
    if (!take.taken) return;
    try {
      if (take.fresh) await host.passivate(tableId);
      await host.takeUp(tableId);
    } catch (error) {
      // A quarantined table was told of once already, by the host (onQuarantined).
      if (!isTableQuarantined(error)) log(`${workerId} could not take up ${tableId}: ${(error as Error).message}`);
      await host.letGo(tableId).catch(() => undefined);
      await leases.release(tableId);
      return;
    }
    // A command that came meanwhile (lastUsed) keeps the table too: it may have just armed a bot.
    if (host.hasMovesToCome(tableId) || lastUsed.has(tableId)) {
      lastUsed.set(tableId, Date.now());
      log(`${workerId} took up ${tableId}, whose owner is gone`);
    } else {
      await host.letGo(tableId).catch(() => undefined);
      await leases.release(tableId);
    }
  }

  let sweeping: Promise<void> | null = null;
  function sweepOrphans(): Promise<void> {
    sweeping ??= (async () => {
      // In an order of this worker's own, so workers taking up a dead one's tables at once mostly take different ones.
      const orphans = shuffled([...toTakeUp, ...(await leases.orphans())]);
      await fewAtATime(
        orphans,
        ADOPT_CONCURRENCY,
        (tableId) => adopt(tableId).catch((error: unknown) => log(`${workerId} could not take up ${tableId}: ${(error as Error).message}`)),
        () => stopping,
      );
    })()
      .catch((error: unknown) => log(`${workerId}: looking for tables whose owner is gone failed: ${(error as Error).message}`))
      .finally(() => (sweeping = null));
    return sweeping;
  }
  const orphanTimer = setInterval(
    () => void sweepOrphans(),
    options.orphanSweepMs ?? Math.max(100, Math.min(500, Math.floor(leaseTtlMs / 4))),
  );
  orphanTimer.unref();
  void sweepOrphans();

  // A refused move of the table's own is worth a line: the chaos run counts them (a second owner's move, a bot's bug).
  host.onOwnMove(({ tableId, source, outcome }) => {
    if (outcome !== 'accepted') log(`${workerId}: ${source} move at ${tableId} refused (${outcome.refused})`);
  });
  log(`${workerId} serving tables (lease TTL ${leaseTtlMs} ms)`);
  return {
    workerId,
    ownedTables: () => leases.heldTables().filter((tableId) => leases.holds(tableId)),
    async stop() {
      stopping = true;
      clearInterval(idleTimer);
      clearInterval(orphanTimer);
      await sweeping;
      await Promise.allSettled(subscriptions.map((subscription) => subscription.drain()));
      await Promise.allSettled([...underWay]);
      await host.close();
      await leases.stop(true);
      log(`${workerId} stopped`);
    },
  };
}

async function startLeases(
  nc: NatsConnection,
  workerId: string,
  wantedTtlMs: number,
  options: TableWorkerOptions,
  onLost: (tableId: string, why: string) => void,
  log: (line: string) => void,
): Promise<{ leases: TableOwnership; leaseTtlMs: number }> {
  const buckets = await openLeaseBucketsPatiently(nc, wantedTtlMs, options.leaseReplicas ?? 1, options.leaseNamespace);
  // The lives bucket's max age is what expires leases; a bucket made earlier with another TTL keeps its own.
  const leaseTtlMs = (await leaseTtlOf(buckets)) || wantedTtlMs;
  if (leaseTtlMs !== wantedTtlMs)
    log(`${workerId}: the lease bucket expires leases after ${leaseTtlMs} ms, not ${wantedTtlMs}; using that`);
  const leases = await TableLeases.start({
    buckets,
    workerId,
    ttlMs: leaseTtlMs,
    ...(options.renewEveryMs === undefined ? {} : { renewEveryMs: options.renewEveryMs }),
    onLost,
    log,
    presence: nc,
  });
  return { leases, leaseTtlMs };
}

/** Opens the lease buckets, waiting (up to 30 s) for a cluster that is still electing its JetStream leaders. */
async function openLeaseBucketsPatiently(nc: NatsConnection, ttlMs: number, replicas: number, namespace?: string): Promise<LeaseBuckets> {
  const giveUpAt = Date.now() + 30_000;
  for (;;) {
    try {
      return await openLeaseBuckets(nc, ttlMs, replicas, namespace);
    } catch (error) {
      if (Date.now() >= giveUpAt) throw error;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
}

function makeNewTable(host: TableHost, request: NewTableRequest, limits: WorkerRequestLimits): Promise<Accepted> {
  switch (request.op) {
    case 'createTable':
      checkNewTable(request.args[0], limits);
      return host.createTable(request.args[0]);
    case 'importRecord':
      return host.importRecord(request.args[0]);
    case 'forkTable': {
      const [tableId, fork] = request.args;
      // The original is only read, from the shared log; a made-up id is refused before any read.
      if (typeof tableId !== 'string' || !isRoutableTableId(tableId)) return Promise.reject(unknownTable(String(tableId)));
      return host.forkTable(tableId, fork);
    }
  }
}

function shuffled<T>(items: T[]): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [items[i], items[j]] = [items[j], items[i]];
  }
  return items;
}

function unknownTable(tableId: string): TableRefusal {
  return new TableRefusal('unknownTable', `there is no table ${JSON.stringify(tableId)}`);
}

/** NATS trouble while taking a lease or forwarding: nothing was done, so the caller may try again. */
function unavailableOf(error: unknown): Error {
  if (isTableRefusal(error) || isVersionConflict(error)) return error as Error;
  if (error instanceof NoLease) return new TableUnavailable(`${error.message}; try again`);
  return new TableUnavailable(`the table could not be served now (${(error as Error)?.message ?? String(error)}); try again`);
}

/** A holder from the wire; anything but a string is a tenure no seat has, so it is refused, never skipped. */
function holderOf(value: unknown): string | undefined {
  return value === undefined ? undefined : String(value);
}
