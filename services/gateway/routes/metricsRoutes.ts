/** Prometheus metrics at /metrics (metrics.ts says what is counted). */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { GatewayMetrics } from '../metrics.js';

// In a plugin, as every route is: a route added at the root would be added before the rate limit is loaded.
export function metricsRoutes(metrics: GatewayMetrics): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get('/metrics', { schema: { summary: 'Prometheus metrics', tags: ['operations'] } }, async (_, reply) => {
      reply.header('content-type', metrics.registry.contentType);
      return metrics.registry.metrics();
    });
  };
}
