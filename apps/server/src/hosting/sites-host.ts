import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Config } from '../config/env.js';
import { hostnameOf, siteLabelOf } from './tenant-host.js';
import { escapeHtml } from '../lib/escape-html.js';

const SITE_HEADERS = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'strict-origin-when-cross-origin',
  'cache-control': 'no-cache',
} as const;

/**
 * Serves tenant hosts (`{sub}.{SITES_DOMAIN}`). Registered before anything else so a tenant request
 * never reaches the API, the app's security headers or the SPA. Sites themselves arrive with the
 * mirroring issue; until a site exists for a host, the host answers a clear "no site here" page.
 */
export function registerSitesHost(app: FastifyInstance, config: Config): void {
  app.addHook('onRequest', async (request, reply) => {
    const hostname = hostnameOf(request.headers.host);
    const label = siteLabelOf(hostname, config.sitesDomain);
    if (label === null || hostname === config.appHost) return;
    return sendNoSiteHere(reply, hostname, config);
  });
}

function sendNoSiteHere(reply: FastifyReply, hostname: string, config: Config) {
  return reply
    .status(404)
    .headers(SITE_HEADERS)
    .type('text/html; charset=utf-8')
    .send(noSiteHerePage(hostname, config.appUrl));
}

function noSiteHerePage(hostname: string, appUrl: string): string {
  const host = escapeHtml(hostname);
  const app = escapeHtml(appUrl);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><title>No site here</title>
<style>body{font:16px/1.6 system-ui,sans-serif;margin:0;display:grid;place-items:center;min-height:100vh;background:#f6f7fb;color:#1d2233}
main{max-width:32rem;padding:2rem;text-align:center}h1{font-size:1.6rem;margin:0 0 .5rem}a{color:#3b4fd8}</style></head>
<body><main><h1>No site here</h1><p>There is no site published at <strong>${host}</strong>.</p>
<p>Mirror a website and publish it with <a href="${app}">Mirror</a>.</p></main></body></html>`;
}
