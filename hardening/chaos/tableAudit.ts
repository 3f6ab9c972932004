/**
 * What the chaos run checks of every table once the faults are over, from
 * its log in JetStream: the log has no gap, it replays through the machine,
 * the cards of the hand in play are all where they should be, its game
 * record passes the record verifier (finished or not), and every command a
 * client saw acknowledged is in it, at its place.
 */
import { verifyRecord } from '../../machines/record/verify.js';
import { phaseOf } from '../../machines/table/snapshot.js';
import type { StoredEvent } from '../../services/eventstore/eventStore.js';
import { recordOfLog, replayLog } from '../../services/host/replay.js';
import { toTableEvent } from '../../services/host/tableLog.js';
import { cardConservation } from '../../drivers/tableChecks.js';
import type { AcknowledgedCommand } from '../../drivers/players/playerPool.js';

export interface TableAudit {
  readonly tableId: string;
  readonly finished: boolean;
  readonly events: number;
  /** What is wrong with the log itself: gaps, refusals on replay, cards astray, record problems. */
  readonly problems: readonly string[];
  /** Acknowledged commands the log does not hold, each said how. */
  readonly lost: readonly string[];
}

export function auditTable(tableId: string, log: readonly StoredEvent[], acknowledged: readonly AcknowledgedCommand[]): TableAudit {
  const problems: string[] = [];
  const gap = log.findIndex((event, index) => event.seq !== index + 1);
  if (gap >= 0) problems.push(`the log has a gap: event ${gap + 1} has seq ${log[gap].seq}`);
  let finished = false;
  try {
    const { snapshot } = replayLog(tableId, log);
    finished = phaseOf(snapshot) === 'gameOver';
    problems.push(...cardConservation(snapshot.context));
    const verification = verifyRecord(recordOfLog(tableId, log));
    for (const problem of verification.problems) problems.push(`record ${problem.field}: ${problem.message}`);
  } catch (error) {
    problems.push(`does not replay: ${(error as Error).message}`);
  }
  return {
    tableId,
    finished,
    events: log.length,
    problems,
    lost: acknowledged.map((ack) => missingFromLog(ack, log)).filter((why): why is string => why !== null),
  };
}

/**
 * Null when the log holds the command's event after the version it was sent
 * on and no later than the version it was acknowledged at (the change's
 * last event: a command's change may append more, e.g. the next deal);
 * else what is missing.
 */
export function missingFromLog(ack: AcknowledgedCommand, log: readonly StoredEvent[]): string | null {
  const { type, ...fields } = ack.command;
  const where = `table ${ack.tableId} seat ${ack.seat} ${type} acknowledged at version ${ack.version}`;
  if (log.length < ack.version) return `${where}: the log ends at ${log.length}`;
  const wanted = canonical({ ...fields, seat: ack.seat });
  for (const event of log.slice(ack.sentAtVersion, ack.version)) {
    if (event.type !== type) continue;
    // Read as the host reads it (upcast to the current schema, the schema mark left out), not as stored.
    const { type: _type, ...logged } = toTableEvent(event);
    if (canonical(logged) === wanted) return null;
  }
  return `${where}: no such event among events ${ack.sentAtVersion + 1}-${ack.version}`;
}

/** JSON with every object's keys sorted, so equal values read the same whatever order their keys were written in. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) =>
    typeof inner === 'object' && inner !== null && !Array.isArray(inner)
      ? Object.fromEntries(Object.entries(inner).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : inner,
  );
}
