import {
  FeedQuery,
  PageSource,
  PageSourceQuery,
  SiteIdParams,
  Watch,
  WatchInput,
  WatchList,
  WatchParams,
  WebhookDeliveryList,
} from '@mirror/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireAuth } from '../authenticate.js';

const bearer = [{ bearer: [] }];
const tags = ['sites'];

/** Watches on sites' change reports, their webhook deliveries and feeds (issue 33), under /domains. */
export const watchesRoutes: FastifyPluginAsyncZod = async (app) => {
  const watches = app.watchesService;
  // Signed-in owners only, checked before the body so visitors get the 401, not a 400.
  const signedIn = async (request: Parameters<typeof requireAuth>[0]) => {
    await requireAuth(request);
  };

  app.get(
    '/clone/:id/watches',
    {
      schema: {
        tags,
        summary: "A site's watches, the plan's number of watches, and its change feed",
        security: bearer,
        params: SiteIdParams,
        response: { 200: WatchList },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return watches.list((await requireAuth(request)).user, request.params.id);
    },
  );

  app.post(
    '/clone/:id/watches',
    {
      schema: {
        tags,
        summary: 'Watch the whole site, chosen pages or a part of a page for changes',
        description:
          "Hits are mailed (each, or in a daily digest), sent to the webhook as signed JSON (Mirror-Signature: t=<unix time>,v1=<hex HMAC-SHA256 of \"<t>.<body>\" with the watch's webhookSecret>; retried 5 times over about 9 hours) and listed in the site's Atom feed. 403 beyond the plan's watches.",
        security: bearer,
        params: SiteIdParams,
        body: WatchInput,
        response: { 201: Watch },
      },
      onRequest: signedIn,
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(
          await watches.create((await requireAuth(request)).user, request.params.id, request.body),
        ),
  );

  app.put(
    '/clone/:id/watches/:watchId',
    {
      schema: {
        tags,
        summary: 'Change a watch',
        security: bearer,
        params: WatchParams,
        body: WatchInput,
        response: { 200: Watch },
      },
      onRequest: signedIn,
    },
    async (request) =>
      watches.update(
        (await requireAuth(request)).user,
        request.params.id,
        request.params.watchId,
        request.body,
      ),
  );

  app.delete(
    '/clone/:id/watches/:watchId',
    {
      schema: {
        tags,
        summary: 'Delete a watch (its hits and deliveries go with it)',
        security: bearer,
        params: WatchParams,
      },
    },
    async (request, reply) => {
      await watches.remove(
        (await requireAuth(request)).user,
        request.params.id,
        request.params.watchId,
      );
      return reply.status(204).send();
    },
  );

  app.get(
    '/clone/:id/page-source',
    {
      schema: {
        tags,
        summary: "A page of the site's live copy, as hosted, to pick a watched part on",
        description:
          "The page's HTML as the sites host serves it (references rewritten to the copy) and its address on the live version's preview host, for the watch form's part picker. 404 when the copy has no page at that path (`/about`, `/about/` and `/about/index.html` name the same page; `path` answers the copy's own); 400 beyond 2 MB.",
        security: bearer,
        params: SiteIdParams,
        querystring: PageSourceQuery,
        response: { 200: PageSource },
      },
      onRequest: signedIn,
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return watches.pageSource(
        (await requireAuth(request)).user,
        request.params.id,
        request.query.path,
      );
    },
  );

  app.get(
    '/clone/:id/webhook-deliveries',
    {
      schema: {
        tags,
        summary: "The site's webhook deliveries, newest first, with their status",
        security: bearer,
        params: SiteIdParams,
        response: { 200: WebhookDeliveryList },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return watches.deliveries((await requireAuth(request)).user, request.params.id);
    },
  );

  app.get(
    '/clone/:id/changes.atom',
    {
      schema: {
        tags,
        summary: "The site's Atom feed of versions that met its watches",
        description:
          'For feed readers: no sign-in, the token in the address (from the watches list) is the key.',
        params: SiteIdParams,
        querystring: FeedQuery,
      },
    },
    async (request, reply) =>
      reply
        .header('content-type', 'application/atom+xml; charset=utf-8')
        .header('cache-control', 'private, max-age=300')
        .header('referrer-policy', 'no-referrer')
        .send(await watches.feed(request.params.id, request.query.token)),
  );
};
