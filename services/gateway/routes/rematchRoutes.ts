/**
 * A shared rematch (rematch/rematchProposals.ts): a person at a finished
 * table proposes it, each other person accepts or declines, and every socket
 * of the table is told how it stands (a `rematch` message).
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyBaseLogger } from 'fastify';
import { Type } from 'typebox';
import type { Occupant } from '../../../machines/table/events.js';
import { botKindOf, settingsRecord } from '../../host/tableSettings.js';
import { heldSeatOf } from '../auth.js';
import { clientOf } from '../clientIdentity.js';
import type { GatewayContext } from '../context.js';
import { tableBotName } from '../playerNames.js';
import { RematchProposals, type RematchSeating } from '../rematch/rematchProposals.js';
import { ErrorBody, TableParams } from '../schemas.js';
import type { Rematch } from '../socketProtocol.js';
import type { TableNotices } from '../tableNotices.js';
import type { NoticeBoard } from '../notices/noticeBoard.js';

/** How long a proposal waits for the others' answers. */
const REMATCH_SECONDS = 60;

const refusals = (...statuses: number[]) => Object.fromEntries(statuses.map((status) => [status, ErrorBody]));

const NewTableToken = Type.String({
  pattern: '^[A-Za-z0-9_-]{43}$',
  description: 'the seat token you made for the new table (32 random bytes, base64url); it holds your seat there',
});
const ProposeBody = Type.Object({ token: NewTableToken }, { additionalProperties: false });
const AnswerBody = Type.Object(
  { accept: Type.Boolean({ description: 'true to sit at the rematch, false to decline' }), token: Type.Optional(NewTableToken) },
  { additionalProperties: false },
);
const RematchAnswer = Type.Union([Type.Literal('proposed'), Type.Literal('waiting'), Type.Literal('accepted'), Type.Literal('declined')]);
// Typed as the socket protocol declares it, whose arrays are read-only.
const RematchBody = Type.Unsafe<Rematch>(
  Type.Object({
    tableId: Type.String(),
    round: Type.Integer(),
    proposer: Type.Integer(),
    seats: Type.Array(Type.Object({ seat: Type.Integer(), name: Type.String(), answer: RematchAnswer })),
    status: Type.Union([Type.Literal('open'), Type.Literal('started'), Type.Literal('declined'), Type.Literal('expired')]),
    expiresAt: Type.String(),
    rematchTableId: Type.Union([Type.String(), Type.Null()]),
  }),
);
const RematchResponse = Type.Object({ rematch: Type.Union([RematchBody, Type.Null()]) });

/** The new table: the same game, options and turn clock; the people who accepted in their seats, bots of the same kinds elsewhere. */
async function openRematchTable(
  { feed, seating, lobby, storageBudget }: GatewayContext,
  tableId: string,
  { people, client }: RematchSeating,
  log: FastifyBaseLogger,
): Promise<string> {
  const { snapshot, facts } = await feed.current(tableId);
  const { game, options, occupants } = snapshot.context;
  const seated = new Set(people.map(({ seat }) => seat));
  const botKinds = Object.fromEntries(occupants.flatMap((_, seat) => (seated.has(seat) ? [] : [[seat, botKindOf(facts.settings, seat)]])));
  const players: (Occupant | null)[] = occupants.map((_, seat) =>
    seated.has(seat) ? null : { name: tableBotName(botKinds[seat], seat), bot: true },
  );
  const done = await lobby.reserveSeatingTable(client);
  let rematchTableId: string;
  try {
    // Charged to the proposer's daily storage budget, as any new table is: a rematch is one more way to make one.
    const accepted = await storageBudget.spend(client, () =>
      feed.createTable({
        game,
        options: Object.fromEntries(Object.entries(options).map(([name, value]) => [name, String(value)])),
        players,
        settings: settingsRecord({ turnSeconds: facts.settings.turnSeconds, botKinds }),
      }),
    );
    rematchTableId = accepted.tableId;
    done(rematchTableId);
  } finally {
    done();
  }
  for (const { seat, name, holder } of people) {
    // The table is made: one seat that could not be taken stays open for its player (or anyone) to take, rather
    // than the rematch told `expired` while its table waits for players nobody was told of.
    await seating.joinAs(rematchTableId, seat, name, holder).catch((error: unknown) => {
      log.error({ err: error, tableId: rematchTableId, seat }, 'a seat of a rematch could not be taken; it stays open');
    });
  }
  return rematchTableId;
}

export function rematchRoutes(context: GatewayContext, notices: TableNotices, board: NoticeBoard): FastifyPluginAsyncTypebox {
  const { feed, auth, limits } = context;
  /** The seat the request's token holds at the table, as the table stands. */
  const heldSeat = async (tableId: string, authorization: string | undefined) => {
    const { snapshot } = await feed.current(tableId);
    return heldSeatOf(await auth.fromHeader(authorization, tableId), tableId, snapshot.context).seat;
  };

  return async (app) => {
    const proposals = new RematchProposals({
      notices,
      board,
      current: (tableId) => feed.current(tableId),
      open: (tableId, seating) => openRematchTable(context, tableId, seating, app.log),
      seconds: REMATCH_SECONDS,
      onError: (error, tableId) => app.log.error({ err: error, tableId }, 'opening a rematch failed'),
    });

    app.get(
      '/api/tables/:tableId/rematch',
      {
        schema: {
          summary: 'The rematch of a finished table as it stands, or null',
          tags: ['tables'],
          params: TableParams,
          response: { 200: RematchResponse, ...refusals(404, 429) },
        },
      },
      async (request) => {
        await feed.current(request.params.tableId);
        return { rematch: await proposals.at(request.params.tableId) };
      },
    );

    app.post(
      '/api/tables/:tableId/rematch',
      {
        config: { cost: 'createTable' },
        schema: {
          summary: 'Propose a rematch of a finished game (seat token): every person at the table is asked',
          description: `The others have ${REMATCH_SECONDS} s to answer. Alone with bots, the new table is made at once (status "started").`,
          tags: ['tables'],
          params: TableParams,
          body: ProposeBody,
          response: { 201: RematchResponse, ...refusals(400, 401, 403, 404, 409, 429) },
        },
      },
      async (request, reply) => {
        const { tableId } = request.params;
        const seat = await heldSeat(tableId, request.headers.authorization);
        const client = clientOf(request.ip, limits.ipv6ClientPrefix);
        return reply.code(201).send({ rematch: await proposals.propose(tableId, seat, request.body.token, client) });
      },
    );

    app.post(
      '/api/tables/:tableId/rematch/answer',
      {
        schema: {
          summary: 'Accept or decline the rematch proposed (seat token)',
          tags: ['tables'],
          params: TableParams,
          body: AnswerBody,
          response: { 200: RematchResponse, ...refusals(400, 401, 403, 404, 409, 429) },
        },
      },
      async (request) => {
        const { tableId } = request.params;
        const seat = await heldSeat(tableId, request.headers.authorization);
        return { rematch: await proposals.answer(tableId, seat, request.body.accept, request.body.token) };
      },
    );
  };
}
