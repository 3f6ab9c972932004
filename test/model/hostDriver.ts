/**
 * A third driver: the table lives in the table host service (TableHost) over
 * an in-memory event store, and every event of a path goes through the
 * host's command API, as the gateway's would: deals through `deal()` (the
 * host deals externally, so the model's own deals are the ones played),
 * everything else through `submit()`. A TableRefusal is a refusal; any other
 * error escapes and fails the test.
 *
 * Besides what the runner checks on every driver, this driver checks the
 * host's log after every command:
 * - accepted: the log grew by exactly the events the host says it appended
 *   (with external dealing, the command alone, stored with its canonical
 *   fields), nothing before them changed, and the version is the log length;
 * - refused: the log and the version are unchanged, and the refusal's kind
 *   and message are what explainRefusal says for the state it was sent in;
 * - on stop: a second host over the same store rebuilds the table (from the
 *   log, or a saved snapshot and the log after it), and the whole log folds,
 *   to the very state the first host serves.
 * A failed check throws a HostCheckFailure naming the command.
 */
import { isDeepStrictEqual } from 'node:util';
import type { TableInput } from '../../machines/table/context.js';
import type { TableEvent } from '../../machines/table/events.js';
import { explainRefusal } from '../../machines/table/refusal.js';
import type { TableSnapshot } from '../../machines/table/snapshot.js';
import type { EventStore, StoredEvent } from '../../services/eventstore/eventStore.js';
import { openLocalStorage } from '../../services/storage/storage.js';
import { isTableRefusal } from '../../services/host/errors.js';
import { TableHost, type TableHostOptions } from '../../services/host/tableHost.js';
import type { Accepted } from '../../services/host/tableService.js';
import { replayLog } from '../../services/host/replay.js';
import { isMachineEvent, toTableEvent } from '../../services/host/tableLog.js';
import { canonicalFields } from '../../drivers/tableChecks.js';
import type { DriverSnapshot, TableDriver } from './driver.js';

export class HostCheckFailure extends Error {
  constructor(
    readonly what: string,
    readonly problems: readonly string[],
  ) {
    super(`the host's log is wrong after ${what}:\n  ${problems.join('\n  ')}`);
    this.name = 'HostCheckFailure';
  }
}

/** What a host driver did, summed over every table it drove (for the report). */
export interface HostDriverStats {
  tables: number;
  accepted: number;
  refused: number;
  /** Events the host appended, the table.created events included. */
  eventsLogged: number;
  /** Refusals by the host's kind (malformed, notNow, illegal). */
  refusalKinds: Record<string, number>;
  /** Tables rebuilt from their log by a second host and found equal. */
  rebuilt: number;
  /** Of those, tables the second host resumed from a saved snapshot (and the log after it). */
  rebuiltFromSnapshot: number;
}

export function emptyHostStats(): HostDriverStats {
  return { tables: 0, accepted: 0, refused: 0, eventsLogged: 0, refusalKinds: {}, rebuilt: 0, rebuiltFromSnapshot: 0 };
}

export interface HostDriverOptions {
  /** Passed to the host: a persisted snapshot is saved after this many events (the host's default otherwise). */
  readonly snapshotEvery?: number;
  /** Counts are added here (shared between drivers of one test file). */
  readonly stats?: HostDriverStats;
  /**
   * Called on stop with the machine events of the table's log: exactly what
   * the host's actor took (the host checks every command before its actor
   * sees it), e.g. to replay them through an instrumented machine for coverage.
   */
  readonly onLog?: (input: TableInput, events: TableEvent[]) => void;
  /** The store of each table (a fresh memory store by default); tests of the driver's checks wrap it. */
  readonly createStore?: () => EventStore;
  /** The host under test (the production TableHost by default); tests of the driver's checks break it. */
  readonly createHost?: (options: TableHostOptions) => TableHost;
}

/** What survives the store's JSON: undefined fields vanish. */
function asJson(value: unknown): unknown {
  return value === undefined ? undefined : JSON.parse(JSON.stringify(value));
}

function short(value: unknown): string {
  const text = JSON.stringify(value) ?? 'undefined';
  return text.length > 300 ? `${text.slice(0, 300)}…` : text;
}

/** Events as "#seq type data", without the times, for messages that must read the same on every run. */
function listEvents(events: readonly StoredEvent[]): string {
  return events.length === 0 ? 'nothing' : events.map((event) => `#${event.seq} ${event.type} ${short(event.data)}`).join(', ');
}

function describeCommand(event: TableEvent): string {
  return `${event.type} ${short(event)}`;
}

