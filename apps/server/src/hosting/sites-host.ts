import type { IncomingMessage, ServerResponse } from 'node:http';
import { versionIdOfPreviewLabel } from '@mirror/contract';
import type { BlobStore } from '@mirror/engine';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config/env.js';
import type { DomainRegistry, HostRoute } from '../modules/domains/domain-registry.js';
import type { VisitRecorder } from '../modules/analytics/visit-recorder.js';
import type { FormCapture } from '../modules/forms/form-capture.js';
import type { SiteSearch } from '../modules/forms/site-search.js';
import { requireManifest } from '../modules/sites/manifests.js';
import type { Db } from '../platform/db/database.js';
import { createSiteServer, type SiteLogger } from './site-server.js';
import type { SitesFront, TenantHandler } from './sites-front.js';
import { hostnameOf, siteLabelOf } from './tenant-host.js';

/** Answers the requests of an active parked domain: its parking page and its forms. */
export interface ParkedDomainHandler {
  handleNode(
    req: IncomingMessage,
    res: ServerResponse,
    domainId: string,
    log: SiteLogger,
  ): Promise<void>;
  /** A parked page changed (or all of them, without an id). */
  invalidate(domainId?: string): void;
}

/** Distinct Host values whose domain route is remembered (hosts are attacker-chosen). */
const MAX_REMEMBERED_ROUTES = 4096;
const DONE: Promise<void> = Promise.resolve();

/**
 * The sites host: `{sub}.{SITES_DOMAIN}` and active custom domains answered from the site's live
 * version, an apex's www companion redirected to the host the owner chose, parked domains answered
 * with their parking page, and any other host with "No site here".
 */
