import {
  AnalyticsQuery,
  ArchiveImportResponse,
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

  // "Host an archive" reads its multipart body itself, as it streams (modules/sites/archive-upload).
  app.addContentTypeParser('multipart/form-data', (_request, _payload, done) => {
    done(null, undefined);
  });

  app.post(
    '/clone/archive',
    {
      schema: {
        tags,
        summary: 'Host a web archive: a new site made from an uploaded WACZ or WARC',
        description:
          "multipart/form-data with `file` (a `.wacz`, `.warc` or `.warc.gz`; at most the plan's `archiveUploadBytes`: Reflection 100 MB, Pro 1 GB, Agency 4 GB), and optionally `url` (the page the copy starts from; default the archive's first page) and `targetDomain` (paid plans). The archive is read in a sandbox before anything is kept: a malformed one (truncated, a wrong record length, a zip bomb, not an archive, no page) answers 400 with what is wrong, a too large one 413, and nothing is stored. Counts as a new site against the plan's mirrors. The new site's first run builds the copy from the archive's responses, fetching nothing (docs/archives.md); it is polled like any mirror.",
        security: bearer,
        consumes: ['multipart/form-data'],
        response: { 201: ArchiveImportResponse },
      },
    },
    async (request, reply) => {
      const { user } = await requireAuth(request);
      return reply.status(201).send(await sites.hostArchive(user, request.raw));
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

  for (const [format, extension, type] of [
    ['warc', 'warc.gz', 'application/warc'],
    ['wacz', 'wacz', 'application/wacz+zip'],
  ] as const) {
    app.get(
      `/clone/:id/versions/:versionId/export.${extension}`,
      {
        schema: {
          tags,
          summary: `A version as a web archive (${format === 'wacz' ? 'WACZ' : 'gzipped WARC'})`,
          description:
            format === 'wacz'
              ? 'The version as a WACZ (docs/archives.md): its WARC of the responses as the origin answered them, `pages/pages.jsonl`, the CDXJ index and `datapackage.json` with hashes. Opens in ReplayWeb.page. 409 for a version that is not completed.'
              : 'The version as an ISO 28500 WARC, one gzip member per record (docs/archives.md): each file as fetched (status, headers, payload before any rewrite) with its request and fetch date, revisits for 304s and repeated payloads. 409 for a version that is not completed.',
          security: bearer,
          params: VersionParams,
          produces: [type],
        },
      },
      async (request, reply) => {
        const { id, versionId } = request.params;
        const archive = await sites.exportArchive(
          (await requireAuth(request)).user,
          id,
          versionId,
          format,
        );
        return reply
          .type(type)
          .header('content-length', archive.bytes)
          .header('content-disposition', `attachment; filename="${archive.fileName}"`)
          .send(archive.stream);
      },
    );
  }

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
