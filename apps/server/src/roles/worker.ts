import http from 'node:http';
import type { Config } from '../config/env.js';
import { answerProbe, createProbes } from '../platform/ops/probes.js';
import { createPlatform, createServices } from '../services.js';
import { sendPlain, servePlain, type RunningRole } from './running-role.js';

/**
 * `--role worker`: runs queued jobs (mirrors, customizations, thumbnails) and the periodic work;
 * no web stack. It listens only for `/api/health`, `/api/ready` and `/metrics`.
 */
export async function startWorker(config: Config): Promise<RunningRole> {
  const platform = await createPlatform(config, 'worker');
  const services = createServices(platform);
  const probes = createProbes(platform, services.jobs);
  services.startBackgroundWork();
  const server = http.createServer((req, res) => {
    if (!answerProbe(req, res, probes, platform)) {
      sendPlain(res, 404, 'A worker answers only /api/health, /api/ready and /metrics.');
    }
  });
  return servePlain(server, platform, probes);
}
