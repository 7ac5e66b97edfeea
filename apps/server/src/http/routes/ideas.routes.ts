import { SearchByIdeaBody, SearchByIdeaResponse } from '@mirror/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { createIdeasService } from '../../modules/ideas/ideas.service.js';
import { createDbRateLimiter } from '../../platform/rate-limit/rate-limiter.js';
import { requireAuth } from '../authenticate.js';

/** Idea mode (SPEC §1, §7), mounted under /domains beside the sites routes. */
export const ideasRoutes: FastifyPluginAsyncZod = async (app) => {
  const ideas = createIdeasService({
    config: app.config,
    limiter: createDbRateLimiter(app.database.db, app.config.rateLimitFactor),
    log: app.log,
    screenshots: app.screenshotsService,
  });

  app.post(
    '/search-by-idea',
    {
      schema: {
        tags: ['ideas'],
        summary: 'Reference websites for a website idea',
        security: [{ bearer: [] }],
        body: SearchByIdeaBody,
        response: { 200: SearchByIdeaResponse },
      },
      // Signed-in users only, checked before the body so visitors get the 401, not a 400.
      onRequest: async (request) => {
        await requireAuth(request);
      },
    },
    async (request) => ideas.searchByIdea((await requireAuth(request)).user, request.body),
  );
};
