/**
 * A table right after any event of its log: the spectator's view while the
 * game is in play; once it is over, every hand open, or what one seat saw.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { GAMES } from '../../../machines/table/options.js';
import { phaseOf, type TableSnapshot } from '../../../machines/table/snapshot.js';
import { viewFor } from '../../../machines/view.js';
import type { GatewayContext } from '../context.js';
import { openViewFor } from '../openView.js';
import { GatewayRefusal } from '../refusals.js';
import { refusals, ReplayQuery, ReplayResponse, TableParams } from '../schemas.js';
import { isFinished } from './gameOver.js';
import { activeStatesOf } from './machineRoutes.js';

export function replayRoutes(context: GatewayContext): FastifyPluginAsyncTypebox {
  return async (app) => {
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
          response: { 200: ReplayResponse, ...refusals(400, 404, 409, 410, 429) },
        },
      },
      async (request) => replayAt(context, request.params.tableId, request.query),
    );
  };
}

async function replayAt({ host }: GatewayContext, tableId: string, { at, seat }: { at: number; seat?: number }) {
  const { version, snapshot: now } = await host.snapshot(tableId);
  if (seat !== undefined) checkReplaySeat(tableId, now, seat);
  if (at > version) throw new GatewayRefusal('notNow', `table ${tableId} has ${version} events; replay at 1 to ${version}, not ${at}`);
  const { snapshot } = await host.replayAt(tableId, at);
  const view = seat !== undefined ? viewFor(snapshot, seat) : isFinished(now) ? openViewFor(snapshot) : viewFor(snapshot, 'spectator');
  return { at, version, phase: phaseOf(snapshot), state: snapshot.value, activeStates: activeStatesOf(snapshot), view };
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
