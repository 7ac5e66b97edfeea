/**
 * The product's HTTP front: the one `node:http` request listener of the app's server. A request for
 * a tenant host (any host name but the app's own: `{sub}.{SITES_DOMAIN}`, custom and parked
 * domains) is answered by the sites host's `handleNode` right there, before Fastify sees it: no
 * Fastify request/reply objects, hooks, logging or routing, and none of the app's headers, API or
 * SPA. Everything else goes to Fastify unchanged.
 *
 * `buildApp` passes `serverFactory` to Fastify and `attach`es its sites host; bench:hosting runs
 * the same `buildApp`, so the benchmark measures this very path.
 */
import http from 'node:http';
import type { FastifyServerFactory } from 'fastify';
import type { Config } from '../config/env.js';
import type { SiteLogger } from './site-server.js';
import { hostnameOf, isTenantHostname } from './tenant-host.js';

/** What answers tenant requests (a `SitesHost`, or a bare `SiteServer`). */
export interface TenantHandler {
  handleNode(req: http.IncomingMessage, res: http.ServerResponse, log?: SiteLogger): Promise<void>;
}

export interface SitesFront {
  /**
   * For Fastify's `serverFactory` option: a `node:http` server whose listener sends tenant hosts
   * to the attached handler and everything else to Fastify, with Fastify's own server settings
   * (keep-alive and request timeouts, `http` options) applied as Fastify would.
   */
  serverFactory: FastifyServerFactory;
  /**
   * Tenant requests go to `sites` from now on. Until then (and for `app.inject`, which never
   * touches the server) they reach Fastify, whose `registerSitesHost` hook answers them alike.
   */
  attach(sites: TenantHandler, log?: SiteLogger): void;
  /** True when a Host header names a tenant site, not the app (memoized per distinct value). */
  isTenantHost(hostHeader: string | undefined): boolean;
}

/** Distinct Host values remembered; past that the table starts over (hosts are attacker-chosen). */
const MAX_REMEMBERED_HOSTS = 1024;

export function createSitesFront(config: Pick<Config, 'appHosts'>): SitesFront {
  let sites: TenantHandler | null = null;
  let log: SiteLogger | undefined;
  const decided = new Map<string, boolean>();

  function isTenantHost(hostHeader: string | undefined): boolean {
    if (hostHeader === undefined) return false;
    let tenant = decided.get(hostHeader);
    if (tenant === undefined) {
      const hostname = hostnameOf(hostHeader);
      tenant = isTenantHostname(hostname, config.appHosts);
      if (decided.size >= MAX_REMEMBERED_HOSTS) decided.clear();
      decided.set(hostHeader, tenant);
    }
    return tenant;
  }

  const serverFactory: FastifyServerFactory = (fastifyHandler, options) => {
    const opts = options as {
      http?: http.ServerOptions;
      keepAliveTimeout?: number;
      requestTimeout?: number;
      connectionTimeout?: number;
      maxRequestsPerSocket?: number;
    };
    const server = http.createServer(opts.http ?? {}, (req, res) => {
      if (sites !== null && isTenantHost(req.headers.host)) {
        // Closing: answer, then let the connection go (Fastify does the same for its routes), so
        // a busy keep-alive connection cannot hold the shutdown open.
        if (!server.listening) res.shouldKeepAlive = false;
        void sites.handleNode(req, res, log);
      } else {
        fastifyHandler(req, res);
      }
    });
    // What Fastify does to the server it creates itself (lib/server.js, HTTP/1 branch).
    if (opts.keepAliveTimeout !== undefined) server.keepAliveTimeout = opts.keepAliveTimeout;
    if (opts.requestTimeout !== undefined) server.requestTimeout = opts.requestTimeout;
    if (opts.connectionTimeout !== undefined) server.setTimeout(opts.connectionTimeout);
    if (opts.maxRequestsPerSocket !== undefined && opts.maxRequestsPerSocket > 0) {
      server.maxRequestsPerSocket = opts.maxRequestsPerSocket;
    }
    return server;
  };

  return {
    serverFactory,
    attach(handler, logger) {
      sites = handler;
      log = logger;
    },
    isTenantHost,
  };
}

/**
 * Tenant hosts in the `api` role: the sites processes serve them (the TLS edge routes
 * `*.{SITES_DOMAIN}` and customer domains there); a request that reaches the API anyway is told so,
 * without any of the app's headers, cookies or pages on that origin.
 */
export const misdirectedTenant: TenantHandler = {
  handleNode(_req, res) {
    const body = 'This address is served by the sites processes, not by the app.\n';
    res.writeHead(421, {
      'content-type': 'text/plain; charset=utf-8',
      'content-length': Buffer.byteLength(body),
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
    });
    res.end(body);
    return Promise.resolve();
  },
};
