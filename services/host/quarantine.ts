/**
 * A quarantined table: its log holds an event the machine refuses. Only a
 * bug or a forged append puts one there, and the log forbids deletes, so it
 * stays; the table's game is undefined from that event on. Every command
 * and read of the table's state is refused, naming the event and why, and
 * changes nothing, until an operator repairs it (tableRepair.ts); the
 * operator may still read the log as it is.
 *
 * Each process remembers its verdicts with the version of the log they were
 * found at, so a quarantined table costs a look-up of its version per
 * request, not a fold of its whole log; the operator is told once, when a
 * table becomes quarantined.
 */
import { TABLE_EVENT_TYPES, type TableEvent } from '../../machines/table/events.js';
import type { GameName } from '../../machines/table/options.js';
import { explainRefusal } from '../../machines/table/refusal.js';
import type { TableSnapshot } from '../../machines/table/snapshot.js';
import type { TableSummary } from '../eventstore/eventStore.js';
import { TableRefusal } from './errors.js';

/** What the lobby lists as the phase of a quarantined table. */
const QUARANTINED_PHASE = 'quarantined';

export interface Quarantine {
  readonly tableId: string;
  /** The table's game, from its `table.created`. */
  readonly game: GameName;
  /** The seq of the first event of the log the machine refuses. */
  readonly seq: number;
  readonly eventType: string;
  /** Why the machine refuses it. */
  readonly reason: string;
}

export class TableQuarantined extends TableRefusal implements Quarantine {
  readonly tableId: string;
  readonly game: GameName;
  readonly seq: number;
  readonly eventType: string;
  readonly reason: string;

  constructor(quarantine: Quarantine) {
    const { tableId, seq, eventType, reason } = quarantine;
    super(
      'quarantined',
      `table ${tableId} is quarantined: logged event ${seq} (${eventType}) is refused on replay: ${reason}. ` +
        `Nothing at the table changes until an operator repairs it (POST /api/tables/${tableId}/repair, or npx suitors repair ${tableId}), which voids the refused events and lets the table play on`,
    );
    this.name = 'TableQuarantined';
    this.tableId = tableId;
    this.game = quarantine.game;
    this.seq = seq;
    this.eventType = eventType;
    this.reason = reason;
  }

  /** The fields alone, for a reply over the bus or a listing. */
  get quarantine(): Quarantine {
    const { tableId, game, seq, eventType, reason } = this;
    return { tableId, game, seq, eventType, reason };
  }
}

export function isTableQuarantined(error: unknown): error is TableQuarantined {
  return error instanceof TableQuarantined;
}

/** Why a table at `snapshot` refuses `event`, a logged one: in the rules' words where the refusal functions have them. */
export function reasonRefused(snapshot: TableSnapshot, event: TableEvent): string {
  if (!(TABLE_EVENT_TYPES as readonly string[]).includes(event.type)) {
    return `no machine takes an event of type ${JSON.stringify(event.type)}`;
  }
  return explainRefusal(snapshot, event)?.message ?? `the machine refuses it in state ${JSON.stringify(snapshot.value)}`;
}

/** The verdicts one process has found, each with the version of the log it was found at. */
export class QuarantineVerdicts {
  private readonly byTable = new Map<string, { readonly verdict: TableQuarantined; readonly version: number }>();

  constructor(private readonly onQuarantined: (verdict: TableQuarantined) => void) {}

  /** Remembers that the table's log, at `version`, is quarantined; tells the operator if it was not already, at that event. */
  found(verdict: TableQuarantined, version: number): void {
    const known = this.byTable.get(verdict.tableId);
    this.byTable.set(verdict.tableId, { verdict, version });
    if (known?.verdict.seq !== verdict.seq) this.onQuarantined(verdict);
  }

  /**
   * The verdict on the table while its log is still at the version it was
   * found at: nothing new to fold, so nothing can have repaired it. Null
   * when there is none, or the log has moved on (fold it again to know).
   */
  async standing(tableId: string, versionNow: () => Promise<number>): Promise<TableQuarantined | null> {
    const known = this.byTable.get(tableId);
    if (known === undefined) return null;
    return (await versionNow()) === known.version ? known.verdict : null;
  }

  isQuarantined(tableId: string): boolean {
    return this.byTable.has(tableId);
  }

  /** The table's log folds: it is no longer quarantined. */
  cleared(tableId: string): void {
    this.byTable.delete(tableId);
  }

  /** Every table found quarantined and not cleared since. */
  all(): Quarantine[] {
    return [...this.byTable.values()].map(({ verdict }) => verdict.quarantine);
  }
}

/**
 * The listing with each quarantined table shown as such: its real game, the
 * phase `quarantined`, and the refused event (`quarantine: { seq, reason }`),
 * whatever status its last append left.
 */
export function withQuarantines(tables: readonly TableSummary[], quarantines: readonly Quarantine[]): TableSummary[] {
  if (quarantines.length === 0) return [...tables];
  const byTable = new Map(quarantines.map((quarantine) => [quarantine.tableId, quarantine]));
  return tables.map((table) => {
    const quarantine = byTable.get(table.tableId);
    if (quarantine === undefined) return table;
    const { seq, reason } = quarantine;
    return { ...table, status: { ...table.status, game: quarantine.game, phase: QUARANTINED_PHASE, quarantine: { seq, reason } } };
  });
}
