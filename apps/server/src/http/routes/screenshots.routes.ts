import { Readable } from 'node:stream';
import {
  ScreenshotBody,
  ScreenshotFileParams,
  ScreenshotResponse,
  ScreenshotStatusQuery,
  ScreenshotStatusResponse,
} from '@mirror/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireAuth } from '../authenticate.js';

/** Stored screenshots never change: their name is the hash of their bytes. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * Website thumbnails (SPEC §2 reference grid, §7 `POST /domains/screenshot`) and the images
 * themselves, which `<img>` tags load without a token.
 */
export const screenshotsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/domains/screenshot',
    {
      schema: {
        tags: ['ideas'],
        summary: 'A thumbnail of a public website (cached for 24 hours)',
        security: [{ bearer: [] }],
        body: ScreenshotBody,
        response: { 200: ScreenshotResponse },
      },
      // The reference grid lives in idea mode, which is for signed-in users (SPEC §6): the 401
      // comes before the body is looked at.
      onRequest: async (request) => {
        await requireAuth(request);
      },
    },
    async (request) => {
      const { user } = await requireAuth(request);
      const shot = await app.screenshotsService.screenshot(user, request.body.url);
      return { success: true as const, screenshot: shot.path };
    },
  );

  app.get(
    '/domains/screenshot',
    {
      schema: {
        tags: ['ideas'],
        summary:
          "Where a website's screenshot stands (the reference grid polls it; never captures)",
        security: [{ bearer: [] }],
        querystring: ScreenshotStatusQuery,
        response: { 200: ScreenshotStatusResponse },
      },
      onRequest: async (request) => {
        await requireAuth(request);
      },
    },
    async (request, reply) => {
      await requireAuth(request);
      // Polled every few seconds while a card waits: answers must not be cached.
      reply.header('cache-control', 'no-store');
      return app.screenshotsService.status(request.query.url);
    },
  );

  app.get(
    '/screenshots/:file',
    {
      schema: {
        tags: ['ideas'],
        summary: 'A stored screenshot (JPEG)',
        params: ScreenshotFileParams,
      },
    },
    async (request, reply) => {
      const image = await app.screenshotsService.open(request.params.file);
      return reply
        .header('content-type', image.contentType)
        .header('cache-control', IMMUTABLE)
        .send(Readable.from(image.body));
    },
  );
};
