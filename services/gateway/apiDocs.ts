/** The API's OpenAPI document, drawn from the routes' schemas, and its browsable page at /docs. */
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';

export function registerApiDocs(app: FastifyInstance): void {
  app.register(fastifySwagger, {
    openapi: {
      info: {
        title: 'Seven Suitors service',
        description: 'Tables of Seven Suitors, Anti-Cupid and A Traitor of Love (docs/api.md).',
        version: '0.1.0',
      },
      components: { securitySchemes: { seatToken: { type: 'http', scheme: 'bearer' } } },
    },
  });
  app.register(fastifySwaggerUi, { routePrefix: '/docs' });
}
