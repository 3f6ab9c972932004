/**
 * What the fuzzer (commandFuzzer.ts) asks of each way of reaching a table,
 * the host API (hostPath.ts) or the gateway (gatewayPath.ts), and what they
 * answer in: the paths and the fuzzer that drives them all speak these.
 */
import type { Rng } from '../../machines/cards/shuffle.js';
import type { GameName } from '../../machines/table/options.js';
import type { TableSnapshot } from '../../machines/table/snapshot.js';
import type { TableHost, TableHostOptions } from '../../services/host/tableHost.js';
import type { FuzzCommand, TableAtTurn } from './malformedCommands.js';
import type { SentCommand } from './tableWatch.js';

/** A small snapshot interval, so saved snapshots (and rehydration from them) are part of every game. */
export const FUZZ_SNAPSHOT_EVERY = 25;

export type Via = 'host' | 'gateway';
export const VIAS: readonly Via[] = ['host', 'gateway'];

export interface FuzzSettings {
  readonly games: readonly GameName[];
  /** Commands per game through the host API. */
  readonly commands: number;
  /** Commands per game through the gateway (default: `commands`). */
  readonly gatewayCommands?: number;
  readonly seed: string;
  readonly via: readonly Via[];
  /** The host path's event store (the gateway path's is always memory). */
  readonly store?: 'memory' | 'sqlite';
  /** The host saves a snapshot every this many events, so snapshots are saved (and checked) often. */
  readonly snapshotEvery?: number;
  /** The host under test; tests of the fuzzer break it. */
  readonly createHost?: (options: TableHostOptions) => TableHost;
  /** Called with a progress line every `progressMs` (10 s by default) while a run lasts. */
  readonly onProgress?: (line: string) => void;
  readonly progressMs?: number;
}

/** How a command was answered, as counted: a host refusal kind, an HTTP status and error, a socket close. */
export interface Answer {
  readonly acceptedAt: number | null;
  /** "accepted", "illegal", "422 illegal", "ws close 1009", ... */
  readonly key: string;
  readonly status: number | null;
  readonly error: string | null;
  readonly message: string | null;
  /** An exception that escaped, a 5xx, a dropped connection: what happened. */
  readonly crash: string | null;
}

/** What the rules (and the gateway's own checks) say the answer must be; null: it depends on what arrives first. */
export type Expected =
  | { readonly accepted: true }
  | { readonly accepted: false; readonly status: number | null; readonly error: string; readonly message: string | null }
  | null;

/** One way of reaching a table: the host API in-process, or the gateway over loopback. */
export interface FuzzPath {
  readonly via: Via;
  readonly host: TableHost;
  readonly store: TableHostOptions['store'];
  openTable(game: GameName, options: Record<string, string>, seed: string): Promise<string>;
  /** Sends one seat's command and says what the answer must be (from the state before it). */
  send(tableId: string, sent: FuzzCommand, before: TableSnapshot): Promise<{ answer: Answer; expected: Expected; seen: unknown }>;
  /** Sends commands without waiting in between; the table takes them in the order given. */
  sendTogether(tableId: string, sent: readonly FuzzCommand[]): Promise<{ answer: Answer; seen: unknown }[]>;
  /** Gateway garbage (bad tokens, bodies, frames); each must change nothing. */
  sendGarbage?(
    tableId: string,
    kind: GarbageKind,
    table: TableAtTurn,
    rng: Rng,
  ): Promise<{ answer: Answer; expected: Expected; seatChanges?: readonly SentCommand[] }>;
  close(): Promise<void>;
}

/** What the gateway path sends besides commands (bad tokens, bodies, frames); each must change nothing. */
export const GARBAGE_KINDS = [
  'noToken',
  'forgedToken',
  'basicAuth',
  'adminToken',
  'otherTableToken',
  'otherSeatInBody',
  'invalidJson',
  'emptyBody',
  'wrongContentType',
  'oversizeBody',
  'protoPoison',
  'wrongMethod',
  'longTableId',
  'deepBody',
  'wsInvalidJson',
  'wsBinary',
  'wsNotCommand',
  'wsBadId',
  'wsSpectator',
  'wsOversize',
  'wsDeep',
  'wsForgedToken',
  'wsOtherTableToken',
  'leftSeatToken',
] as const;
export type GarbageKind = (typeof GARBAGE_KINDS)[number];
