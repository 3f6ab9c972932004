/**
 * What a gateway needs of the tables, wherever they live: the in-process
 * TableHost (embedded) or a client of table workers over NATS (distributed,
 * bus/remoteTables.ts) offers the same calls. Only an in-process host has
 * moves of its own to report (its tables' bots and clocks); on NATS the
 * workers make them.
 */
import type { Context } from '@opentelemetry/api';
import type { GameRecord } from '../../machines/record/record.js';
import type { Occupant } from '../../machines/table/events.js';
import type { TableSnapshot } from '../../machines/table/snapshot.js';
import type { TableView, Viewer } from '../../machines/view.js';
import type { EventListener, StoredEvent, TableSummary } from '../eventstore/eventStore.js';
import type { OwnMoveListener } from './autopilot.js';
import type { Quarantine } from './quarantine.js';
import type { ReplayedTable } from './replay.js';
import type { ForkRequest } from './tableFork.js';

export interface CreateTableRequest {
  readonly game: unknown;
  readonly options?: unknown;
  /** Occupants to seat at once, seat order; null leaves a seat open. */
  readonly players?: readonly (Occupant | null)[];
  readonly settings?: Record<string, unknown>;
  /** Fixes every hand's seed, for tests and reproducible games; fresh secure randomness for each hand otherwise. */
  readonly seed?: string;
  /** Small deals for tests (see TableInput); never exposed to players. */
  readonly cardsPerSeat?: number;
}

export interface Accepted {
  readonly tableId: string;
  readonly version: number;
  /** Every event this call appended: the command, and the deal that followed it if a hand ended. */
  readonly events: readonly StoredEvent[];
}

/** A repair's answer: the `table.repaired` appended (with the next deal, if the table was owed one), and what it voided. */
export interface Repaired extends Accepted {
  /** The seqs of the events voided, in log order. */
  readonly voided: readonly number[];
  /** Why the machine refused each, in the same order. */
  readonly reasons: readonly string[];
}

/** Who sent a command, and what they had seen. */
export interface SubmitOptions {
  /** A seat token's hash: the command is refused unless that token still holds the command's seat. */
  readonly holder?: string | undefined;
  /** The table's version the sender last saw. */
  readonly seenVersion?: number | undefined;
  /** The trace the command is a part of (services/tracing): the spans of its serving are children of it. None: no spans. */
  readonly trace?: Context | undefined;
}

export interface TableService {
  createTable(request: CreateTableRequest): Promise<Accepted>;
  /** A table from a finished game's record, checked against the rules first. */
  importRecord(document: unknown): Promise<Accepted>;
  /** A table that plays on from event `request.at` of a finished game. */
  forkTable(tableId: string, request: ForkRequest): Promise<Accepted>;
  /** A command, checked against the machine, made durable and applied. */
  submit(tableId: string, command: unknown, options?: SubmitOptions): Promise<Accepted>;
  snapshot(tableId: string): Promise<{ version: number; snapshot: TableSnapshot }>;
  view(tableId: string, viewer: Viewer): Promise<{ version: number; view: TableView }>;
  events(tableId: string, afterVersion?: number): Promise<StoredEvent[]>;
  /** The table right after event `at` of its log (its current state when omitted). */
  replayAt(tableId: string, at?: number): Promise<ReplayedTable>;
  exportRecord(tableId: string): Promise<GameRecord>;
  /**
   * Voids every event of a quarantined table's log the machine refuses, in
   * one `table.repaired` appended at the log's version, and the table plays
   * on (host/tableRepair.ts). Refused (notQuarantined) for a table whose log folds.
   */
  repair(tableId: string): Promise<Repaired>;
  /** The tables, each with the status its last append left; a table found quarantined here shown as such. */
  listTables(): Promise<TableSummary[]>;
  /** The tables found quarantined here and not repaired since (the lobby shows them; a figure for the metrics). */
  quarantinedTables(): readonly Quarantine[];
  /** Tables held in memory here (a figure for the metrics). */
  readonly residentTables: number;
  /** Hears every event appended to the tables, whoever appended it. */
  subscribe(listener: EventListener): () => void;
  /** Hears every move the tables make by themselves; only a host that plays its tables' bots and clocks has it. */
  onOwnMove?(listener: OwnMoveListener): () => void;
  close(): Promise<void>;
}
