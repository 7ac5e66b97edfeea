import { HealthResponse, ReadyResponse } from '@mirror/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { PROBE_MESSAGES } from '../../platform/ops/probes.js';
import { serviceUnavailable, unauthorized } from '../../errors.js';

/** Liveness and readiness, as the worker and sites roles answer them too (`platform/ops/probes`). */
export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/health',
    {
      schema: {
        tags: ['system'],
        summary: 'Liveness: answers ok when the server and its database respond',
        response: { 200: HealthResponse },
      },
    },
    async (request) => {
      try {
        await app.probes.health();
      } catch (err) {
        request.log.error({ err }, 'database ping failed');
        throw serviceUnavailable(PROBE_MESSAGES.databaseUnavailable);
      }
      return { status: 'ok' as const };
    },
  );

  app.get(
    '/ready',
    {
      schema: {
        tags: ['system'],
        summary:
          'Readiness: the database, the job queue (Redis) and the blob store answer, and the process is not shutting down',
        response: { 200: ReadyResponse, 503: ReadyResponse },
      },
    },
    async (_request, reply) => {
      const report = await app.probes.ready();
      return reply
        .code(report.status === 'ready' ? 200 : 503)
        .header('cache-control', 'no-store')
        .send(report);
    },
  );
};

/** Prometheus metrics of this process, at `/metrics` (bearer METRICS_TOKEN when set). */
export const metricsRoute: FastifyPluginAsyncZod = async (app) => {
  app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
    if (!app.probes.mayReadMetrics(request.headers.authorization)) {
      throw unauthorized(PROBE_MESSAGES.metricsToken);
    }
    const { contentType, body } = await app.metrics.render();
    return reply.type(contentType).header('cache-control', 'no-store').send(body);
  });
};
