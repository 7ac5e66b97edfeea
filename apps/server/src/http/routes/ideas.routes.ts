import { SearchByIdeaBody, SearchByIdeaResponse } from '@mirror/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireAuth } from '../authenticate.js';

/** Idea mode (SPEC §1, §7), mounted under /domains beside the sites routes. */
export const ideasRoutes: FastifyPluginAsyncZod = async (app) => {
  const ideas = app.ideasService;

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
