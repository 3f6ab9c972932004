/**
 * The fuzzer's checks on one table, made after every command from what the
 * host serves and what its store holds, cheaply enough to run 100,000 times:
 * the log is read only from its last known event on, and a shadow table fed
 * each newly logged event (the fold services/host/replay.ts uses) must stay
 * in the very state the host serves. At the end of a game, the whole log is
 * replayed and its record verified.
 */
import { isDeepStrictEqual } from 'node:util';
import { verifyRecord } from '../../machines/record/verify.js';
import type { RevealedDeal } from '../../machines/fairness/fairDeal.js';
import { revealedDealsOf } from '../../machines/table/context.js';
import type { TableEvent } from '../../machines/table/events.js';
import { offer, phaseOf, resumeTable, type TableActor, type TableSnapshot } from '../../machines/table/snapshot.js';
import type { EventStore, StoredEvent } from '../../services/eventstore/eventStore.js';
import { foldLog, recordOfLog, replayLog } from '../../services/host/replay.js';
import type { TableService } from '../../services/host/tableService.js';
import { HAND_REVEALED, isMachineEvent, toTableEvent } from '../../services/host/tableLog.js';
import { upcast } from '../../services/host/upcasters.js';
import { canonicalFields, cardConservation, oneActorWhenExpected } from '../../drivers/tableChecks.js';

/**
 * crash: an exception escaped, a 5xx, a dropped connection. invariantBreak:
 * the log, the live state and the rules disagree. refusedButApplied: a
 * refused command changed the log or the state. wrongAnswer: a command was
 * answered other than the rules say (a malformed one accepted, a legal one
 * refused, the wrong status or message).
 */
export type FindingKind = 'crash' | 'invariantBreak' | 'refusedButApplied' | 'wrongAnswer';

export interface Finding {
  readonly kind: FindingKind;
  readonly tableId: string;
  readonly detail: string;
}

/** A command as the table saw it (the seat filled in by the gateway), and whether it was accepted, at which version. */
export interface SentCommand {
  readonly command: unknown;
  readonly acceptedAt: number | null;
}

type TableReads = Pick<TableService, 'snapshot'>;

export class TableWatch {
  private version: number;
  private lastEventText: string;
  private committed: TableSnapshot;
  private snapshotVersionSeen = 0;

  private constructor(
    private readonly host: TableReads,
    private readonly store: EventStore,
    readonly tableId: string,
    private readonly shadow: TableActor,
    log: readonly StoredEvent[],
    committed: TableSnapshot,
  ) {
    this.version = log.length;
    this.lastEventText = JSON.stringify(log.at(-1));
    this.committed = committed;
  }

  static async open(host: TableReads, store: EventStore, tableId: string): Promise<TableWatch> {
    const log = await store.read(tableId);
    const { actor } = foldLog(tableId, log);
    const watch = new TableWatch(host, store, tableId, actor, log, (await host.snapshot(tableId)).snapshot);
    return watch;
  }

  /** The state the host served at the last check. */
  get snapshot(): TableSnapshot {
    return this.committed;
  }

  get finished(): boolean {
    return phaseOf(this.committed) === 'gameOver';
  }

  /** Checks the table after `sent` (one command, or several sent together) were answered. */
  async afterStep(sent: readonly SentCommand[]): Promise<Finding[]> {
    const findings: Finding[] = [];
    const found = (kind: FindingKind, detail: string) => findings.push({ kind, tableId: this.tableId, detail });
    const anyRefused = sent.some((each) => each.acceptedAt === null);
    // Written only into findings: made on every command, it would cost more than the checks.
    const what = {
      toString: () =>
        sent
          .map((each) => `${short(each.command)} (${each.acceptedAt === null ? 'refused' : `accepted at ${each.acceptedAt}`})`)
          .join(', then '),
    };
    // One read gives the last event already checked and every event after it.
    const [last, ...added] = await this.store.read(this.tableId, this.version - 1);
    if (JSON.stringify(last) !== this.lastEventText) {
      found(anyRefused ? 'refusedButApplied' : 'invariantBreak', `event ${this.version} of the log changed after ${what}`);
    }
    const served = await this.host.snapshot(this.tableId);
    const stored = await this.store.version(this.tableId);
    if (stored !== this.version + added.length)
      found('invariantBreak', `the store is at version ${stored} with ${this.version + added.length} events read`);
    if (served.version !== stored) found('invariantBreak', `the host serves version ${served.version}; the store is at ${stored}`);
    added.forEach((event, i) => {
      if (event.seq !== this.version + 1 + i)
        found('invariantBreak', `event ${i + 1} appended after ${what} has seq ${event.seq}, not ${this.version + 1 + i}`);
    });
    const unexplained = this.matchAccepted(sent, added, found);
    if (unexplained.length > 0) {
      found(
        anyRefused ? 'refusedButApplied' : 'invariantBreak',
        `the log gained ${unexplained.map(short).join(', ')}, which no accepted command explains, after ${what}`,
      );
    }
    const lastAccepted = Math.max(0, ...sent.map((each) => each.acceptedAt ?? 0));
    if (lastAccepted > 0 && lastAccepted !== stored)
      found('invariantBreak', `the last command was accepted at version ${lastAccepted}; the log has ${stored} events`);

    if (added.length === 0) {
      if (served.snapshot !== this.committed && stateText(served.snapshot) !== stateText(this.committed)) {
        found('refusedButApplied', `the table's state changed with nothing logged after ${what}`);
      }
    } else {
      await this.followShadow(added, served.snapshot, what, found);
      for (const problem of [...cardConservation(served.snapshot.context), ...oneActorWhenExpected(served.snapshot)]) {
        found('invariantBreak', `after ${what}: ${problem}`);
      }
    }
    this.version = stored;
    this.lastEventText = JSON.stringify(added.at(-1) ?? last);
    this.committed = served.snapshot;
    return findings;
  }

