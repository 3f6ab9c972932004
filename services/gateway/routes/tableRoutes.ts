/**
 * Tables: create, list (the lobby), views, the log and record of a game,
 * replays.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { GAMES } from '../../../machines/table/options.js';
import { phaseOf, type TableSnapshot } from '../../../machines/table/snapshot.js';
import type { Occupant } from '../../../machines/table/events.js';
import { viewFor } from '../../../machines/view.js';
import { DEFAULT_BOT_KIND, type BotKind } from '../../bots/botRunner.js';
import type { StoredEvent } from '../../eventstore/eventStore.js';
import { heldSeatOf, seatOf, type Caller } from '../auth.js';
import type { GatewayContext } from '../context.js';
import { openViewFor } from '../openView.js';
import { tableBotName } from '../playerNames.js';
import { clientOf } from '../clientIdentity.js';
import { GatewayRefusal } from '../refusals.js';
import {
  CreateTableBody,
  CreatedTable,
  ErrorBody,
  Lobby,
  LobbyQuery,
  LogResponse,
  RecordDocument,
  ReplayQuery,
  ReplayResponse,
  TableParams,
  ViewResponse,
} from '../schemas.js';
import { settingsRecord } from '../../host/tableSettings.js';
import { activeStatesOf } from './machineRoutes.js';

const refusals = (...statuses: number[]) => Object.fromEntries(statuses.map((status) => [status, ErrorBody]));

export function tableRoutes(context: GatewayContext): FastifyPluginAsyncTypebox {
  const { host, feed, auth, limits, lobby, watchers } = context;
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
      async (request, reply) => {
        const { game, options, bots, turnSeconds } = request.body;
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
        const client = clientOf(request.ip, limits.ipv6ClientPrefix);
        const done = waits ? await lobby.reserveSeatingTable(client) : await lobby.reserveBotTable(client);
        try {
          const accepted = await feed.createTable({ game, options: options ?? {}, players, settings });
          done(accepted.tableId);
          return reply.code(201).send({ tableId: accepted.tableId, version: accepted.version });
        } finally {
          done();
        }
      },
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
      async (request) => {
        const { page, limit } = pageOf(request.query);
        return lobby.page(page, limit);
      },
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
      async (request) => {
        const { page, limit } = pageOf(request.query);
        return lobby.recent(page, limit);
      },
    );

    app.get(
      '/api/tables/:tableId/view',
      {
        schema: {
          summary: "A seat's view (with its token), else the spectator's",
          tags: ['tables'],
          params: TableParams,
          response: { 200: ViewResponse, ...refusals(401, 403, 404, 429) },
        },
      },
      async (request) => {
        const { tableId } = request.params;
        const caller = await auth.fromHeader(request.headers.authorization, tableId);
        // The token's table is checked before the table is read, so a token for another table learns nothing of this one.
        if (caller.kind === 'seat') seatOf(caller, tableId);
        const change = await feed.current(tableId);
        const viewer = caller.kind === 'seat' ? heldSeatOf(caller, tableId, change.snapshot.context).seat : 'spectator';
        // Built from the change as the sockets' views are.
        return watchers.viewsOf(change).versioned(viewer);
      },
    );

    app.get(
      '/api/tables/:tableId/log',
      {
        config: { cost: 'wholeGame' },
        schema: {
          summary: "The table's event log: once the game is over, or with the admin token",
          tags: ['records'],
          params: TableParams,
          response: { 200: LogResponse, ...refusals(401, 403, 404, 409, 429) },
        },
      },
      async (request) => {
        const { tableId } = request.params;
        const caller = await auth.fromHeader(request.headers.authorization, tableId);
        await mayReadWholeGame(caller, tableId, 'log');
        const events = await host.events(tableId);
        return { events: caller.kind === 'admin' ? events : events.map(withoutTenure) };
      },
    );

    app.get(
      '/api/tables/:tableId/record',
      {
        config: { cost: 'wholeGame' },
        schema: {
          summary: "The table's game record (docs/record-format.md): once the game is over, or with the admin token",
          tags: ['records'],
          params: TableParams,
          response: { 200: RecordDocument, ...refusals(401, 403, 404, 409, 429) },
        },
      },
      async (request) => {
        const { tableId } = request.params;
        await mayReadWholeGame(await auth.fromHeader(request.headers.authorization, tableId), tableId, 'record');
        return host.exportRecord(tableId);
      },
    );

    app.get(
      '/api/tables/:tableId/replay',
      {
        config: { cost: 'replay' },
        schema: {
          summary:
            'The table right after event `at`: the spectator view, every hand open once the game is over, or (`seat`, a finished game) what that seat saw',
          tags: ['records'],
          params: TableParams,
          querystring: ReplayQuery,
          response: { 200: ReplayResponse, ...refusals(400, 404, 409, 429) },
        },
      },
      async (request) => {
        const { tableId } = request.params;
        const { at, seat } = request.query;
        const { version, snapshot: now } = await host.snapshot(tableId);
        if (seat !== undefined) checkReplaySeat(tableId, now, seat);
        if (at > version)
          throw new GatewayRefusal('notNow', `table ${tableId} has ${version} events; replay at 1 to ${version}, not ${at}`);
        const { snapshot } = await host.replayAt(tableId, at);
        const view =
          seat !== undefined ? viewFor(snapshot, seat) : isFinished(now) ? openViewFor(snapshot) : viewFor(snapshot, 'spectator');
        return { at, version, phase: phaseOf(snapshot), state: snapshot.value, activeStates: activeStatesOf(snapshot), view };
      },
    );
  };

  function pageOf(query: { page?: number; limit?: number }): { page: number; limit: number } {
    const { default: fallback, max } = limits.lobbyPage;
    const limit = query.limit ?? fallback;
    if (limit > max) throw new GatewayRefusal('badRequest', `query.limit must be at most ${max} tables a page, not ${limit}`);
    return { page: query.page ?? 1, limit };
  }

  /** The log and the record hold every hand: anyone may read them once the game is over, before that only the operator. */
  async function mayReadWholeGame(caller: Caller, tableId: string, what: 'log' | 'record'): Promise<void> {
    // The operator reads the log of any table, a quarantined one's too (whose state there is none to read): it shows what went wrong.
    if (caller.kind === 'admin' && what === 'log') return;
    const { snapshot } = await host.snapshot(tableId);
    if (caller.kind === 'admin' || isFinished(snapshot)) return;
    if (caller.kind === 'seat') {
      throw new GatewayRefusal(
        'forbidden',
        `the ${what} of a game in play shows every hand; a seat token cannot read it before the game is over`,
      );
    }
    throw new GatewayRefusal(
      'notNow',
      `the ${what} of table ${tableId} opens when its game is over (it is in ${phaseOf(snapshot)}); operators may read it earlier with the admin token`,
    );
  }
}

