/**
 * GET /api/admin/fleet: the operator's page's figures (operatorFleet.ts),
 * for the admin token only. It lists tables by id and says what each waits
 * on, which is more than the public counts of GET /api/fleet; never a card,
 * a role or a token.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type, type Static } from 'typebox';
import type { TableOwners } from '../../bus/tableOwnerReads.js';
import type { WorkerStatuses } from '../../bus/workerStatus.js';
import type { GatewayContext } from '../context.js';
import { EventLoopLag, type LagSource } from '../../eventLoopLag.js';
import type { GatewayFleet } from '../fleetOverlay.js';
import { operatorFleet, STUCK_AFTER_MS } from '../operatorFleet.js';
import { GatewayRefusal } from '../refusals.js';
import { refusals } from '../schemas.js';

const Count = Type.Integer({ minimum: 0 });

const OperatorBody = Type.Object({
  asOf: Type.String(),
  process: Type.Object({
    rssBytes: Count,
    heapUsedBytes: Count,
    eventLoopLagMs: Count,
    commandsPerSecond: Type.Union([Type.Number({ minimum: 0 }), Type.Null()], {
      description: 'over the last readings, at least 5 s apart; null until there are two',
    }),
    fleetLag: Type.Integer({ minimum: 0, description: 'events the fleet overlay has not folded yet' }),
  }),
  owner: Type.Union([Type.Literal('thisProcess'), Type.Literal('workers')], { description: 'who holds the tables' }),
  workers: Type.Array(
    Type.Object({
      worker: Type.String(),
      listedTables: Type.Integer({ minimum: 0, description: 'how many of the listed tables it holds' }),
      status: Type.Union(
        [
          Type.Object({
            at: Type.String({ description: 'when it put this status (every 2 s)' }),
            heardSecondsAgo: Count,
            rssBytes: Count,
            heapUsedBytes: Count,
            eventLoopLagMs: Count,
            commandsPerSecond: Type.Union([Type.Number({ minimum: 0 }), Type.Null()]),
            tablesHeld: Count,
            tables: Type.Array(Type.String(), { description: 'at most 100 of the tables it holds, in id order' }),
          }),
          Type.Null(),
        ],
        { description: 'what it last said of itself; null when it says nothing (gone for over 6 s, or an older release)' },
      ),
    }),
    { description: 'on NATS: every worker that puts its status, or holds a listed table, by id' },
  ),
  games: Type.Array(Type.Unknown(), { description: 'as GET /api/fleet' }),
  tables: Type.Object({
    inPlay: Count,
    waitingOnPeople: Count,
    waitingOnService: Count,
    stuck: Count,
    quarantined: Count,
    listed: Type.Array(
      Type.Object({
        tableId: Type.String(),
        game: Type.String(),
        rules: Type.Integer(),
        states: Type.Array(Type.String()),
        waitingOn: Type.Union([Type.Literal('people'), Type.Literal('service'), Type.Literal('operator')]),
        awaited: Type.Array(Type.Object({ seat: Count, action: Type.String(), bot: Type.Boolean() })),
        lastEventAt: Type.String(),
        deadline: Type.Union([Type.String(), Type.Null()]),
        overdueSeconds: Type.Union([Count, Type.Null()]),
        quarantined: Type.Boolean(),
        owner: Type.Union([Type.String(), Type.Null()], { description: 'the worker holding it (NATS); null when this process does' }),
        replay: Type.String(),
      }),
      { description: 'at most 200: the stuck first, then those stopped for repair, then by last event, oldest first' },
    ),
  }),
  missing: Type.Array(Type.String(), { description: 'what the page cannot measure here, in words' }),
});

export function operatorRoutes(
  context: GatewayContext,
  fleet: GatewayFleet,
  options: { lag?: LagSource; owners?: TableOwners; workerStatuses?: WorkerStatuses } = {},
): FastifyPluginAsyncTypebox {
  return async (app) => {
    const ownLag = options.lag === undefined ? new EventLoopLag(1000) : undefined;
    app.addHook('onClose', async () => ownLag?.stop());
    const operator = operatorFleet({
      host: context.host,
      fleet,
      metrics: context.metrics,
      lag: options.lag ?? ownLag!,
      owners: options.owners,
      workerStatuses: options.workerStatuses,
    });
    app.get(
      '/api/admin/fleet',
      {
        schema: {
          summary:
            "The operator's page (admin token): tables in play, what each waits on, the stuck and stopped ones, this process and every worker",
          description: `A table is stuck when a move the service owes (a bot's, a deal, a turn clock's timeout) is over ${STUCK_AFTER_MS / 1000} s late. Cards, roles and tokens are never shown.`,
          tags: ['operations'],
          response: { 200: OperatorBody, ...refusals(401, 403, 429, 503) },
        },
      },
      async (request) => {
        const caller = await context.auth.fromHeader(request.headers.authorization);
        if (caller.kind === 'anyone') {
          throw new GatewayRefusal(
            'unauthorized',
            'the operator\'s page needs the admin token: send it as "Authorization: Bearer <token>"',
          );
        }
        if (caller.kind === 'seat')
          throw new GatewayRefusal('forbidden', "a seat token cannot read the operator's page; only the admin token can");
        // The report's arrays are readonly; the schema's type reads them only.
        return (await operator.report()) as Static<typeof OperatorBody>;
      },
    );
  };
}
