import {
  AnalyticsQuery,
  AnalyticsResponse,
  CloneRecord,
  CloneRequestBody,
  CloneStatusResponse,
  DomainsOverview,
  MessageResponse,
  SiteIdParams,
  SiteVersion,
  UpdateSiteBody,
  VersionChanges,
  VersionParams,
} from '@mirror/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { domainListItems } from '../../modules/domains/domain-records.js';
import { optionalAuth, requireAuth } from '../authenticate.js';

const bearer = [{ bearer: [] }];
const tags = ['sites'];

/** Mirrored sites (the API keeps the SPEC's /domains prefix for them). */
export const sitesRoutes: FastifyPluginAsyncZod = async (app) => {
  const sites = app.sitesService;

  app.post(
    '/clone',
    {
      schema: {
        tags,
        summary: 'Mirror a website (visitors get a demo mirror)',
        body: CloneRequestBody,
        response: { 201: CloneRecord },
      },
    },
    async (request, reply) => {
      const auth = await optionalAuth(request);
      return reply
        .status(201)
        .send(await sites.createClone(auth?.user ?? null, request.body, request.ip));
    },
  );

  app.get(
    '/clone/:id/status',
    {
      schema: {
        tags,
        summary: 'Progress of a mirror',
        params: SiteIdParams,
        response: { 200: CloneStatusResponse },
      },
    },
    async (request) => sites.status((await optionalAuth(request))?.user ?? null, request.params.id),
  );

  app.get(
    '/clones',
    {
      schema: {
        tags,
        summary: 'Your mirrored sites',
        security: bearer,
        response: { 200: z.array(CloneRecord) },
      },
    },
    async (request) => sites.list((await requireAuth(request)).user),
  );

  app.get(
    '/',
    {
      schema: {
        tags,
        summary: 'Your sites (cloned items), custom domains and parked domains',
        security: bearer,
        response: { 200: DomainsOverview },
      },
    },
    async (request) => {
      const { user } = await requireAuth(request);
      const [siteList, customDomains, parkedDomains] = await Promise.all([
        sites.list(user),
        app.domainsService.listCustom(user),
        app.parkingService.list(user),
      ]);
      return {
        sites: siteList,
        domains: domainListItems(customDomains, parkedDomains),
        customDomains,
        parkedDomains,
      };
    },
  );

  app.get(
    '/clone/:id',
    {
      schema: {
        tags,
        summary: 'One of your sites',
        security: bearer,
        params: SiteIdParams,
        response: { 200: CloneRecord },
      },
    },
    async (request) => sites.get((await requireAuth(request)).user, request.params.id),
  );

  app.put(
    '/clone/:id',
    {
      schema: {
        tags,
        summary: 'Change the sync schedule or the subdomain of a site',
        security: bearer,
        params: SiteIdParams,
        body: UpdateSiteBody,
        response: { 200: CloneRecord },
      },
    },
    async (request) => {
      const { user } = await requireAuth(request);
      const { syncSchedule, targetDomain } = request.body;
      if (targetDomain !== undefined)
        await sites.changeSubdomain(user, request.params.id, targetDomain);
      return syncSchedule !== undefined
        ? sites.setSyncSchedule(user, request.params.id, syncSchedule)
        : sites.get(user, request.params.id);
    },
  );

  app.delete(
    '/clone/:id',
    {
      schema: {
        tags,
        summary: 'Delete a site',
        security: bearer,
        params: SiteIdParams,
        response: { 200: MessageResponse },
      },
    },
    async (request) => {
      await sites.remove((await requireAuth(request)).user, request.params.id);
      return { success: true, message: 'Site deleted.' };
    },
  );

  app.post(
    '/clone/:id/remirror',
    {
      schema: {
        tags,
        summary: 'Mirror the site again',
        security: bearer,
        params: SiteIdParams,
        response: { 202: CloneRecord },
      },
    },
    async (request, reply) =>
      reply
        .status(202)
        .send(await sites.remirror((await requireAuth(request)).user, request.params.id)),
  );

  app.get(
    '/clone/:id/versions',
    {
      schema: {
        tags,
        summary: 'Versions of a site, newest first',
        security: bearer,
        params: SiteIdParams,
        response: { 200: z.array(SiteVersion) },
      },
    },
    async (request) => sites.versions((await requireAuth(request)).user, request.params.id),
  );

  app.get(
    '/clone/:id/versions/:versionId/changes',
    {
      schema: {
        tags,
        summary: 'What a mirror version changed against the version it replaced',
        description:
          'Pages added, removed and changed (text diff in context, title and meta, links, images) and files added, removed and changed, noise left out; and `visual`, how the changed pages look before and after at desktop and phone widths (made after the version is live: queued, running, completed or failed; null without one). 404 for a version without a report: a first mirror, an edit, or an older version.',
        security: bearer,
        params: VersionParams,
        response: { 200: VersionChanges },
      },
    },
    async (request) =>
      sites.changes((await requireAuth(request)).user, request.params.id, request.params.versionId),
  );

  app.post(
    '/clone/:id/versions/:versionId/publish',
    {
      schema: {
        tags,
        summary: 'Serve this version (rollback)',
        security: bearer,
        params: VersionParams,
        response: { 200: CloneRecord },
      },
    },
    async (request) =>
      sites.publish((await requireAuth(request)).user, request.params.id, request.params.versionId),
  );

  app.get(
    '/clone/:id/export.zip',
    {
      schema: {
        tags,
        summary: 'The live version as a static folder (zip)',
        security: bearer,
        params: SiteIdParams,
      },
    },
    async (request, reply) => {
      const zip = await sites.exportZip((await requireAuth(request)).user, request.params.id);
      return reply
        .type('application/zip')
        .header('content-disposition', `attachment; filename="site-${request.params.id}.zip"`)
        .send(zip);
    },
  );

  app.get(
    '/:id/analytics',
    {
      schema: {
        tags,
        summary: 'Daily visits and page views',
        security: bearer,
        params: SiteIdParams,
        querystring: AnalyticsQuery,
        response: { 200: AnalyticsResponse },
      },
    },
    async (request) =>
      sites.analytics((await requireAuth(request)).user, request.params.id, request.query.period),
  );
};
