/**
 * Tables as the lobby has them: create one, list those seating players or in
 * play, and the games finished lately.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { GAMES } from '../../../machines/table/options.js';
import type { Occupant } from '../../../machines/table/events.js';
import { DEFAULT_BOT_KIND, type BotKind } from '../../bots/botRunner.js';
import { settingsRecord } from '../../host/tableSettings.js';
import { clientOf } from '../clientIdentity.js';
import type { GatewayContext } from '../context.js';
import type { GatewayLimits } from '../limits.js';
import { tableBotName } from '../playerNames.js';
import { GatewayRefusal } from '../refusals.js';
import { CreateTableBody, CreatedTable, Lobby, LobbyQuery, refusals } from '../schemas.js';

type PageQuery = { page?: number; limit?: number };

export function tableRoutes(context: GatewayContext): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.post(
      '/api/tables',
      {
        config: { cost: 'createTable' },
        schema: {
          summary: 'Create a table',
          description: 'Bots take the seats listed in `bots` at once; a table whose seats are all taken deals and starts.',
          tags: ['tables'],
          body: CreateTableBody,
          response: { 201: CreatedTable, ...refusals(400, 413, 422, 429, 503) },
        },
      },
      async (request, reply) => reply.code(201).send(await createTable(context, request.body, request.ip)),
    );

    app.get(
      '/api/tables',
      {
        schema: {
          summary: 'The lobby: tables seating players or in play, and games finished in the last minutes, a page at a time',
          description: 'Tables by id. A table nobody sits at closes after a while; a finished game moves to GET /api/tables/recent.',
          tags: ['tables'],
          querystring: LobbyQuery,
          response: { 200: Lobby, ...refusals(400, 429, 503) },
        },
      },
      async (request) => lobbyPage(context, request.query),
    );

    app.get(
      '/api/tables/recent',
      {
        schema: {
          summary: 'The recent games: every finished game, the last finished first, a page at a time',
          tags: ['tables'],
          querystring: LobbyQuery,
          response: { 200: Lobby, ...refusals(400, 429, 503) },
        },
      },
      async (request) => recentGames(context, request.query),
    );
  };
}

/** A new table, its bots seated; one with a seat left for people counts against the caller's tables waiting for players. */
async function createTable(
  { feed, limits, lobby, storageBudget }: GatewayContext,
  body: CreateTableBody,
  clientAddress: string,
): Promise<{ tableId: string; version: number }> {
  const { game, options, bots, turnSeconds } = body;
  if (turnSeconds !== undefined && turnSeconds < limits.minTurnSeconds) {
    throw new GatewayRefusal(
      'badRequest',
      `body.turnSeconds must be at least ${limits.minTurnSeconds} (the shortest turn clock: a person needs time to see it is their turn), not ${turnSeconds}`,
    );
  }
  const botSeats = botSeatsOf(game, bots ?? []);
  const players: (Occupant | null)[] = Array.from({ length: GAMES[game].seats }, (_, seat) => {
    const kind = botSeats.get(seat);
    return kind === undefined ? null : { name: tableBotName(kind, seat), bot: true };
  });
  const settings = settingsRecord({ turnSeconds: turnSeconds ?? null, botKinds: Object.fromEntries(botSeats) });
  // Only a table with a seat left for people waits in seating; one of bots alone starts at once.
  const waits = players.some((player) => player === null);
  const client = clientOf(clientAddress, limits.ipv6ClientPrefix);
  const done = waits ? await lobby.reserveSeatingTable(client) : await lobby.reserveBotTable(client);
  try {
    const accepted = await storageBudget.spend(client, () => feed.createTable({ game, options: options ?? {}, players, settings }));
    done(accepted.tableId);
    return { tableId: accepted.tableId, version: accepted.version };
  } finally {
    done();
  }
}

function lobbyPage({ lobby, limits }: GatewayContext, query: PageQuery) {
  const { page, limit } = pageOf(limits, query);
  return lobby.page(page, limit);
}

function recentGames({ lobby, limits }: GatewayContext, query: PageQuery) {
  const { page, limit } = pageOf(limits, query);
  return lobby.recent(page, limit);
}

function pageOf(limits: GatewayLimits, query: PageQuery): { page: number; limit: number } {
  const { default: fallback, max } = limits.lobbyPage;
  const limit = query.limit ?? fallback;
  if (limit > max) throw new GatewayRefusal('badRequest', `query.limit must be at most ${max} tables a page, not ${limit}`);
  return { page: query.page ?? 1, limit };
}

/** The bot seats a new table asks for, each checked against the game's seats. */
function botSeatsOf(game: keyof typeof GAMES, bots: CreateTableBody['bots'] & object): Map<number, BotKind> {
  const seats = GAMES[game].seats;
  const chosen = new Map<number, BotKind>();
  for (const bot of bots) {
    const { seat, kind } = typeof bot === 'number' ? { seat: bot, kind: DEFAULT_BOT_KIND } : bot;
    if (seat >= seats) throw new GatewayRefusal('malformed', `bots: ${GAMES[game].title} has seats 0 to ${seats - 1}, not ${seat}`);
    if (chosen.has(seat)) throw new GatewayRefusal('malformed', `bots: seat ${seat} is named twice`);
    chosen.set(seat, kind);
  }
  return chosen;
}
