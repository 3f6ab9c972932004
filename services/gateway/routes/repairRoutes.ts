/**
 * The operator's repair of a quarantined table (services/host/tableRepair.ts):
 * the admin token only. The request names no event: the table's owner finds
 * the events its machine refuses and voids those, so no request can void a
 * valid one.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { GatewayContext } from '../context.js';
import { GatewayRefusal } from '../refusals.js';
import { RepairResponse, refusals, TableParams } from '../schemas.js';

export function repairRoutes(context: GatewayContext): FastifyPluginAsyncTypebox {
  const { feed, auth } = context;
  return async (app) => {
    app.post(
      '/api/tables/:tableId/repair',
      {
        // It folds the table's whole log, as a read of the log or record does.
        config: { cost: 'wholeGame' },
        schema: {
          summary: 'Repair a quarantined table (admin token): void every event of its log the machine refuses, and play on',
          description:
            'No body. The voided events stay in the log; one `table.repaired` event names them, and the table plays on from the last good state with the same seats and tokens. A table whose log folds is 409 `notQuarantined`.',
          tags: ['operations'],
          params: TableParams,
          response: { 200: RepairResponse, ...refusals(401, 403, 404, 409, 429, 503) },
        },
      },
      async (request) => {
        const { tableId } = request.params;
        // Not looked up in the table's log, as a seat token may be elsewhere: a quarantined table's log does not fold.
        const caller = await auth.fromHeader(request.headers.authorization);
        if (caller.kind === 'anyone') {
          throw new GatewayRefusal(
            'unauthorized',
            'repairing a table is for the operator: send the admin token as "Authorization: Bearer <token>"',
          );
        }
        if (caller.kind === 'seat') throw new GatewayRefusal('forbidden', 'a seat token cannot repair a table; only the admin token can');
        const repaired = await feed.repair(tableId);
        request.log.warn(
          { tableId, voided: repaired.voided, version: repaired.version },
          'table repaired: the events its machine refused are voided',
        );
        return { tableId, voided: [...repaired.voided], reasons: [...repaired.reasons], version: repaired.version };
      },
    );
  };
}
