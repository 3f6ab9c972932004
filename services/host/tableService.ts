/**
 * What a gateway needs of the tables, wherever they live: the in-process
 * TableHost (embedded) or a client of table workers over NATS (distributed,
 * bus/remoteTables.ts) offers the same calls. Only an in-process host has
 * moves of its own to report (its tables' bots and clocks); on NATS the
 * workers make them.
 */
import type { GameRecord } from '../../machines/record/record.js';
import type { Occupant } from '../../machines/table/events.js';
import type { TableSnapshot } from '../../machines/table/snapshot.js';
import type { TableView, Viewer } from '../../machines/view.js';
import type { EventListener, StoredEvent, TableSummary } from '../eventstore/eventStore.js';
import type { OwnMoveListener } from './autopilot.js';
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

export interface TableService {
  createTable(request: CreateTableRequest): Promise<Accepted>;
  /** A table from a finished game's record, checked against the rules first. */
  importRecord(document: unknown): Promise<Accepted>;
  /** A table that plays on from event `request.at` of a finished game. */
  forkTable(tableId: string, request: ForkRequest): Promise<Accepted>;
  /**
   * A command, checked against the machine, made durable and applied. With a
   * seat token's `holder` (its hash) it is refused unless that token still
   * holds the seat; `seenVersion` is the version the sender last saw.
   */
  submit(tableId: string, command: unknown, holder?: string, seenVersion?: number): Promise<Accepted>;
  snapshot(tableId: string): Promise<{ version: number; snapshot: TableSnapshot }>;
  view(tableId: string, viewer: Viewer): Promise<{ version: number; view: TableView }>;
  events(tableId: string, afterVersion?: number): Promise<StoredEvent[]>;
  /** The table right after event `at` of its log (its current state when omitted). */
  replayAt(tableId: string, at?: number): Promise<ReplayedTable>;
  exportRecord(tableId: string): Promise<GameRecord>;
  listTables(): Promise<TableSummary[]>;
  /** Tables held in memory here (a figure for the metrics). */
  readonly residentTables: number;
  /** Hears every event appended to the tables, whoever appended it. */
  subscribe(listener: EventListener): () => void;
  /** Hears every move the tables make by themselves; only a host that plays its tables' bots and clocks has it. */
  onOwnMove?(listener: OwnMoveListener): () => void;
  close(): Promise<void>;
}
