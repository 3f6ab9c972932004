/**
 * How a table's events sit in its log: `table.created` first (the game, its
 * options, its rules version and machine fingerprint, and the fixed seed of
 * a reproducible table), then the machine's own events, each stored as
 * `{ seq, type, at, data }` with `data` the event less its type, plus the
 * schema it was written in (upcasters.ts). Events are read back through the
 * upcasters, so what comes out is always in the current schema.
 */
import { fingerprintOf } from '../../machines/games/fingerprint.js';
import { CURRENT_RULES, knowsRules, machineFor, unknownRulesMessage } from '../../machines/games/index.js';
import type { TableInput } from '../../machines/table/context.js';
import type { TableEvent } from '../../machines/table/events.js';
import { isGameName, type GameName } from '../../machines/table/options.js';
import type { NewEvent, StoredEvent } from '../eventstore/eventStore.js';
import { TableRefusal } from './errors.js';
import { upcast } from './upcasters.js';

export const TABLE_CREATED = 'table.created';
/** A seat's turn clock ran out; the move made for it follows in the same append. */
export const TURN_TIMED_OUT = 'turn.timedOut';
/** A hand was scored: its seed and commitment, made public (docs/fairness.md). */
export const HAND_REVEALED = 'hand.revealed';

/** A seat's contribution to the deal of a hand to come: `{ hand, seat, contribution }` (docs/fairness.md, fairDeals.ts). */
export const DEAL_CONTRIBUTED = 'deal.contributed';

/**
 * An operator repaired a quarantined table (tableRepair.ts): the machine
 * events it names, each refused by the machine, are void. They stay in the
 * log, as every acknowledged event does, and no fold takes them.
 */
export const TABLE_REPAIRED = 'table.repaired';

/** Events of the log that are the host's own record, not input to the machine. */
const HOST_EVENT_TYPES: readonly string[] = [TABLE_CREATED, TURN_TIMED_OUT, HAND_REVEALED, DEAL_CONTRIBUTED, TABLE_REPAIRED];

export function isMachineEvent(stored: StoredEvent): boolean {
  return !HOST_EVENT_TYPES.includes(stored.type);
}

export interface TableRepaired {
  /** The seqs of the events voided, in log order. */
  readonly voided: readonly number[];
  /** Why the machine refused each, in the same order. */
  readonly reasons: readonly string[];
}

/** The seqs every `table.repaired` of `log` voids. */
export function voidedIn(log: readonly StoredEvent[]): ReadonlySet<number> {
  const voided = new Set<number>();
  for (const stored of log) {
    if (stored.type !== TABLE_REPAIRED) continue;
    for (const seq of (upcast(stored).data as Partial<TableRepaired>).voided ?? []) voided.add(seq);
  }
  return voided;
}

/**
 * The events of `events` the machine takes, in order: neither the host's
 * own nor one a repair voids. Every fold of a log reads it through here.
 * `voided` comes from the whole log when `events` is only a part of it
 * (a replay cut at an event before the repair).
 */
export function machineEventsOf(events: readonly StoredEvent[], voided: ReadonlySet<number> = voidedIn(events)): StoredEvent[] {
  return events.filter((stored) => isMachineEvent(stored) && !voided.has(stored.seq));
}

export interface TableCreated extends TableInput {
  /**
   * A fixed seed every hand's seed is derived from, for tests and
   * reproducible games; absent at a table dealt from fresh secure
   * randomness. (Tables created before deals were provable always have one,
   * a secret random one, and keep deriving from it.)
   */
  readonly seed?: string;
  /**
   * The secret each hand's host secret is derived from at a table dealt from
   * secure randomness (dealer.ts), drawn at its creation so that every
   * hand's secret can be committed to before seats contribute. Absent at
   * tables created before contributions, and at forks.
   */
  readonly dealSecret?: string;
  /** Service settings that are not rules (e.g. a turn clock), kept with the table. */
  readonly settings?: Record<string, unknown>;
  /** The rules version the table plays by for its whole life (machines/games/rulebooks.ts). */
  readonly rules: number;
  /** The fingerprint of the machine the table was created with; absent at tables created before fingerprints. */
  readonly fingerprint?: string;
}

/** The rules a table created now plays by (the current ones; a fork keeps its original's), and its machine's fingerprint. */
export function rulesOfNewTable(game: GameName, rules: number = CURRENT_RULES): Pick<TableCreated, 'rules' | 'fingerprint'> {
  return { rules, fingerprint: fingerprintOf(machineFor(game, rules), game) };
}

export function createdEvent(created: TableCreated, at: string): NewEvent<TableCreated> {
  return { type: TABLE_CREATED, at, data: created };
}

export function toNewEvent(event: TableEvent, at: string): NewEvent {
  const { type, ...data } = event;
  return { type, at, data };
}

/** A logged machine event, in the current schema, as the machine takes it. */
export function toTableEvent(stored: StoredEvent): TableEvent {
  const current = upcast(stored);
  return { type: current.type, ...current.data } as TableEvent;
}

/**
 * The creation event of a log, in the current schema, checked: a log that
 * does not start with one is not a table's, and a table of rules this
 * release does not know (a newer release's) is refused, naming them, before
 * anything tries to play or replay it.
 */
export function tableCreatedOf(first: StoredEvent | undefined, tableId: string): TableCreated {
  const data = first === undefined ? undefined : (upcast(first).data as Partial<TableCreated>);
  if (first?.type !== TABLE_CREATED || !isGameName(data?.game)) {
    throw new Error(`the log of table ${tableId} does not start with ${TABLE_CREATED}`);
  }
  if (!knowsRules(data.rules)) throw new TableRefusal('newerRelease', `table ${tableId}: ${unknownRulesMessage(data.rules)}`);
  return data as TableCreated;
}