export function createSitesHost(deps: {
  db: Db;
  blobs: BlobStore;
  config: Config;
  log?: FastifyInstance['log'];
  /** Active custom and parked domains (none without it). */
  domains?: DomainRegistry;
  parking?: ParkedDomainHandler;
  /** Counts what the sites' audience loads (not what is looked at on preview hosts). */
  visits?: Pick<VisitRecorder, 'recordSite'>;
  /** Takes the submissions of copies' forms (without it, a POST to a copy answers 405). */
  forms?: FormCapture;
  /** Answers the site search of copies whose results pages the crawl could not capture. */
  search?: SiteSearch;
}) {
  const { db, blobs, config, domains, visits } = deps;
  /** A site's live version, found by its id or its subdomain. */
  async function liveVersionOf(column: 'id' | 'subdomain', value: string) {
    const site = await db
      .selectFrom('sites')
      .select(['id', 'live_version_id'])
      .where(column, '=', value)
      .executeTakeFirst();
    return site?.live_version_id ? { siteId: site.id, versionId: site.live_version_id } : null;
  }
  const server = createSiteServer(
    {
      blobs,
      async resolveHost(hostname) {
        const label = siteLabelOf(hostname, config.sitesDomain);
        if (!label) {
          // A custom domain serves its site's live version, exactly like the site's subdomain.
          const route = domains?.route(hostname);
          return route?.kind === 'site' ? liveVersionOf('id', route.siteId) : null;
        }
        const previewOf = versionIdOfPreviewLabel(label);
        if (previewOf) {
          // Any completed version, by its unguessable id: drafts before review, rollbacks before
          // they are made.
          const version = await db
            .selectFrom('site_versions')
            .select(['site_id', 'status'])
            .where('id', '=', previewOf)
            .executeTakeFirst();
          return version?.status === 'completed'
            ? { siteId: version.site_id, versionId: previewOf, preview: true }
            : null;
        }
        return liveVersionOf('subdomain', label);
      },
      loadManifest: (versionId) => requireManifest(db, blobs, versionId),
      ...(visits ? { recordVisit: visits.recordSite } : {}),
      ...(deps.forms ? { receivePost: deps.forms.handle } : {}),
      ...(deps.search ? { searchSite: deps.search.handle } : {}),
    },
    { appUrl: config.appUrl },
  );
  // A domain that became active (or stopped being) is served accordingly at once.
  domains?.onChange(() => server.invalidate());

  const appProtocol = new URL(config.appUrl).protocol.slice(0, -1);
  let remembered = new Map<string, HostRoute | null>();
  let rememberedVersion = -1;

  /** The route of a Host header that is not a subdomain of SITES_DOMAIN (memoized per value). */
  function domainRouteOf(hostHeader: string): HostRoute | null {
    if (!domains) return null;
    if (rememberedVersion !== domains.version) {
      remembered = new Map();
      rememberedVersion = domains.version;
    }
    let route = remembered.get(hostHeader);
    if (route === undefined) {
      const hostname = hostnameOf(hostHeader);
      route =
        siteLabelOf(hostname, config.sitesDomain) === null
          ? (domains.route(hostname) ?? null)
          : null;
      if (remembered.size >= MAX_REMEMBERED_ROUTES) remembered.clear();
      remembered.set(hostHeader, route);
    }
    return route;
  }

  /** Sends the www (or apex) companion to the host the owner chose, keeping path and query. */
  function redirect(req: IncomingMessage, res: ServerResponse, to: string): void {
    const hostHeader = req.headers.host ?? '';
    const port = /:\d+$/.exec(hostHeader.startsWith('[') ? '' : hostHeader)?.[0] ?? '';
    const forwarded = config.trustProxy ? req.headers['x-forwarded-proto'] : undefined;
    const proto =
      typeof forwarded === 'string' && /^https?$/.test(forwarded.split(',')[0]!.trim())
        ? forwarded.split(',')[0]!.trim()
        : appProtocol;
    const path = (req.url ?? '/').startsWith('/') ? (req.url ?? '/') : '/';
    res.writeHead(308, {
      location: `${proto}://${to}${port}${path}`,
      'content-length': '0',
      'cache-control': 'no-cache',
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'strict-origin-when-cross-origin',
    });
    res.end();
  }

  let requests = 0;
  function handleNode(req: IncomingMessage, res: ServerResponse, log?: SiteLogger): Promise<void> {
    requests += 1;
    const route = domainRouteOf(req.headers.host ?? '');
    if (route !== null) {
      if (route.kind === 'redirect') {
        redirect(req, res, route.to);
        return DONE;
      }
      if (route.kind === 'parked' && deps.parking) {
        return deps.parking.handleNode(req, res, route.domainId, log ?? consoleLog);
      }
    }
    return server.handleNode(req, res, log);
  }

  return {
    handleNode,
    /** Requests answered since start (metrics). */
    requestCount: () => requests,
    /** A site's live version changed or the site is gone. */
    invalidate: (_siteId?: string) => {
      server.invalidate();
      deps.forms?.invalidate();
      deps.search?.invalidate();
    },
    /** A parked domain's page changed. */
    invalidateParked: (domainId: string) => deps.parking?.invalidate(domainId),
  };
}

const consoleLog: SiteLogger = {
  warn: (details, message) => console.warn(message, details),
  error: (details, message) => console.error(message, details),
};

export type SitesHost = ReturnType<typeof createSitesHost>;

/**
 * Registered before anything else, for tenant requests that reach Fastify at all: `app.inject`
 * (which never goes through the HTTP server) and any request before `front.attach`. The server's
 * own listener answers tenant hosts before Fastify (`createSitesFront`); both decide with the same
 * `isTenantHost` and answer with the same site server, so tenant content never runs on the app's
 * origin either way.
 */
export function registerSitesHost(
  app: FastifyInstance,
  front: SitesFront,
  host: TenantHandler,
): void {
  app.addHook('onRequest', async (request, reply) => {
    if (!front.isTenantHost(request.headers.host)) return;
    reply.hijack();
    await host.handleNode(request.raw, reply.raw, request.log);
    return reply;
  });
}
