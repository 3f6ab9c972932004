/** A table as one viewer sees it: a seat's view with its token, else the spectator's. */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { heldSeatOf, seatOf } from '../auth.js';
import type { GatewayContext } from '../context.js';
import { refusals, TableParams, ViewResponse } from '../schemas.js';

export function viewRoutes(context: GatewayContext): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/api/tables/:tableId/view',
      {
        schema: {
          summary: "A seat's view (with its token), else the spectator's",
          tags: ['tables'],
          params: TableParams,
          response: { 200: ViewResponse, ...refusals(401, 403, 404, 410, 429) },
        },
      },
      async (request) => viewerView(context, request.params.tableId, request.headers.authorization),
    );
  };
}

async function viewerView({ auth, feed, watchers }: GatewayContext, tableId: string, authorization: string | undefined) {
  const caller = await auth.fromHeader(authorization, tableId);
  // The token's table is checked before the table is read, so a token for another table learns nothing of this one.
  if (caller.kind === 'seat') seatOf(caller, tableId);
  const change = await feed.current(tableId);
  const viewer = caller.kind === 'seat' ? heldSeatOf(caller, tableId, change.snapshot.context).seat : 'spectator';
  // Built from the change as the sockets' views are.
  return watchers.viewsOf(change).versioned(viewer);
}
