/**
 * How a failed request is answered: a refusal with the status that fits
 * (refusals.ts) and what was wrong, a full storage with when to ask again,
 * anything else as a 500 naming the request for the operator's log.
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { StorageFullNotices } from '../storageFull.js';
import { closeIfUpgrade } from './requestLimits.js';
import { refusalOf, STATUS_OF } from './refusals.js';
import { StorageBudgetSpent } from './storageBudget.js';

/** A full storage is made room on by an operator, not in a second: a client need not ask again sooner. */
const STORAGE_FULL_RETRY_AFTER_SECONDS = 60;

export function registerErrorReplies(app: FastifyInstance, storageFull: StorageFullNotices): void {
  app.setErrorHandler((error, request, reply) => {
    const refusal = refusalOf(error);
    if (refusal?.error === 'storageFull') {
      // Every write fails while the storage is full: one line a minute, not one a request.
      storageFull.refusedWrite(`${request.method} ${request.routeOptions.url ?? 'unknown path'}`);
      return reply.code(STATUS_OF.storageFull).header('retry-after', String(STORAGE_FULL_RETRY_AFTER_SECONDS)).send(refusal);
    }
    if (refusal !== null) {
      request.log.info({ refusal: refusal.error }, refusal.message);
      // Unavailable is for now only (a table between owners, imports all busy): say when to come back.
      if (refusal.error === 'unavailable' && !reply.hasHeader('retry-after')) reply.header('retry-after', '1');
      if (error instanceof StorageBudgetSpent) reply.header('retry-after', String(error.retryAfterSeconds));
      return reply.code(STATUS_OF[refusal.error]).send(refusal);
    }
    request.log.error({ err: error }, 'request failed');
    return reply
      .code(500)
      .send({ error: 'internal', message: `the service failed (request ${request.id}); the operator can find it in the log` });
  });
}

/**
 * Fastify's `frameworkErrors`: a path the router cannot read (bad
 * percent-encoding, a part over 100 characters) never reaches a hook, so an
 * upgrade refused here must have its socket closed by hand; and Fastify's
 * own answer repeated the whole URL, a socket's seat token with it.
 */
export function unreadablePathReply(error: FastifyError, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  closeIfUpgrade(request, reply);
  const message =
    error.code === 'FST_ERR_MAX_PARAM_LENGTH'
      ? 'a part of the path is over 100 characters; table ids are much shorter (GET /api/tables lists them)'
      : 'the path is not a valid URL (a % must start an escape like %20)';
  return reply.code(STATUS_OF.badRequest).header('x-request-id', request.id).send({ error: 'badRequest', message });
}
