import { buildApp } from './app.js';
import { ConfigError, loadConfig } from './config/env.js';
import { tuneProcessForServing } from './hosting/process-tuning.js';

async function main(): Promise<void> {
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
  tuneProcessForServing();
  const app = await buildApp(config);
  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down: finishing in-flight requests');
    const force = setTimeout(() => {
      app.log.error('shutdown timed out; exiting');
      process.exit(1);
    }, config.shutdownTimeoutMs);
    force.unref();
    app.close().then(
      () => process.exit(0),
      (err: unknown) => {
        app.log.error({ err }, 'error during shutdown');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));

  await app.listen({ host: config.host, port: config.port });
  app.log.info(
    { app: config.appUrl, sites: `*.${config.sitesDomain}`, database: config.database.kind },
    `Mirror is running at ${config.appUrl}`,
  );
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
