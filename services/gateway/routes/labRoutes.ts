/**
 * The designer's lab over this service's finished games (docs/lab.md):
 * GET /api/lab, the figures as stats.json has them, and GET /lab, the same
 * as the report page. Public: a finished game's record is public already
 * (GET /api/tables/:id/record), and nothing of a game under way is read.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { FinishedGamesLab } from '../../lab/finishedGames.js';
import { reportHtml } from '../../lab/report/reportHtml.js';
import type { GatewayContext } from '../context.js';
import { ErrorBody } from '../schemas.js';

const LabStatsBody = Type.Object(
  {
    format: Type.String(),
    source: Type.String(),
    sections: Type.Array(Type.Object({ game: Type.String(), count: Type.Integer() }, { additionalProperties: true })),
    comparisons: Type.Array(Type.Object({ game: Type.String(), setting: Type.String() }, { additionalProperties: true })),
    skipped: Type.Array(Type.Object({ file: Type.String(), problem: Type.String() })),
  },
  { description: 'the figures, as `suitors lab` writes stats.json (docs/lab.md)' },
);

export function labRoutes(context: GatewayContext): FastifyPluginAsyncTypebox {
  const { lobby, host } = context;
  const lab = new FinishedGamesLab({
    newest: async (most) => {
      const page = await lobby.recent(1, most);
      return { tableIds: page.tables.map((table) => table.tableId), finishedInAll: page.total };
    },
    record: (tableId) => host.exportRecord(tableId),
  });
  return async (app) => {
    app.get(
      '/api/lab',
      {
        config: { cost: 'wholeGame' },
        schema: {
          summary:
            "The designer's lab over this service's newest finished games: per game and options, game lengths, win shares with 95% intervals, the seat test (docs/lab.md)",
          tags: ['lab'],
          response: { 200: LabStatsBody, 429: ErrorBody, 503: ErrorBody },
        },
      },
      async () => {
        const stats = await lab.stats();
        return { ...stats, sections: [...stats.sections], comparisons: [...stats.comparisons], skipped: [...stats.skipped] };
      },
    );
    app.get(
      '/lab',
      {
        config: { cost: 'wholeGame' },
        schema: {
          summary: "The designer's lab as a page: the figures of GET /api/lab drawn",
          tags: ['lab'],
          response: { 200: Type.String({ description: 'the report page (text/html)' }), 429: ErrorBody, 503: ErrorBody },
        },
      },
      async (_, reply) => {
        const page = reportHtml(await lab.stats(), { title: 'The designer’s lab: this service’s finished games' });
        return reply.type('text/html; charset=utf-8').send(page);
      },
    );
  };
}
