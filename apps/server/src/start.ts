import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from './config/env.js';
import { tuneProcessForServing } from './hosting/process-tuning.js';
import type { RunningRole } from './roles/running-role.js';
import { ROLES, type Role } from './services.js';

const USAGE = `usage: node apps/server/dist/main.js [--role all|api|worker|sites]

  all     the app, the API, tenant sites and jobs in one process (default)
  api     the app and the API
  worker  queued jobs and periodic work; /api/health, /api/ready, /metrics only
  sites   tenant sites (subdomains, custom and parked domains); probes on IP hosts`;

/** The role asked for on the command line; a usage error exits with the usage text. */
function parseRole(argv: string[]): Role {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: { role: { type: 'string', default: 'all' }, help: { type: 'boolean' } },
      strict: true,
    }));
  } catch (err) {
    console.error(`${(err as Error).message}\n\n${USAGE}`);
    process.exit(1);
  }
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  const role = values.role as Role;
  if (!ROLES.includes(role)) {
    console.error(`Unknown role "${values.role}".\n\n${USAGE}`);
    process.exit(1);
  }
  return role;
}

/** Each role is imported only when asked for, so a worker never loads Fastify or the web app. */
async function startRole(role: Role, config: ReturnType<typeof loadConfig>): Promise<RunningRole> {
  switch (role) {
    case 'worker':
      return (await import('./roles/worker.js')).startWorker(config);
    case 'sites':
      return (await import('./roles/sites.js')).startSites(config);
    default:
      return (await import('./roles/web.js')).startWeb(config, role);
  }
}

/** Starts the role asked for on the command line, and stops it on SIGTERM or SIGINT. */
export async function main(): Promise<void> {
  const role = parseRole(process.argv.slice(2));
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }

  // Before the app exists: its start-up would otherwise teach V8 to pretenure request objects.
  if (role !== 'worker') tuneProcessForServing();
  const running = await startRole(role, config);
  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    running.log.info({ signal }, 'shutting down: finishing in-flight requests and jobs');
    const force = setTimeout(() => {
      running.log.error('shutdown timed out; exiting');
      process.exit(1);
    }, config.shutdownTimeoutMs);
    force.unref();
    running.close().then(
      () => process.exit(0),
      (err: unknown) => {
        running.log.error({ err }, 'error during shutdown');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));

  running.log.info(
    { role, app: config.appUrl, sites: `*.${config.sitesDomain}`, database: config.database.kind },
    role === 'all' || role === 'api'
      ? `Mirror is running at ${config.appUrl}`
      : `Mirror ${role} is running at ${running.url}`,
  );
}
