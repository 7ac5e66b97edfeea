import {
  FidelityCheckBody,
  FidelityReportResponse,
  FidelityShotParams,
  SiteIdParams,
} from '@mirror/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { Readable } from 'node:stream';
import { requireAuth } from '../authenticate.js';

const bearer = [{ bearer: [] }];
const tags = ['sites'];

/** Fidelity reports of mirrored sites (issue 21), mounted under /domains. */
export const fidelityRoutes: FastifyPluginAsyncZod = async (app) => {
  const fidelity = app.fidelityService;

  app.get(
    '/clone/:id/fidelity',
    {
      schema: {
        tags,
        summary: 'How faithful the live version is to the original, page by page',
        security: bearer,
        params: SiteIdParams,
        response: { 200: FidelityReportResponse },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return fidelity.report((await requireAuth(request)).user, request.params.id);
    },
  );

  app.post(
    '/clone/:id/fidelity',
    {
      schema: {
        tags,
        summary: 'Check the live version again, or capture named pages again and check them',
        security: bearer,
        params: SiteIdParams,
        body: FidelityCheckBody,
        response: { 202: FidelityReportResponse },
      },
      // Signed-in owners only, checked before the body so visitors get the 401, not a 400.
      onRequest: async (request) => {
        await requireAuth(request);
      },
    },
    async (request, reply) =>
      reply
        .status(202)
        .send(
          await fidelity.checkAgain(
            (await requireAuth(request)).user,
            request.params.id,
            request.body.paths,
          ),
        ),
  );

  app.get(
    '/fidelity-shots/:file',
    {
      schema: {
        tags,
        summary: 'A screenshot of a fidelity check (PNG), by its hash',
        params: FidelityShotParams,
      },
    },
    async (request, reply) =>
      reply
        .header('content-type', 'image/png')
        .header('cache-control', 'public, max-age=31536000, immutable')
        .send(Readable.from(await fidelity.openShot(request.params.file))),
  );
};