  /**
   * The whole log replays to the live state, and its game record (finished
   * or not) passes the record verifier, which re-derives every score.
   */
  async atEnd(): Promise<Finding[]> {
    const findings: Finding[] = [];
    const found = (kind: FindingKind, detail: string) => findings.push({ kind, tableId: this.tableId, detail });
    this.shadow.stop();
    const log = await this.store.read(this.tableId);
    const served = await this.host.snapshot(this.tableId);
    try {
      const replayed = replayLog(this.tableId, log);
      if (replayed.version !== served.version)
        found('invariantBreak', `the log replays to version ${replayed.version}; the host serves ${served.version}`);
      if (stateText(replayed.snapshot) !== stateText(served.snapshot))
        found('invariantBreak', 'the whole log replays to another state than the host serves');
      const verification = verifyRecord(JSON.parse(JSON.stringify(recordOfLog(this.tableId, log))));
      for (const problem of verification.problems)
        found('invariantBreak', `the record does not verify: ${problem.field}: ${problem.message}`);
    } catch (error) {
      found('invariantBreak', `the log does not replay: ${(error as Error).message}`);
    }
    return findings;
  }

  /**
   * Pairs each event appended with the accepted command (or seat change) it stores
   * (canonical fields only, logged at or before the version it was accepted
   * at); anything else appended must be the host's deal or its reveal of a
   * scored hand's seed (checked against the shadow in followShadow). Returns
   * what is left.
   */
  private matchAccepted(
    sent: readonly SentCommand[],
    added: readonly StoredEvent[],
    found: (kind: FindingKind, detail: string) => void,
  ): StoredEvent[] {
    const waiting = sent.filter((each) => each.acceptedAt !== null);
    const unexplained: StoredEvent[] = [];
    for (const event of added) {
      if (event.type === 'hand.dealt' || event.type === HAND_REVEALED) continue;
      const logged = toTableEvent(event);
      const index = waiting.findIndex((each) => event.seq <= each.acceptedAt! && storesCommand(logged, each.command));
      if (index < 0) unexplained.push(event);
      else waiting.splice(index, 1);
    }
    for (const each of waiting)
      found('invariantBreak', `${short(each.command)} was accepted at ${each.acceptedAt} but the log does not hold it`);
    return unexplained;
  }

  /** Feeds the shadow the new events; it must take each, match a saved snapshot at its version, and end where the host is. */
  private async followShadow(
    added: readonly StoredEvent[],
    served: TableSnapshot,
    what: object,
    found: (kind: FindingKind, detail: string) => void,
  ): Promise<void> {
    const saved = await this.store.loadSnapshot(this.tableId);
    const checkSaved = saved !== null && saved.version > this.snapshotVersionSeen && saved.version > this.version;
    for (const event of added) {
      if (isMachineEvent(event) && !offer(this.shadow, toTableEvent(event))) {
        found('invariantBreak', `logged event ${event.seq} ${short(event)} is refused on replay (after ${what})`);
      }
      if (event.type === HAND_REVEALED) {
        // Read as the host reads it: in the current schema, without the schema the event was written in.
        const revealed = upcast(event).data as unknown as RevealedDeal;
        const scored = revealedDealsOf(this.shadow.getSnapshot().context).find((deal) => deal.index === revealed.index);
        if (!isDeepStrictEqual(scored, revealed))
          found(
            'invariantBreak',
            `logged event ${event.seq} reveals ${short(event)}, not the seed of hand ${revealed.index} as dealt (after ${what})`,
          );
      }
      if (checkSaved && event.seq === saved.version) {
        const resumed = resumeTable((saved.snapshot as { persisted: unknown }).persisted);
        if (stateText(resumed.getSnapshot()) !== stateText(this.shadow.getSnapshot())) {
          found('invariantBreak', `the snapshot saved at version ${saved.version} resumes to another state than the log replays to`);
        }
        resumed.stop();
        this.snapshotVersionSeen = saved.version;
      }
    }
    if (stateText(this.shadow.getSnapshot()) !== stateText(served)) {
      found('invariantBreak', `the log replays to another state than the host serves after ${what}`);
    }
  }
}

/** Whether a logged player event is `command` as the log must store it: its own fields, no others. */
function storesCommand(logged: TableEvent, command: unknown): boolean {
  try {
    return isDeepStrictEqual(logged, JSON.parse(JSON.stringify(canonicalFields(command as TableEvent))));
  } catch {
    return false;
  }
}

/** Value and context: what views, refusals and records are made of. */
export function stateText(snapshot: TableSnapshot): string {
  return JSON.stringify({ value: snapshot.value, status: snapshot.status, context: snapshot.context });
}

export function short(value: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.length > 200 ? `${text.slice(0, 200)}… (${text.length} characters)` : text;
}
