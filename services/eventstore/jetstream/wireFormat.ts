/**
 * One message per append. JetStream 2.9 has no atomic batch publish, so an
 * append of several events is a single message holding all of them: stored
 * whole or not at all. The body is
 * `{"events":[{type,at,data}...],"status":<the table's status after it>}`;
 * the headers carry the table's numbering, and `Suitors-Prev` chains each
 * table's messages so a reader can walk back along them.
 */
import type { StoredMsg } from '@nats-io/jetstream';
import { headers as natsHeaders, type MsgHdrs } from '@nats-io/nats-core';
import type { NewEvent, RetiredTable, TableStatus } from '../eventStore.js';
import { toJson } from '../storeChecks.js';

/** Seq of the message's first event. */
export const HEADER_SEQ = 'Suitors-Seq';
/** Seq of the message's last event: the table's version after it. */
export const HEADER_VERSION = 'Suitors-Version';
/** The message's position among the table's messages (1, 2, ...). */
export const HEADER_APPEND = 'Suitors-Append';
/** The stream sequence of the table's previous message (0 for its first). */
export const HEADER_PREV = 'Suitors-Prev';

/** On a retired table's last message, the tombstone (its body holds the record): when it was retired. */
const HEADER_RETIRED = 'Suitors-Retired';

/** On a tombstone: the `at` of the retired table's last event. */
const HEADER_LAST_EVENT_AT = 'Suitors-Last-Event-At';

/** Room left for headers when checking a body against the server's max_payload. */
const HEADER_ROOM = 1024;

export interface DecodedAppend {
  /** This message's stream sequence. */
  readonly streamSeq: number;
  /** The stream sequence of the table's previous message; 0 for its first. */
  readonly prev: number;
  readonly first: number;
  readonly version: number;
  readonly appends: number;
  readonly events: readonly { readonly type: string; readonly at: string; readonly data: unknown }[];
  readonly status: TableStatus | null;
  /** A tombstone's: what the retired table keeps (it holds no events, and its version is its log's at retirement). */
  readonly retired?: RetiredTable;
}

/** The events of an append as JSON text, encoded at once so the caller may reuse its objects. */
export function eventsJsonOf(tableId: string, events: readonly NewEvent[]): string {
  return events
    .map(
      (event, index) =>
        `{"type":${JSON.stringify(event.type)},"at":${JSON.stringify(event.at)},"data":${toJson(
          event.data,
          `data of event ${index + 1} (${event.type}) for table ${tableId}`,
        )}}`,
    )
    .join(',');
}

const encoder = new TextEncoder();

export function appendBody(eventsJson: string, statusJson: string | null): Uint8Array {
  return encoder.encode(`{"events":[${eventsJson}],"status":${statusJson ?? 'null'}}`);
}

export function appendHeaders(numbering: { first: number; version: number; appends: number; prev: number }): MsgHdrs {
  const headers = natsHeaders();
  headers.set(HEADER_SEQ, String(numbering.first));
  headers.set(HEADER_VERSION, String(numbering.version));
  headers.set(HEADER_APPEND, String(numbering.appends));
  headers.set(HEADER_PREV, String(numbering.prev));
  return headers;
}

/**
 * A retired table's tombstone, the last message its subject keeps: no events (its first seq is past its version),
 * its status, and its record in the body; when it was retired and its last event's time in headers.
 */
export function tombstone(
  retired: Omit<RetiredTable, 'tableId' | 'record'> & { readonly recordJson: string },
  numbering: { appends: number; prev: number },
): { body: Uint8Array; headers: MsgHdrs } {
  const statusJson = retired.status === null ? 'null' : JSON.stringify(retired.status);
  const body = encoder.encode(`{"events":[],"status":${statusJson},"record":${retired.recordJson}}`);
  const headers = appendHeaders({ first: retired.version + 1, version: retired.version, ...numbering });
  headers.set(HEADER_RETIRED, retired.retiredAt);
  headers.set(HEADER_LAST_EVENT_AT, retired.lastEventAt);
  return { body, headers };
}

/**
 * Refuses, before anything is sent, a value the server would refuse:
 * `what` and `rule` make the message, e.g. "append to table t1" and
 * "one append (all its events) must fit in".
 */
export function checkFitsInMessage(bytes: Uint8Array, maxPayload: number, what: string, rule: string): void {
  if (bytes.length > maxPayload - HEADER_ROOM) {
    throw new RangeError(
      `${what} is ${bytes.length} bytes; ${rule} ${maxPayload - HEADER_ROOM} bytes (the server's max_payload less room for headers)`,
    );
  }
}

export function decodeAppend(subject: string, seq: number, headers: MsgHdrs | undefined, data: Uint8Array): DecodedAppend {
  const first = Number(headers?.get(HEADER_SEQ));
  const version = Number(headers?.get(HEADER_VERSION));
  const appends = Number(headers?.get(HEADER_APPEND));
  const prev = Number(headers?.get(HEADER_PREV));
  if (![first, version, appends, prev].every(Number.isSafeInteger) || first < 1) {
    throw new Error(`stream message ${seq} on ${subject} is not an event store append (no ${HEADER_SEQ} headers)`);
  }
  const body = JSON.parse(new TextDecoder().decode(data)) as Pick<DecodedAppend, 'events' | 'status'> & { record?: unknown };
  if (!Array.isArray(body.events) || body.events.length !== version - first + 1) {
    throw new Error(`stream message ${seq} on ${subject} holds ${body.events?.length} events, not ${version - first + 1}`);
  }
  const status = body.status ?? null;
  const decoded = { streamSeq: seq, prev, first, version, appends, events: body.events, status };
  const retiredAt = headers?.get(HEADER_RETIRED) ?? '';
  if (retiredAt === '') return decoded;
  const lastEventAt = headers?.get(HEADER_LAST_EVENT_AT) ?? '';
  return { ...decoded, retired: { tableId: '', version, lastEventAt, status, retiredAt, record: body.record ?? null } };
}

/** A message fetched by a get (from the leader or by a direct get). */
export function decodeStoredAppend(message: StoredMsg): DecodedAppend {
  return decodeAppend(message.subject, message.seq, message.header, message.data);
}
