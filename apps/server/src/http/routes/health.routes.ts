import { HealthResponse } from '@mirror/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { serviceUnavailable } from '../app-error.js';

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
        await app.database.ping();
      } catch (err) {
        request.log.error({ err }, 'database ping failed');
        throw serviceUnavailable('Database unavailable.');
      }
      return { status: 'ok' as const };
    },
  );
};
