import { buildApp } from '../app.js';
import type { Config } from '../config/env.js';
import type { RunningRole } from './running-role.js';

/** `--role all` (the app, the API, tenant sites and jobs in one process) or `--role api`. */
export async function startWeb(config: Config, role: 'all' | 'api'): Promise<RunningRole> {
  const app = await buildApp(config, { role });
  const url = await app.listen({ host: config.host, port: config.port });
  return { log: app.log, url, close: () => app.close() };
}
