/**
 * GET /api/fleet: where the fleet's tables stand, by game and rules version
 * (gatewayFleet, services/projections/fleet); with ?from=&to=, the games
 * that ended in that range of UTC hours.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type, type Static } from 'typebox';
import { FINISHED_HOURS_KEPT, hourText } from '../../projections/fleet/finishedHours.js';
import type { GatewayFleet } from '../fleetOverlay.js';
import { GatewayRefusal } from '../refusals.js';
import { ErrorBody } from '../schemas.js';

const Count = Type.Integer({ minimum: 0 });

const TransitionCounts = Type.Array(Type.Object({ source: Type.String(), target: Type.String(), event: Type.String(), count: Count }), {
  description: 'times each transition was taken: from the outermost state left to the outermost entered, by event type',
});
const DwellFigures = Type.Array(Type.Object({ state: Type.String(), visits: Count, medianMs: Count, p90Ms: Count }), {
  description: 'how long tables stayed in each state they left (to within 19%)',
});

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
      transitions: TransitionCounts,
      dwell: DwellFigures,
    }),
  ),
});

const FinishedFleetBody = Type.Object({
  asOf: Type.String({ description: 'ISO-8601 time of the answer' }),
  lag: Type.Integer({ minimum: 0, description: 'events appended that the overlay has not folded yet' }),
  from: Type.String({ description: 'the range asked for: games that ended at or after from, and before to' }),
  to: Type.String(),
  games: Type.Array(
    Type.Object({
      game: Type.String(),
      rules: Type.Integer(),
      finished: Type.Integer({ minimum: 1, description: 'games of this game and rules version that ended in the range' }),
      transitions: TransitionCounts,
      dwell: DwellFigures,
    }),
    { description: 'each group with games that ended in the range, over their whole runs' },
  ),
});

/** One spelling: a UTC hour, as toISOString writes it without its milliseconds. */
const HOUR = /^\d{4}-\d{2}-\d{2}T\d{2}:00:00Z$/;
const HOUR_MS = 3_600_000;
const HOUR_EXAMPLE = '2026-12-01T13:00:00Z';

/** `from` and `to` of a range of finished games: GET /api/fleet's, and the fleet overlay's on a diagram. */
export const FinishedRangeQuery = {
  from: Type.Optional(
    Type.String({
      maxLength: 64,
      description: `with to: the games that ended from this UTC hour on, written as ${HOUR_EXAMPLE}`,
    }),
  ),
  to: Type.Optional(
    Type.String({ maxLength: 64, description: `with from: … and before this UTC hour; at most ${FINISHED_HOURS_KEPT} hours after from` }),
  ),
};

const FleetQuery = Type.Object(FinishedRangeQuery, { additionalProperties: false });

/** The range a query names, in ms, or null for none; refuses (badRequest) anything but two hours in order, close enough. */
export function finishedRangeOf(query: { from?: string; to?: string }): { from: number; to: number } | null {
  if (query.from === undefined && query.to === undefined) return null;
  if (query.from === undefined || query.to === undefined) {
    throw new GatewayRefusal(
      'badRequest',
      `query.from and query.to come together (?from=${HOUR_EXAMPLE}&to=2026-12-02T13:00:00Z); ask for neither for the tables in play`,
    );
  }
  const from = hourOf('from', query.from);
  const to = hourOf('to', query.to);
  if (to <= from) throw new GatewayRefusal('badRequest', `query.to (${query.to}) must be after query.from (${query.from})`);
  const hours = (to - from) / HOUR_MS;
  if (hours > FINISHED_HOURS_KEPT) {
    throw new GatewayRefusal(
      'badRequest',
      `a range spans at most ${FINISHED_HOURS_KEPT} hours (${FINISHED_HOURS_KEPT / 24} days); ${query.from} to ${query.to} spans ${hours}`,
    );
  }
  return { from, to };
}

function hourOf(field: 'from' | 'to', text: string): number {
  const ms = Date.parse(text);
  // The pattern alone lets "2026-02-30T10:00:00Z" through, which Date reads as March 2.
  if (!HOUR.test(text) || Number.isNaN(ms) || hourText(ms) !== text) {
    throw new GatewayRefusal(
      'badRequest',
      `query.${field} must be a UTC hour written as ${HOUR_EXAMPLE} (finished games are counted by the hour they ended in), not "${text}"`,
    );
  }
  return ms;
}

export function fleetRoutes(fleet: GatewayFleet): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.addHook('onClose', async () => fleet.stop());
    app.get(
      '/api/fleet',
      {
        schema: {
          summary: 'The fleet: live tables per state, transitions taken and dwell times, per game and rules version',
          description: `Public: counts only. Kept up to date as events are appended, not folded per request. With from and to (UTC hours, ${HOUR_EXAMPLE}, at most ${FINISHED_HOURS_KEPT} apart): the transitions and dwell times of the games that ended in that range, kept by the hour for ${FINISHED_HOURS_KEPT / 24} days.`,
          tags: ['fleet'],
          querystring: FleetQuery,
          response: { 200: Type.Union([FleetBody, FinishedFleetBody]), 400: ErrorBody, 503: ErrorBody },
        },
      },
      // The reports' arrays are readonly; the schema's types read them only.
      async (request) => {
        const range = finishedRangeOf(request.query);
        if (range === null) return (await fleet.report()) as Static<typeof FleetBody>;
        return (await fleet.finished(range)) as Static<typeof FinishedFleetBody>;
      },
    );
  };
}
