import {
  CustomDomain,
  DeployBody,
  DomainCheckResponse,
  DomainIdParams,
  DomainNameParams,
  DOMAIN_MESSAGES,
  MessageResponse,
  normalizeDomainName,
  UpdateCustomDomainBody,
} from '@mirror/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { PROBE_MESSAGES } from '../../platform/ops/probes.js';
import { unauthorized } from '../../errors.js';
import { requireAuth } from '../authenticate.js';

const bearer = [{ bearer: [] }];
const tags = ['domains'];

/** Custom domains of sites (SPEC §7 deploy, check, delete), mounted under /domains. */
export const customDomainsRoutes: FastifyPluginAsyncZod = async (app) => {
  const domains = app.domainsService;

  app.post(
    '/deploy',
    {
      schema: {
        tags,
        summary: 'Attach a domain to one of your sites; answers the DNS records to create',
        security: bearer,
        body: DeployBody,
        response: { 200: CustomDomain, 201: CustomDomain },
      },
      onRequest: async (request) => {
        await requireAuth(request);
      },
    },
    async (request, reply) => {
      const { created, domain } = await domains.deploy(
        (await requireAuth(request)).user,
        request.body,
      );
      return reply.status(created ? 201 : 200).send(domain);
    },
  );

  app.get(
    '/check/:domain',
    {
      schema: {
        tags,
        summary: 'Check the DNS of one of your domains now (custom or parked)',
        security: bearer,
        params: DomainNameParams,
        response: { 200: DomainCheckResponse },
      },
    },
    async (request) => domains.check((await requireAuth(request)).user, request.params.domain),
  );

  app.get(
    '/domain/:id',
    {
      schema: {
        tags,
        summary: 'One of your custom domains, with its DNS records and status',
        security: bearer,
        params: DomainIdParams,
        response: { 200: CustomDomain },
      },
    },
    async (request) => domains.getCustom((await requireAuth(request)).user, request.params.id),
  );

  app.put(
    '/domain/:id',
    {
      schema: {
        tags,
        summary: 'Serve another of your sites on the domain, or flip its www redirect',
        security: bearer,
        params: DomainIdParams,
        body: UpdateCustomDomainBody,
        response: { 200: CustomDomain },
      },
    },
    async (request) =>
      domains.updateCustom((await requireAuth(request)).user, request.params.id, request.body),
  );

  app.delete(
    '/domain/:id',
    {
      schema: {
        tags,
        summary: 'Remove a custom domain',
        security: bearer,
        params: DomainIdParams,
        response: { 200: MessageResponse },
      },
    },
    async (request) => {
      await domains.removeCustom((await requireAuth(request)).user, request.params.id);
      return { success: true, message: DOMAIN_MESSAGES.deleted };
    },
  );
};

/**
 * GET /api/internal/tls/ask?domain= — Caddy's on-demand TLS asks before getting a certificate.
 * 200 only for the hosts of active custom and parked domains; answered from memory and not logged
 * per request, so a flood of made-up names costs a map lookup each. Hosts under SITES_DOMAIN are
 * refused: the wildcard certificate covers them.
 */
export const tlsAskRoutes: FastifyPluginAsyncZod = async (app) => {
  const registry = app.domainRegistry;
  // With METRICS_TOKEN set (always in production) the internal routes answer only the edge that
  // knows it: a tenant's request forwarded with a forged Host gets nothing from them.
  app.addHook('onRequest', async (request) => {
    const query = request.query as { token?: unknown };
    const bearer =
      typeof query.token === 'string' ? `Bearer ${query.token}` : request.headers.authorization;
    if (!app.probes.mayReadMetrics(bearer)) throw unauthorized(PROBE_MESSAGES.internalToken);
  });
  app.get(
    '/tls/ask',
    {
      logLevel: 'warn',
      schema: {
        tags: ['internal'],
        summary: "Whether the TLS edge may get a certificate for a host (Caddy's on-demand ask)",
        querystring: z.object({
          domain: z.string().max(300).optional(),
          token: z.string().max(300).optional(),
        }),
      },
    },
    async (request, reply) => {
      const allowed = registry.allowsCertificate(normalizeDomainName(request.query.domain ?? ''));
      return reply
        .status(allowed ? 200 : 404)
        .type('text/plain; charset=utf-8')
        .send(allowed ? 'ok' : 'unknown domain');
    },
  );
};
