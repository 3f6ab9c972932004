/**
 * Every refusal the gateway sends: `{ error, message }` with the status of
 * docs/api.md (a quarantined table's also names the refused event). Refusals
 * of the table host, of the event store and of Fastify itself are all
 * mapped here, in one place.
 */
import { isVersionConflict } from '../eventstore/eventStore.js';
import { isTableRefusal, type RefusalKind } from '../host/errors.js';
import { isTableQuarantined } from '../host/quarantine.js';
import { isTableUnavailable } from '../bus/protocol.js';
import type { ErrorKind } from './socketProtocol.js';
import { isStorageFull, STORAGE_FULL_MESSAGE } from '../storageFull.js';

export interface RefusalBody {
  readonly error: ErrorKind;
  readonly message: string;
  /** A quarantined table (host/quarantine.ts): which table, the refused event's seq and type, and why the machine refuses it. */
  readonly tableId?: string;
  readonly seq?: number;
  readonly eventType?: string;
  readonly reason?: string;
  /** A refused player name (playerNames.ts): the rule it broke. */
  readonly rule?: string;
}

export const STATUS_OF: Record<ErrorKind, number> = {
  badRequest: 400,
  unauthorized: 401,
  forbidden: 403,
  unknownTable: 404,
  notFound: 404,
  notNow: 409,
  notQuarantined: 409,
  // Gone: the table was retired, its log deleted; its record is still there to export.
  gone: 410,
  tooLarge: 413,
  malformed: 422,
  illegal: 422,
  invalidRecord: 422,
  rateLimited: 429,
  internal: 500,
  unavailable: 503,
  // Not for now only, as unavailable is: the table waits for an operator's repair.
  quarantined: 503,
  // Insufficient Storage: the request was fine, and can be sent again once the operator has made room.
  storageFull: 507,
};

/**
 * A refusal decided by the gateway (authentication, shape, rate). It carries
 * no stack trace: it is an answer to the client, never logged as a fault,
 * and a flooding client is refused thousands of times a second (capturing
 * the stack was 7% of the gateway's CPU under the abuse benchmark's floods).
 */
export class GatewayRefusal extends Error {
  constructor(
    readonly kind: ErrorKind,
    message: string,
    /** Machine-readable fields of the refusal's body, beside its kind. */
    readonly fields: { readonly rule?: string } = {},
  ) {
    const stackTraceLimit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(message);
    Error.stackTraceLimit = stackTraceLimit;
    this.name = 'GatewayRefusal';
  }

  get status(): number {
    return STATUS_OF[this.kind];
  }
}

const HOST_KINDS: Record<RefusalKind, ErrorKind> = {
  malformed: 'malformed',
  notNow: 'notNow',
  illegal: 'illegal',
  unknownTable: 'unknownTable',
  invalidRecord: 'invalidRecord',
  notHolder: 'forbidden',
  busy: 'unavailable',
  // Another process of the service (one of the newer release) can serve the table; this one cannot, now.
  newerRelease: 'unavailable',
  quarantined: 'quarantined',
  notQuarantined: 'notQuarantined',
  retired: 'gone',
};

/** What Fastify's own errors (body parsing, validation) mean to a client. */
function fastifyRefusal(error: { code?: unknown; message: string; statusCode?: unknown }): RefusalBody | null {
  switch (error.code) {
    case 'FST_ERR_VALIDATION':
      return { error: 'badRequest', message: error.message };
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return { error: 'badRequest', message: 'the body is not valid JSON' };
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return { error: 'badRequest', message: 'the body is empty; send a JSON object' };
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return { error: 'badRequest', message: 'the body must be JSON, sent with Content-Type: application/json' };
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return { error: 'tooLarge', message: error.message.replace(/^Request body is too large$/, 'the body is over the size limit') };
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return { error: 'badRequest', message: 'the Content-Length does not match the body' };
    // @fastify/static's answer to a path that steps out of the web client's folder: as far as a client may know,
    // there is simply no such file.
    case 'FST_STATIC_FORBIDDEN_PATH':
      return {
        error: 'notFound',
        message:
          'there is no such file: the web client\'s paths hold no "..", "//" or their encodings; the API is under /api, described at /docs',
      };
  }
  // Body parsing errors without a code: a prototype-poisoning attempt or a JSON syntax error.
  if (error.statusCode === 400) return { error: 'badRequest', message: error.message };
  if (error.statusCode === 413) return { error: 'tooLarge', message: 'the body is over the size limit' };
  return null;
}

/** The client-facing refusal for any error; null when it is the service's own fault. */
export function refusalOf(error: unknown): RefusalBody | null {
  if (error instanceof GatewayRefusal) return { error: error.kind, message: error.message, ...error.fields };
  // Before the rest: a full storage may reach here wrapped in another failure (a table that could not be written).
  if (isStorageFull(error)) return { error: 'storageFull', message: `${STORAGE_FULL_MESSAGE}; try again later` };
  if (isTableQuarantined(error)) {
    const { message, tableId, seq, eventType, reason } = error;
    return { error: 'quarantined', message, tableId, seq, eventType, reason };
  }
  if (isTableRefusal(error)) return { error: HOST_KINDS[error.kind], message: error.message };
  if (isTableUnavailable(error)) return { error: 'unavailable', message: `${error.message}; try again shortly` };
  if (isVersionConflict(error)) return { error: 'notNow', message: `${error.message}; the table moved on, try again` };
  if (error instanceof Error) return fastifyRefusal(error as Error & { code?: unknown; statusCode?: unknown });
  return null;
}
