import { ChangeShotParams } from '@mirror/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { Readable } from 'node:stream';
import { requireAuth } from '../authenticate.js';

const bearer = [{ bearer: [] }];
const tags = ['sites'];

/**
 * The screenshots of change reports' visual diffs (issue 33), under /domains. The diff itself is
 * part of the report's answer (`GET …/versions/{versionId}/changes`).
 */
export const visualDiffRoutes: FastifyPluginAsyncZod = async (app) => {
  const visualDiffs = app.visualDiffService;

  app.get(
    '/clone/:id/versions/:versionId/changes/shots/:file',
    {
      schema: {
        tags,
        summary: 'A screenshot of a change report’s visual diff (PNG), for the site’s owner',
        description:
          'Listed in the report’s `visual.pages` (before, after, difference). Send the bearer token: the app fetches it and shows the picture.',
        security: bearer,
        params: ChangeShotParams,
      },
      // Signed-in owners only, checked before the address so visitors get the 401, not a 400.
      onRequest: async (request) => {
        await requireAuth(request);
      },
    },
    async (request, reply) => {
      const { id, versionId, file } = request.params;
      const shot = await visualDiffs.openShot(
        (await requireAuth(request)).user,
        id,
        versionId,
        file,
      );
      return reply
        .header('content-type', 'image/png')
        .header('cache-control', 'private, max-age=31536000, immutable')
        .send(Readable.from(shot));
    },
  );
};
