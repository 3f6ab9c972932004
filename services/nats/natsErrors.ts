/**
 * What a NATS or JetStream error means, told by the client library's own
 * error classes (@nats-io/nats-core) and JetStream's API codes
 * (@nats-io/jetstream), never by the wording of a message: one place that
 * knows how nats.js reports "nobody listens", "too late", "someone wrote
 * first" and "not ready yet", for every caller that must tell them apart.
 *
 * nats.js wraps a cause in a RequestError (a no-responders status becomes a
 * RequestError caused by NoRespondersError; JetStream's "not enabled" a
 * JetStreamNotEnabled caused by the API error), so each check walks the
 * cause chain.
 */
import {
  AuthorizationError,
  ClosedConnectionError,
  DrainingConnectionError,
  NoRespondersError,
  PermissionViolationError,
  RequestError,
  TimeoutError,
  UserAuthenticationExpiredError,
} from '@nats-io/nats-core';
import { JetStreamApiCodes, JetStreamApiError } from '@nats-io/jetstream';

/**
 * JetStream API codes the library does not name (nats-server's
 * server/errors.json): a stream made meanwhile by another process with
 * another configuration.
 */
const STREAM_NAME_IN_USE = 10058;

/** The HTTP-like status JetStream answers while it has no leader yet ("JetStream system temporarily unavailable"). */
const JETSTREAM_TEMPORARILY_UNAVAILABLE = 503;

/** Nobody subscribes to the subject: the request was not taken by anyone. */
export function isNoResponders(error: unknown): boolean {
  return someCause(error, (cause) => cause instanceof NoRespondersError || (cause instanceof RequestError && cause.isNoResponders()));
}

/** No answer came in time: the request may or may not have been taken. */
export function isTimeout(error: unknown): boolean {
  return someCause(error, (cause) => cause instanceof TimeoutError);
}

/** The connection is closed or draining: nothing more is sent on it. */
export function isConnectionClosed(error: unknown): boolean {
  return someCause(error, (cause) => cause instanceof ClosedConnectionError || cause instanceof DrainingConnectionError);
}

/**
 * A request that failed on the way: no answer in time, a closed connection,
 * or any other RequestError (a disconnection). Whether it was taken is unknown.
 */
export function isRequestTrouble(error: unknown): boolean {
  return isTimeout(error) || isConnectionClosed(error) || someCause(error, (cause) => cause instanceof RequestError);
}

/** The server's refusal of a stale expectation: someone else wrote the subject (or the KV key) since. */
export function isWrongLastSequence(error: unknown): boolean {
  return hasApiCode(error, JetStreamApiCodes.StreamWrongLastSequence, JetStreamApiCodes.StreamWrongLastSequenceUnknown);
}

export function isStreamNotFound(error: unknown): boolean {
  return hasApiCode(error, JetStreamApiCodes.StreamNotFound);
}

export function isStreamNameInUse(error: unknown): boolean {
  return hasApiCode(error, STREAM_NAME_IN_USE);
}

/**
 * JetStream cannot serve yet: not enabled for the account (a server
 * starting), or no leader elected. (nats.js's JetStreamNotEnabled, which it
 * does not export, always carries one of these or a no-responders error as
 * its cause.)
 */
export function isJetStreamNotReady(error: unknown): boolean {
  return (
    hasApiCode(error, JetStreamApiCodes.JetStreamNotEnabledForAccount) ||
    someCause(error, (cause) => cause instanceof JetStreamApiError && cause.status === JETSTREAM_TEMPORARILY_UNAVAILABLE)
  );
}

/**
 * What a reconnect, a node restarting or a leader election answers, which
 * asking again later can cure: a timeout, no responders, JetStream not ready.
 */
export function isTransient(error: unknown): boolean {
  return isTimeout(error) || isNoResponders(error) || isJetStreamNotReady(error);
}

/** The server refused the connection's credentials (unknown, wrong or expired). */
export function isAuthorizationRefused(error: unknown): boolean {
  return someCause(error, (cause) => cause instanceof AuthorizationError || cause instanceof UserAuthenticationExpiredError);
}

/** The server refused an operation the connection's identity may not do (a publish or a subscription). */
export function isPermissionViolation(error: unknown): boolean {
  return someCause(error, (cause) => cause instanceof PermissionViolationError);
}

/**
 * The client refused the server's certificate. TLS is Node's, not nats.js's:
 * its errors carry OpenSSL's verification codes (UNABLE_TO_VERIFY_LEAF_SIGNATURE,
 * DEPTH_ZERO_SELF_SIGNED_CERT, CERT_HAS_EXPIRED, ...) or Node's own
 * (ERR_TLS_CERT_ALTNAME_INVALID).
 */
export function isCertificateRefused(error: unknown): boolean {
  return someCause(error, (cause) => {
    const code = (cause as { code?: unknown }).code;
    return typeof code === 'string' && TLS_REFUSAL_CODE.test(code);
  });
}

const TLS_REFUSAL_CODE = /CERT|_SIGNATURE|ISSUER|^ERR_TLS_|^ERR_SSL_/;

function hasApiCode(error: unknown, ...codes: number[]): boolean {
  return someCause(error, (cause) => cause instanceof JetStreamApiError && codes.includes(cause.code));
}

function someCause(error: unknown, test: (cause: Error) => boolean): boolean {
  for (let cause = error; cause instanceof Error; cause = cause.cause) if (test(cause)) return true;
  return false;
}