/** Drives a table through the table host's command API (services/host/tableHost.ts). */
export class HostDriver implements TableDriver {
  private store: EventStore | null = null;
  private host: TableHost | null = null;
  private tableId: string | null = null;
  private input: TableInput | null = null;
  /** The log as this driver has seen it grow, event by event. */
  private log: StoredEvent[] = [];
  private readonly stats: HostDriverStats;

  constructor(private readonly options: HostDriverOptions = {}) {
    this.stats = options.stats ?? emptyHostStats();
  }

  /** The counts of this driver (or the shared ones it was given). */
  get counts(): HostDriverStats {
    return this.stats;
  }

  async start(input: TableInput): Promise<void> {
    await this.release();
    this.store = this.options.createStore?.() ?? openLocalStorage({ kind: 'memory' }).store;
    const hostOptions: TableHostOptions = { store: this.store, dealing: 'external', snapshotEvery: this.options.snapshotEvery };
    this.host = this.options.createHost?.(hostOptions) ?? new TableHost(hostOptions);
    // No players: the path's own seat.joined events take the seats. The options are already parsed; the host parses them again.
    const created = await this.host.createTable({ game: input.game, options: input.options, cardsPerSeat: input.cardsPerSeat });
    this.tableId = created.tableId;
    this.input = input;
    this.stats.tables++;
    const problems: string[] = [];
    const log = await this.store.read(created.tableId);
    if (!isDeepStrictEqual(asJson(created.events), log))
      problems.push(`createTable says it appended ${listEvents(asJson(created.events) as StoredEvent[])}; the log is ${listEvents(log)}`);
    if (log.length !== 1 || log[0].type !== 'table.created')
      problems.push(`a new table's log is ${listEvents(log)}, not one table.created event`);
    const data = log[0]?.data as { game?: unknown; options?: unknown; cardsPerSeat?: unknown } | undefined;
    if (
      data?.game !== input.game ||
      !isDeepStrictEqual(data?.options, asJson(input.options)) ||
      data?.cardsPerSeat !== input.cardsPerSeat
    ) {
      problems.push(`table.created records ${short(data)} for the input ${short(input)}`);
    }
    problems.push(...(await this.versionProblems(created.version, log.length)));
    this.log = log;
    this.stats.eventsLogged += log.length;
    if (problems.length > 0) throw new HostCheckFailure('createTable', problems);
  }

  async send(event: TableEvent): Promise<boolean> {
    const { host, tableId } = this.live();
    const before = (await host.snapshot(tableId)).snapshot;
    let accepted: Accepted;
    try {
      accepted = event.type === 'hand.dealt' ? await host.deal(tableId, event) : await host.submit(tableId, event);
    } catch (error) {
      if (!isTableRefusal(error)) throw error;
      const problems = await this.refusalProblems(before, event, error.kind, error.message);
      this.stats.refused++;
      this.stats.refusalKinds[error.kind] = (this.stats.refusalKinds[error.kind] ?? 0) + 1;
      if (problems.length > 0) throw new HostCheckFailure(`the refused ${describeCommand(event)}`, problems);
      return false;
    }
    const problems = await this.acceptedProblems(event, accepted);
    this.stats.accepted++;
    this.stats.eventsLogged += accepted.events.length;
    if (problems.length > 0) throw new HostCheckFailure(`the accepted ${describeCommand(event)}`, problems);
    return true;
  }

  async snapshot(): Promise<DriverSnapshot> {
    const { host, tableId } = this.live();
    return (await host.snapshot(tableId)).snapshot as unknown as DriverSnapshot;
  }

  /**
   * Checks that the log rebuilds the table, hands the log to `onLog`, then
   * releases the host. (The runner stops a driver after a path that passed.)
   */
  async stop(): Promise<void> {
    const { host, store, tableId, input } = this;
    this.host = null;
    this.store = null;
    this.tableId = null;
    this.input = null;
    this.log = [];
    if (host === null || store === null || tableId === null || input === null) return;
    let log: StoredEvent[];
    try {
      const served = (await host.snapshot(tableId)).snapshot;
      // The production host, whatever host was under test: the log alone must rebuild the table.
      const second = new TableHost({ store, dealing: 'external' });
      try {
        const rebuilt = await second.snapshot(tableId);
        const problems: string[] = [];
        if (rebuilt.version !== (await store.version(tableId))) problems.push(`a second host rebuilds version ${rebuilt.version}`);
        const saved = await store.loadSnapshot(tableId);
        if (!isDeepStrictEqual(stateOf(rebuilt.snapshot), stateOf(served))) {
          problems.push(
            `a second host rebuilds ${short(stateOf(rebuilt.snapshot))} from the ${saved === null ? 'log' : `snapshot at ${saved.version} and the log`}; the first serves ${short(stateOf(served))}`,
          );
        }
        // With a snapshot saved the second host read only the log's tail: fold the whole log too.
        log = await store.read(tableId);
        const folded = replayLog(tableId, log).snapshot;
        if (!isDeepStrictEqual(stateOf(folded), stateOf(served))) {
          problems.push(`the whole log folds to ${short(stateOf(folded))}; the host serves ${short(stateOf(served))}`);
        }
        if (problems.length > 0) throw new HostCheckFailure('the path (rebuilding the table from its log)', problems);
        this.stats.rebuilt++;
        if (saved !== null) this.stats.rebuiltFromSnapshot++;
      } finally {
        await second.close();
      }
      this.options.onLog?.(input, log.filter(isMachineEvent).map(toTableEvent));
    } finally {
      await host.close();
    }
  }