/**
 * A replay as one seat saw it shows that seat's hand: only once the game is
 * over, when every hand is public (a spectator may not see a hand in play).
 */
function checkReplaySeat(tableId: string, now: TableSnapshot, seat: number): void {
  const { seatCount, game } = now.context;
  if (seat >= seatCount) {
    throw new GatewayRefusal('badRequest', `query.seat must be from 0 to ${seatCount - 1} at a table of ${GAMES[game].title}, not ${seat}`);
  }
  if (!isFinished(now)) {
    throw new GatewayRefusal(
      'notNow',
      `the game is not over; a replay as seat ${seat} saw it shows that seat's hand, so it opens when the game at table ${tableId} is over (it is in ${phaseOf(now)}); leave out seat for the spectator's replay`,
    );
  }
}

function isFinished(snapshot: TableSnapshot): boolean {
  return snapshot.context.outcome?.finished === true;
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

/** A seat's tenure is the hash of its token: it stays in the log for the operator, and out of what anyone else reads. */
function withoutTenure(event: StoredEvent): StoredEvent {
  if (event.type !== 'seat.joined' || typeof event.data !== 'object' || event.data === null || !('holder' in event.data)) return event;
  const { holder: _holder, ...data } = event.data as Record<string, unknown>;
  return { ...event, data };
}
