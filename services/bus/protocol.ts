/**
 * What gateways and table workers say to each other over NATS: a request is
 * `{ op, tableId, args }`, the arguments of the TableService call of that
 * name; a reply is `{ ok: true, result }` or `{ ok: false, kind, message }`.
 * Refusals keep their kind and VersionConflict its versions, so a caller of
 * RemoteTables sees the same errors a caller of the in-process TableHost does.
 */
import type { Msg } from '@nats-io/nats-core';
import { isVersionConflict, VersionConflict } from '../eventstore/eventStore.js';
import { isTableRefusal, TableRefusal, type RefusalKind } from '../host/errors.js';
import { isTableQuarantined, TableQuarantined, type Quarantine } from '../host/quarantine.js';
import type { Accepted, CreateTableRequest } from '../host/tableService.js';
import type { ForkRequest } from '../host/tableFork.js';
import { isTableUnavailable, TableUnavailable } from '../nats/unavailable.js';

interface CommandRouting {
  readonly tableId: string;
  /** The worker that passed the command on to this one; a command is passed on once at most. */
  readonly forwardedBy?: string;
  /**
   * The table's version as the sender last saw it. A worker whose copy is
   * older rebuilds it from the log first: someone else wrote to the table.
   */
  readonly seenVersion?: number;
}

/** A command for one table, served by the worker that owns the table: a player's, or an operator's repair (TableService.repair). */
export type TableCommandRequest = CommandRouting &
  (
    | { readonly op: 'submit'; readonly args: readonly [command: unknown, holder?: string] }
    | { readonly op: 'repairTable'; readonly args: readonly [] }
  );

/** A new table, made by whichever worker takes the request. */
export type NewTableRequest =
  | { readonly op: 'createTable'; readonly args: readonly [request: CreateTableRequest] }
  | { readonly op: 'importRecord'; readonly args: readonly [record: unknown] }
  | { readonly op: 'forkTable'; readonly args: readonly [tableId: string, request: ForkRequest] };

export type TableRequest = TableCommandRequest | NewTableRequest;

export type TableReply =
  | { readonly ok: true; readonly worker: string; readonly result: Accepted }
  | {
      readonly ok: false;
      readonly worker: string;
      readonly kind: RefusalKind;
      readonly message: string;
      /** The table's version when it was refused, so a reader that is behind knows it. */
      readonly version?: number;
      /** A quarantined table's refused event, so the caller's refusal carries it as the host's does. */
      readonly quarantine?: Quarantine;
    }
  | {
      readonly ok: false;
      readonly worker: string;
      readonly kind: 'VersionConflict';
      readonly message: string;
      readonly tableId: string;
      readonly expectedVersion: number;
      readonly actualVersion: number | null;
    }
  | { readonly ok: false; readonly worker: string; readonly kind: 'unavailable' | 'failed'; readonly message: string };

// Below the bus, as the seat tokens in KV raise it too (services/nats/unavailable.ts).
export { isTableUnavailable, TableUnavailable };

const COMMAND_OPS: readonly string[] = ['submit', 'repairTable'];
const NEW_TABLE_OPS: readonly string[] = ['createTable', 'importRecord', 'forkTable'];

export function encode(message: TableRequest | TableReply): string {
  return JSON.stringify(message);
}

/** The request in a message, or a description of what is wrong with it. */
export function decodeRequest(msg: Msg): TableRequest | string {
  let request: unknown;
  try {
    request = msg.json();
  } catch {
    return 'a table request must be JSON';
  }
  const { op, tableId, args } = (request ?? {}) as { op?: unknown; tableId?: unknown; args?: unknown };
  if (!Array.isArray(args)) return 'a table request must have args, an array';
  if (typeof op === 'string' && NEW_TABLE_OPS.includes(op)) return request as NewTableRequest;
  if (typeof op !== 'string' || !COMMAND_OPS.includes(op)) {
    return `op must be one of ${[...COMMAND_OPS, ...NEW_TABLE_OPS].join(', ')}, not ${JSON.stringify(op)}`;
  }
  if (typeof tableId !== 'string') return 'a command must name its table (tableId)';
  const { seenVersion } = request as { seenVersion?: unknown };
  if (seenVersion !== undefined && !Number.isSafeInteger(seenVersion)) return 'seenVersion, when given, is a whole number';
  return request as TableCommandRequest;
}

export function decodeReply(msg: Msg): TableReply {
  return msg.json<TableReply>();
}

/** The reply that carries `error` to the caller, its kind kept. */
export function replyOfError(worker: string, error: unknown, version?: number): TableReply {
  if (isTableRefusal(error)) {
    return {
      ok: false,
      worker,
      kind: error.kind,
      message: error.message,
      ...(version === undefined ? {} : { version }),
      ...(isTableQuarantined(error) ? { quarantine: error.quarantine } : {}),
    };
  }
  if (isVersionConflict(error)) {
    const { tableId, expectedVersion, actualVersion, message } = error as VersionConflict;
    return { ok: false, worker, kind: 'VersionConflict', message, tableId, expectedVersion, actualVersion };
  }
  if (isTableUnavailable(error)) return { ok: false, worker, kind: 'unavailable', message: error.message };
  return { ok: false, worker, kind: 'failed', message: `worker ${worker} failed: ${(error as Error)?.message ?? String(error)}` };
}

/** The error a refused reply stands for, of the same class the in-process host throws. */
export function errorOfReply(reply: Exclude<TableReply, { ok: true }>): Error {
  switch (reply.kind) {
    case 'VersionConflict':
      return new VersionConflict(reply.tableId, reply.expectedVersion, reply.actualVersion);
    case 'unavailable':
      return new TableUnavailable(reply.message);
    case 'failed':
      return new Error(reply.message);
    default:
      if (reply.kind === 'quarantined' && reply.quarantine !== undefined) return new TableQuarantined(reply.quarantine);
      return new TableRefusal(reply.kind, reply.message);
  }
}
