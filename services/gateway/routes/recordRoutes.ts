/** Importing a game record as a new table. */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { clientOf } from '../clientIdentity.js';
import type { GatewayContext } from '../context.js';
import { CreatedTable, ErrorBody, RecordDocument } from '../schemas.js';

/** A record holds every deal and play of a game: far more than any command. */
const RECORD_BODY_LIMIT = 1024 * 1024;

export function recordRoutes(context: GatewayContext): FastifyPluginAsyncTypebox {
  const { feed, limits, storageBudget } = context;
  return async (app) => {
    app.post(
      '/api/records',
      {
        bodyLimit: RECORD_BODY_LIMIT,
        config: { cost: 'importRecord' },
        schema: {
          summary: 'Import a game record (docs/record-format.md) as a new table, after verifying it',
          tags: ['records'],
          body: RecordDocument,
          response: { 201: CreatedTable, 400: ErrorBody, 413: ErrorBody, 422: ErrorBody, 429: ErrorBody, 503: ErrorBody },
        },
      },
      async (request, reply) => {
        const client = clientOf(request.ip, limits.ipv6ClientPrefix);
        const accepted = await storageBudget.spend(client, () => feed.importRecord(request.body));
        return reply.code(201).send({ tableId: accepted.tableId, version: accepted.version });
      },
    );
  };
}
