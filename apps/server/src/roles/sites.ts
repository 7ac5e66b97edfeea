import type http from 'node:http';
import type { Config } from '../config/env.js';
import { createSitesFront } from '../hosting/sites-front.js';
import { answerProbe, createProbes } from '../platform/ops/probes.js';
import { createPlatform, createSitesHostOf } from '../services.js';
import { sendPlain, servePlain, type RunningRole } from './running-role.js';

/**
 * `--role sites`: serves tenant hosts only (`{sub}.{SITES_DOMAIN}`, custom and parked domains)
 * from the shared database and blob store, on a bare `node:http` server with no Fastify, no job
 * queue and no Chromium. Requests whose Host is an IP address or an app host get `/api/health`,
 * `/api/ready` and `/metrics` (for the load balancer and Prometheus), and nothing else.
 */
export async function startSites(config: Config): Promise<RunningRole> {
  const platform = await createPlatform(config, 'sites');
  const sitesHost = createSitesHostOf(platform);
  const probes = createProbes(platform, null);
  const front = createSitesFront(config);
  front.attach(sitesHost, platform.log);
  const notTenant = (req: http.IncomingMessage, res: http.ServerResponse) => {
    if (!answerProbe(req, res, probes, platform)) {
      sendPlain(res, 421, 'This process serves tenant sites only; the app is served elsewhere.');
    }
  };
  // The same front as the app's server: tenant hosts to the sites host, the rest to `notTenant`.
  const server = front.serverFactory(notTenant, {}) as http.Server;
  return servePlain(server, platform, probes);
}
