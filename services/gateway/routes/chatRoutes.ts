/** Quick chat at a table (chat/quickChat.ts): a seat sends a preset phrase to everyone at or watching the table. */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { heldSeatOf } from '../auth.js';
import { QuickChat } from '../chat/quickChat.js';
import type { GatewayContext } from '../context.js';
import { ErrorBody, TableParams } from '../schemas.js';
import { CHAT_PHRASES, type ChatPhrase } from '../socketProtocol.js';
import type { TableNotices } from '../tableNotices.js';
import type { NoticeBoard } from '../notices/noticeBoard.js';

/** Chat phrases one seat may send in a minute. */
const CHAT_PER_MINUTE = 6;

const refusals = (...statuses: number[]) => Object.fromEntries(statuses.map((status) => [status, ErrorBody]));

const ChatBody = Type.Object(
  { phrase: Type.Unsafe<ChatPhrase>(Type.String({ enum: [...CHAT_PHRASES], description: `one of ${CHAT_PHRASES.join(', ')}` })) },
  { additionalProperties: false },
);

export function chatRoutes(context: GatewayContext, notices: TableNotices, board: NoticeBoard): FastifyPluginAsyncTypebox {
  const { feed, auth } = context;
  const chat = new QuickChat({ notices, board, perMinute: CHAT_PER_MINUTE });
  return async (app) => {
    app.post(
      '/api/tables/:tableId/chat',
      {
        schema: {
          summary: 'Say a preset phrase at the table (seat token): every socket of the table is sent it; nothing is logged',
          description: `At most ${CHAT_PER_MINUTE} phrases a minute per seat (429 beyond).`,
          tags: ['seats'],
          params: TableParams,
          body: ChatBody,
          response: { 204: Type.Null(), ...refusals(400, 401, 403, 404, 429) },
        },
      },
      async (request, reply) => {
        const { tableId } = request.params;
        const { snapshot } = await feed.current(tableId);
        const hold = heldSeatOf(await auth.fromHeader(request.headers.authorization, tableId), tableId, snapshot.context);
        await chat.say(tableId, hold.seat, request.body.phrase);
        return reply.code(204).send(null);
      },
    );
  };
}
