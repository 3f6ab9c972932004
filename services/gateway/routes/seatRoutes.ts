/** Seats: join, leave, and a seat's commands. */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { seatOf } from '../auth.js';
import type { GatewayContext } from '../context.js';
import { submitForSeat } from '../playerCommands.js';
import { phaseOf } from '../../../machines/table/snapshot.js';
import { hasPerson, seatingClosed, seatingIdleLimit } from '../lobby.js';
import { playerName } from '../playerNames.js';
import { GatewayRefusal } from '../refusals.js';
import { CommandAccepted, CommandBody, JoinSeatBody, JoinedSeat, LeftSeat, refusals, SeatParams, TableParams } from '../schemas.js';

export function seatRoutes(context: GatewayContext): FastifyPluginAsyncTypebox {
  const { feed, auth, seating, limits, lobby } = context;
  return async (app) => {
    app.post(
      '/api/tables/:tableId/seats/:seat',
      {
        config: { cost: 'joinSeat' },
        schema: {
          summary: 'Take a seat: an open one, or one a bot holds for a player who left',
          description: 'Answers with the seat token, the credential for every later request of the seat.',
          tags: ['seats'],
          params: SeatParams,
          body: JoinSeatBody,
          response: { 201: JoinedSeat, ...refusals(400, 404, 409, 413, 422, 429) },
        },
      },
      async (request, reply) => {
        const { tableId, seat } = request.params;
        const name = playerName(request.body.name, 'body.name');
        if (lobby.closedToMakeRoom(tableId)) {
          throw new GatewayRefusal(
            'notNow',
            `table ${tableId} is closed: nobody was waiting at it when the service's tables waiting for players were full, and it made room for a table of another network; create a table, or join one of the lobby's (GET /api/tables)`,
          );
        }
        const { snapshot, facts } = await feed.current(tableId);
        const table = { phase: phaseOf(snapshot), hasPerson: hasPerson(snapshot), lastEventAt: facts.lastEventAt };
        if (seatingClosed(table, Date.now(), limits)) {
          const idle = `${seatingIdleLimit(table.hasPerson, limits)} s`;
          throw new GatewayRefusal(
            'notNow',
            `table ${tableId} is closed: ${table.hasPerson ? `nothing happened at it for ${idle}` : `nobody sat at it for ${idle}`}; create a table, or join one of the lobby's (GET /api/tables)`,
          );
        }
        const { version, token } = await seating.join(tableId, seat, name, request.body.token);
        return reply.code(201).send({ tableId, seat, token, version });
      },
    );

    app.delete(
      '/api/tables/:tableId/seats/:seat',
      {
        schema: {
          summary: 'Leave a seat (seat token): a bot plays it until someone takes it',
          tags: ['seats'],
          params: SeatParams,
          response: { 200: LeftSeat, ...refusals(401, 403, 404, 429) },
        },
      },
      async (request) => {
        const { tableId, seat } = request.params;
        const grant = seatOf(await auth.fromHeader(request.headers.authorization, tableId), tableId, seat);
        const { version } = await seating.leave(grant);
        return { tableId, seat, version };
      },
    );

    app.post(
      '/api/tables/:tableId/commands',
      {
        schema: {
          summary: "A seat's command (seat token): pass, play, accuse, or contribute to the next deal (docs/fairness.md)",
          tags: ['seats'],
          params: TableParams,
          body: CommandBody,
          response: { 200: CommandAccepted, ...refusals(400, 401, 403, 404, 409, 413, 422, 429) },
        },
      },
      async (request) => {
        const grant = seatOf(await auth.fromHeader(request.headers.authorization, request.params.tableId), request.params.tableId);
        const accepted = await submitForSeat(context, grant, request.body, { via: 'http' });
        return { version: accepted.version, events: accepted.events.map(({ seq, type }) => ({ seq, type })) };
      },
    );
  };
}
