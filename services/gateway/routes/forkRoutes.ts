/**
 * Playing on from any event of a finished game: a new table that starts as
 * the game stood then (services/host/tableFork.ts), with stand-in bots in
 * every seat, and the caller in the seat they ask for.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { standInName } from '../../host/standIns.js';
import { hashToken, newToken } from '../../tokens/seatTokens.js';
import { clientOf } from '../clientIdentity.js';
import type { GatewayContext } from '../context.js';
import { playerName } from '../playerNames.js';
import { GatewayRefusal } from '../refusals.js';
import { ForkBody, ForkedTable, refusals, TableParams } from '../schemas.js';

export function forkRoutes(context: GatewayContext): FastifyPluginAsyncTypebox {
  const { feed, tokens, lobby, limits, storageBudget } = context;
  return async (app) => {
    app.post(
      '/api/tables/:tableId/fork',
      {
        config: { cost: 'forkTable' },
        schema: {
          summary: 'Play on from an event of a finished game: a new table as the game stood right after it',
          description:
            'Every seat of the new table is held by a bot a person may take; with `seat` and `name` the caller takes that seat at once and gets its token. Its `table.created` records `forkedFrom`.',
          tags: ['tables'],
          params: TableParams,
          body: ForkBody,
          response: { 201: ForkedTable, ...refusals(400, 404, 409, 410, 413, 422, 429, 503) },
        },
      },
      async (request, reply) => {
        const { tableId } = request.params;
        const { at, seat } = request.body;
        const name = request.body.name === undefined ? undefined : playerName(request.body.name, 'body.name');
        if (seat === undefined && name !== undefined)
          throw new GatewayRefusal('badRequest', 'body.name needs body.seat: the seat to take at the new table');
        if (seat !== undefined && name === undefined)
          throw new GatewayRefusal('badRequest', 'body.seat needs body.name: the name the new table shows for you');
        const client = clientOf(request.ip, limits.ipv6ClientPrefix);
        if (seat === undefined || name === undefined) {
          // Nobody takes a seat: the fork's bots play on by themselves.
          const done = await lobby.reserveBotTable(client);
          try {
            const accepted = await storageBudget.spend(client, () => feed.forkTable(tableId, { at }));
            done(accepted.tableId);
            return reply.code(201).send({ tableId: accepted.tableId, version: accepted.version });
          } finally {
            done();
          }
        }
        // The seat is the caller's from the new table's first append, with the token's tenure, so no bot moves for it first.
        const token = newToken();
        const holder = hashToken(token);
        const accepted = await storageBudget.spend(client, () => feed.forkTable(tableId, { at, taker: { seat, name, holder } }));
        try {
          await tokens.issue({ tableId: accepted.tableId, seat }, token);
        } catch (error) {
          // The caller never gets the token: the seat goes back to a stand-in bot rather than wait for nobody.
          await feed.submit(accepted.tableId, { type: 'seat.left', seat }, { source: 'player', holder });
          await feed.submit(
            accepted.tableId,
            { type: 'seat.joined', seat, player: { name: standInName(name), bot: true } },
            { source: 'player' },
          );
          throw error;
        }
        return reply.code(201).send({ tableId: accepted.tableId, version: accepted.version, seat, token });
      },
    );
  };
}
