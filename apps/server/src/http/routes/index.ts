import type { FastifyPluginAsync } from 'fastify';
import { healthRoutes } from './health.routes.js';

/** Every API resource, mounted under /api. Routes stay thin: validate, call a service, shape the answer. */
export const apiRoutes: FastifyPluginAsync = async (app) => {
  await app.register(healthRoutes);
};