  /** Drops the table without checks (a path that failed leaves its table behind). */
  private async release(): Promise<void> {
    const host = this.host;
    this.host = null;
    this.store = null;
    this.tableId = null;
    this.input = null;
    this.log = [];
    await host?.close();
  }

  private live(): { host: TableHost; store: EventStore; tableId: string } {
    if (this.host === null || this.store === null || this.tableId === null) throw new Error('the driver has no table: call start() first');
    return { host: this.host, store: this.store, tableId: this.tableId };
  }

  /** The version the host reports and the store's both equal the log's length. */
  private async versionProblems(reported: number | null, length: number): Promise<string[]> {
    const { host, store, tableId } = this.live();
    const problems: string[] = [];
    const served = (await host.snapshot(tableId)).version;
    const stored = await store.version(tableId);
    if (reported !== null && reported !== length) problems.push(`the host reports version ${reported}; the log has ${length} events`);
    if (served !== length) problems.push(`the host serves version ${served}; the log has ${length} events`);
    if (stored !== length) problems.push(`the store is at version ${stored}; the log has ${length} events`);
    return problems;
  }

  private async acceptedProblems(event: TableEvent, accepted: Accepted): Promise<string[]> {
    const { host, tableId } = this.live();
    const problems: string[] = [];
    const log = await host.events(tableId);
    const kept = log.slice(0, this.log.length);
    const added = log.slice(this.log.length);
    if (!isDeepStrictEqual(kept, this.log)) problems.push('events logged before the command changed');
    if (accepted.tableId !== tableId) problems.push(`accepted for table ${accepted.tableId}`);
    if (!isDeepStrictEqual(added, asJson(accepted.events))) {
      const said = listEvents(asJson(accepted.events) as StoredEvent[]);
      const found = listEvents(added);
      problems.push(`the host says it appended ${said}; the log grew by ${found}${said === found ? ' (their times differ)' : ''}`);
    }
    // The host deals externally, so it owes the table nothing after a command: the command is the whole append.
    if (added.length !== 1) problems.push(`the log grew by ${added.length} events, not by the command alone`);
    const last = added[added.length - 1];
    if (last !== undefined) {
      const stored = toTableEvent(last);
      if (!isDeepStrictEqual(stored, asJson(canonicalFields(event))))
        problems.push(`the log stores ${short(stored)} for the command ${short(event)}`);
    }
    added.forEach((each, i) => {
      if (each.seq !== this.log.length + i + 1)
        problems.push(`event ${i + 1} of the append has seq ${each.seq}, not ${this.log.length + i + 1}`);
    });
    problems.push(...(await this.versionProblems(accepted.version, log.length)));
    this.log = log;
    return problems;
  }

  private async refusalProblems(before: TableSnapshot, event: TableEvent, kind: string, message: string): Promise<string[]> {
    const { host, tableId } = this.live();
    const problems: string[] = [];
    const log = await host.events(tableId);
    if (!isDeepStrictEqual(log, this.log)) problems.push(`the log changed from ${this.log.length} to ${log.length} events`);
    problems.push(...(await this.versionProblems(null, log.length)));
    const explained = explainRefusal(before, event);
    if (explained === null) problems.push(`the host refused it (${kind}: ${message}); explainRefusal finds nothing wrong`);
    else {
      if (explained.kind !== kind) problems.push(`the host's refusal is ${kind}; explainRefusal says ${explained.kind}`);
      if (explained.message !== message) problems.push(`the host says "${message}"; explainRefusal says "${explained.message}"`);
    }
    return problems;
  }
}

function stateOf(snapshot: TableSnapshot): unknown {
  return asJson({ value: snapshot.value, status: snapshot.status, context: snapshot.context });
}
