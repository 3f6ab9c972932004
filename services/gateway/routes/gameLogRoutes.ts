/**
 * A game's event log and its game record (docs/record-format.md). Both hold
 * every hand, so they open when the game is over; before that only the
 * operator's token reads them.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { phaseOf } from '../../../machines/table/snapshot.js';
import type { StoredEvent } from '../../eventstore/eventStore.js';
import { isTableRefusal } from '../../host/errors.js';
import type { TableService } from '../../host/tableService.js';
import type { Caller } from '../auth.js';
import type { GatewayContext } from '../context.js';
import { GatewayRefusal } from '../refusals.js';
import { LogResponse, RecordDocument, refusals, TableParams } from '../schemas.js';
import { isFinished } from './gameOver.js';

export function gameLogRoutes(context: GatewayContext): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/api/tables/:tableId/log',
      {
        config: { cost: 'wholeGame' },
        schema: {
          summary: "The table's event log: once the game is over, or with the admin token",
          tags: ['records'],
          params: TableParams,
          response: { 200: LogResponse, ...refusals(401, 403, 404, 409, 410, 429) },
        },
      },
      async (request) => tableLog(context, request.params.tableId, request.headers.authorization),
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
      async (request) => gameRecord(context, request.params.tableId, request.headers.authorization),
    );
  };
}

async function tableLog({ auth, host }: GatewayContext, tableId: string, authorization: string | undefined) {
  const caller = await auth.fromHeader(authorization, tableId);
  await mayReadWholeGame(host, caller, tableId, 'log');
  const events = await host.events(tableId);
  return { events: caller.kind === 'admin' ? events : events.map(withoutTenure) };
}

async function gameRecord({ auth, host }: GatewayContext, tableId: string, authorization: string | undefined) {
  await mayReadWholeGame(host, await auth.fromHeader(authorization, tableId), tableId, 'record');
  return host.exportRecord(tableId);
}

/** The log and the record hold every hand: anyone may read them once the game is over, before that only the operator. */
async function mayReadWholeGame(host: TableService, caller: Caller, tableId: string, what: 'log' | 'record'): Promise<void> {
  // The operator reads the log of any table, a quarantined one's too (whose state there is none to read): it shows what went wrong.
  if (caller.kind === 'admin' && what === 'log') return;
  const { snapshot } = await host.snapshot(tableId).catch((error: unknown) => {
    // A retired game was over: its record is kept for anyone (host.exportRecord answers it); its log is gone (410).
    if (what === 'record' && isTableRefusal(error) && error.kind === 'retired') return { snapshot: null };
    throw error;
  });
  if (snapshot === null) return;
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

/** A seat's tenure is the hash of its token: it stays in the log for the operator, and out of what anyone else reads. */
function withoutTenure(event: StoredEvent): StoredEvent {
  if (event.type !== 'seat.joined' || typeof event.data !== 'object' || event.data === null || !('holder' in event.data)) return event;
  const { holder: _holder, ...data } = event.data as Record<string, unknown>;
  return { ...event, data };
}
