import {
  AiRewritePricingResponse,
  CloneStatusResponse,
  CloneWithAiBody,
  CloneWithAiResponse,
  CustomizeBody,
  MessageResponse,
  RestorePageBody,
  SiteIdParams,
  UndoEditBody,
  UnderstandBody,
  Understanding,
  VersionParams,
} from '@mirror/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { optionalAuth, requireAuth } from '../authenticate.js';

const bearer = [{ bearer: [] }];
const tags = ['customize'];

/** AI customization and idea-mode rewrites (SPEC §7), mounted under /domains. */
export const customizeRoutes: FastifyPluginAsyncZod = async (app) => {
  const customize = app.customizeService;

  app.put(
    '/clone/:id/customize',
    {
      schema: {
        tags,
        summary: 'Apply instructions and edits to the live version (a new draft to review)',
        security: bearer,
        params: SiteIdParams,
        body: CustomizeBody,
        response: { 202: CloneStatusResponse },
      },
    },
    async (request, reply) => {
      const auth = await optionalAuth(request);
      return reply
        .status(202)
        .send(
          await customize.customize(
            auth?.user ?? null,
            request.params.id,
            request.body.customizations,
          ),
        );
    },
  );

  app.post(
    '/clone/:id/customize/understand',
    {
      schema: {
        tags,
        summary: 'What instructions would change, in plain words, before anything is applied',
        security: bearer,
        params: SiteIdParams,
        body: UnderstandBody,
        response: { 200: Understanding },
      },
      // Signed-in owners only, checked before the body so visitors get the 401, not a 400.
      onRequest: async (request) => {
        await requireAuth(request);
      },
    },
    async (request) =>
      customize.understand(
        (await requireAuth(request)).user,
        request.params.id,
        request.body.instructions,
      ),
  );

  app.post(
    '/clone-with-ai',
    {
      schema: {
        tags,
        summary: 'Rewrite a reference website for an idea (a draft to review)',
        security: bearer,
        body: CloneWithAiBody,
        response: { 202: CloneWithAiResponse },
      },
      // Signed-in users only, checked before the body so visitors get the 401, not a 400.
      onRequest: async (request) => {
        await requireAuth(request);
      },
    },
    async (request, reply) =>
      reply
        .status(202)
        .send(
          await customize.cloneWithAi((await requireAuth(request)).user, request.body, request.ip),
        ),
  );

  app.get(
    '/ai-rewrite-pricing',
    {
      schema: {
        tags,
        summary: 'Price of a one-off AI rewrite for accounts without a paid plan (cents)',
        response: { 200: AiRewritePricingResponse },
      },
    },
    async () => customize.pricing(),
  );

  app.post(
    '/clone/:id/versions/:versionId/undo',
    {
      schema: {
        tags,
        summary: 'Undo one edit of a draft (a new draft without it replaces the old one)',
        security: bearer,
        params: VersionParams,
        body: UndoEditBody,
        response: { 202: CloneStatusResponse },
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
          await customize.undoEdit(
            (await requireAuth(request)).user,
            request.params.id,
            request.params.versionId,
            request.body.index,
          ),
        ),
  );

  app.post(
    '/clone/:id/versions/:versionId/changes/restore',
    {
      schema: {
        tags,
        summary:
          "Restore a page of a version's change report as the version it was compared with had it (a new draft to review)",
        security: bearer,
        params: VersionParams,
        body: RestorePageBody,
        response: { 202: CloneStatusResponse },
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
          await customize.restorePage(
            (await requireAuth(request)).user,
            request.params.id,
            request.params.versionId,
            request.body.path,
          ),
        ),
  );

  app.delete(
    '/clone/:id/versions/:versionId',
    {
      schema: {
        tags,
        summary: 'Discard a draft version',
        security: bearer,
        params: VersionParams,
        response: { 200: MessageResponse },
      },
    },
    async (request) => {
      await customize.discardDraft(
        (await requireAuth(request)).user,
        request.params.id,
        request.params.versionId,
      );
      return { success: true, message: 'Draft discarded.' };
    },
  );
};
