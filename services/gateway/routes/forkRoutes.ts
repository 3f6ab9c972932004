/**
 * Playing on from any event of a finished game: a new table that starts as
 * the game stood then (services/host/tableFork.ts), with stand-in bots in
 * every seat, and the caller in the seat they ask for (the seats of the
 * original's other people then open for them, until a seated person
 * starts the bots in them: POST .../start).
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { phaseOf } from '../../../machines/table/snapshot.js';
import { isTableRefusal } from '../../host/errors.js';
import { standInFor, standInName } from '../../host/standIns.js';
import { seatOf } from '../auth.js';
import { hashToken, newToken } from '../../tokens/seatTokens.js';
import { clientOf } from '../clientIdentity.js';
import type { GatewayContext } from '../context.js';
import { playerName } from '../playerNames.js';
import { GatewayRefusal } from '../refusals.js';
import { ForkBody, ForkedTable, refusals, TableParams } from '../schemas.js';

const StartedTable = Type.Object({
  tableId: Type.String(),
  /** The table's version after the last bot sat; 0 when no seat was open. */
  version: Type.Integer(),
  /** The seats the bots took. */
  seats: Type.Array(Type.Integer()),
});

export function forkRoutes(context: GatewayContext): FastifyPluginAsyncTypebox {
  const { feed, tokens, lobby, limits, storageBudget, auth } = context;
  return async (app) => {
    app.post(
      '/api/tables/:tableId/start',
      {
        config: { cost: 'joinSeat' },
        schema: {
          summary: 'Bots take the open seats of a game under way (a seat token): the game stops waiting for the people they were kept for',
          tags: ['tables'],
          params: TableParams,
          response: { 200: StartedTable, ...refusals(401, 403, 404, 409, 429) },
        },
      },
      async (request) => {
        const { tableId } = request.params;
        seatOf(await auth.fromHeader(request.headers.authorization, tableId), tableId);
        const { snapshot } = await feed.current(tableId);
        const phase = phaseOf(snapshot);
        if (phase === 'seating' || phase === 'gameOver')
          throw new GatewayRefusal('notNow', `table ${tableId} has no game under way to start bots in (it is ${phase})`);
        const open = snapshot.context.occupants.flatMap((occupant, seat) => (occupant === null ? [seat] : []));
        let version = 0;
        const seats: number[] = [];
        for (const seat of open) {
          // A seat someone took meanwhile is refused by the table and left to them.
          const joined = await feed
            .submit(tableId, { type: 'seat.joined', seat, player: { name: standInFor(null, seat), bot: true } }, { source: 'player' })
            .catch((error: unknown) => (isTableRefusal(error) ? null : Promise.reject(error)));
          if (joined === null) continue;
          version = joined.version;
          seats.push(seat);
        }
        return { tableId, version, seats };
      },
    );

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
