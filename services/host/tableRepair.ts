/**
 * Repairing a quarantined table (quarantine.ts): its log is folded from the
 * start, every machine event the machine refuses is voided, to the end of
 * the log (there may be several), and one `table.repaired` naming them is
 * appended; the table plays on from the last good state, with the same id,
 * seats and tokens. The voided events stay in the log.
 *
 * A repair names no event: the host finds the refused ones itself, so a
 * repair can never void an event the machine takes, and no caller (a
 * gateway, in the distributed service) can rewrite a table's history with
 * one.
 */
import { startTable, type TableActor } from '../../machines/table/snapshot.js';
import type { NewEvent, StoredEvent } from '../eventstore/eventStore.js';
import { TableRefusal } from './errors.js';
import { applyLogEvents } from './replay.js';
import { TABLE_REPAIRED, tableCreatedOf, voidedIn, type TableCreated, type TableRepaired } from './tableLog.js';

export interface RepairPlan {
  readonly created: TableCreated;
  /** The table as its log stands with the refused events voided: where it plays on from. */
  readonly actor: TableActor;
  readonly repaired: TableRepaired;
}

/** The repair of table `tableId`, whose whole log is `log`; refused (notQuarantined) when the machine takes every event. */
export function planRepair(tableId: string, log: readonly StoredEvent[]): RepairPlan {
  const created = tableCreatedOf(log[0], tableId);
  const actor = startTable(created);
  const voided: number[] = [];
  const reasons: string[] = [];
  applyLogEvents(tableId, actor, log.slice(1), {
    voided: voidedIn(log),
    onRefused: ({ stored, reason }) => {
      voided.push(stored.seq);
      reasons.push(`event ${stored.seq} (${stored.type}): ${reason}`);
    },
  });
  if (voided.length === 0) {
    actor.stop();
    throw new TableRefusal(
      'notQuarantined',
      `table ${tableId} needs no repair: the machine takes every event of its ${log.length} (a repair only voids events the machine refuses)`,
    );
  }
  return { created, actor, repaired: { voided, reasons } };
}

export function repairedEvent(repaired: TableRepaired, at: string): NewEvent<TableRepaired> {
  return { type: TABLE_REPAIRED, at, data: repaired };
}
