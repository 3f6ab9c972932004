/** GET /api/fleet: where the fleet's tables stand, by game and rules version (gatewayFleet, services/projections/fleet). */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type, type Static } from 'typebox';
import type { GatewayFleet } from '../fleetOverlay.js';
import { ErrorBody } from '../schemas.js';

const Count = Type.Integer({ minimum: 0 });

const FleetBody = Type.Object({
  asOf: Type.String({ description: 'ISO-8601 time of the answer' }),
  lag: Type.Integer({ minimum: 0, description: 'events appended that the overlay has not folded yet' }),
  games: Type.Array(
    Type.Object({
      game: Type.String(),
      rules: Type.Integer({ description: 'the rules version (machines/games/rulebooks.ts)' }),
      tables: Type.Integer({ minimum: 0, description: 'tables whose game goes on' }),
      finished: Count,
      quarantined: Count,
      states: Type.Array(Type.Object({ state: Type.String({ description: 'a state id, as the diagrams name it' }), tables: Count }), {
        description: 'live tables in each state, ancestors included; states with none are left out',
      }),
      transitions: Type.Array(Type.Object({ source: Type.String(), target: Type.String(), event: Type.String(), count: Count }), {
        description: 'times each transition was taken: from the outermost state left to the outermost entered, by event type',
      }),
      dwell: Type.Array(Type.Object({ state: Type.String(), visits: Count, medianMs: Count, p90Ms: Count }), {
        description: 'how long tables stayed in each state they left (to within 19%)',
      }),
    }),
  ),
});

export function fleetRoutes(fleet: GatewayFleet): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.addHook('onClose', async () => fleet.stop());
    app.get(
      '/api/fleet',
      {
        schema: {
          summary: 'The fleet: live tables per state, transitions taken and dwell times, per game and rules version',
          description: 'Public: counts only. Kept up to date as events are appended, not folded per request.',
          tags: ['fleet'],
          response: { 200: FleetBody, 503: ErrorBody },
        },
      },
      // The report's arrays are readonly; the schema's type reads them only.
      async () => (await fleet.report()) as Static<typeof FleetBody>,
    );
  };
}
