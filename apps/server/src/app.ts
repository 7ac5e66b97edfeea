import { randomUUID } from 'node:crypto';
import helmet from '@fastify/helmet';
import Fastify, { type FastifyInstance } from 'fastify';
import {
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import type { Config } from './config/env.js';
import { createSitesFront } from './hosting/sites-front.js';
import { createSitesHost, registerSitesHost } from './hosting/sites-host.js';
import { registerWebApp } from './hosting/web-app.js';
import { registerApiDocs } from './http/api-docs.js';
import { registerErrorHandler } from './http/error-handler.js';
import { apiRoutes } from './http/routes/index.js';
import type { BlobStore } from '@mirror/engine';
import { createFsBlobStore } from '@mirror/engine';
import { createAuthService, type AuthService } from './modules/auth/auth.service.js';
import { createAiProviders } from './modules/customize/ai-provider.js';
import { createCustomizeSiteJob } from './modules/customize/customize-site.job.js';
import {
  createCustomizeService,
  type CustomizeService,
} from './modules/customize/customize.service.js';
import {
  createScreenshotsService,
  type ScreenshotsService,
} from './modules/screenshots/screenshots.service.js';
import { createThumbnailVersionJob } from './modules/screenshots/thumbnail-version.job.js';
import { createMirrorSiteJob } from './modules/sites/mirror-site.job.js';
import { createSitesService, type SitesService } from './modules/sites/sites.service.js';
import {
  createBrowserLauncher,
  type BrowserLauncher,
} from './platform/browser/browser-launcher.js';
import { createLocalJobQueue } from './platform/jobs/local-job-queue.js';
import type { JobQueue } from './platform/jobs/job.js';
import { openDatabase, type DatabaseHandle } from './platform/db/database.js';
import { createMailer, type Mailer } from './platform/mail/mailer.js';
import { createDbRateLimiter } from './platform/rate-limit/rate-limiter.js';

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    database: DatabaseHandle;
    authService: AuthService;
    sitesService: SitesService;
    customizeService: CustomizeService;
    blobs: BlobStore;
    jobs: JobQueue;
    browser: BrowserLauncher;
    screenshotsService: ScreenshotsService;
  }
}

const REQUEST_ID_PATTERN = /^[A-Za-z0-9._-]{1,128}$/;

export interface AppDependencies {
  /** An already open database (tests share one); otherwise the app opens and closes its own. */
  database?: DatabaseHandle;
  /** Defaults to SMTP_URL or the dev outbox. */
  mailer?: Mailer;
  /** Where log lines go (stdout by default); tests read them to prove nothing secret is logged. */
  logStream?: NodeJS.WritableStream;
  /** Run queued jobs in this process (default true; tests of the API alone turn it off). */
  runJobs?: boolean;
}

/** Builds the whole HTTP application without listening, for `main.ts` and for tests (`app.inject`). */
export async function buildApp(
  config: Config,
  deps: AppDependencies = {},
): Promise<FastifyInstance> {
  // Tenant hosts are answered by the HTTP server's own listener, before Fastify sees them.
  const sitesFront = createSitesFront(config);
  const app = Fastify({
    serverFactory: sitesFront.serverFactory,
    logger: {
      level: config.logLevel,
      ...(deps.logStream ? { stream: deps.logStream } : {}),
      redact: {
        paths: ['req.headers.authorization', 'req.headers.cookie', 'res.headers["set-cookie"]'],
        censor: '[redacted]',
      },
    },
    trustProxy: config.trustProxy,
    requestIdHeader: 'x-request-id',
    genReqId: (req) => {
      const incoming = req.headers['x-request-id'];
      return typeof incoming === 'string' && REQUEST_ID_PATTERN.test(incoming)
        ? incoming
        : randomUUID();
    },
    bodyLimit: 1_048_576,
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  const database = deps.database ?? (await openDatabase(config.database));
  app.decorate('config', config);
  app.decorate('database', database);
  if (!deps.database) app.addHook('onClose', () => database.destroy());
  app.decorateRequest('authContext', null);
  const limiter = createDbRateLimiter(database.db, config.rateLimitFactor);
  app.decorate(
    'authService',
    createAuthService({
      db: database.db,
      mailer: deps.mailer ?? createMailer(config.mail, app.log),
      limiter,
      config,
      log: app.log,
    }),
  );

  const blobs = createFsBlobStore(config.mirror.blobsDir);
  const jobs = createLocalJobQueue({
    db: database.db,
    log: app.log,
    concurrency: config.jobs.concurrency,
    leaseMs: config.jobs.leaseMs,
  });
  const sitesHost = createSitesHost({ db: database.db, blobs, config, log: app.log });
  sitesFront.attach(sitesHost, app.log);
  const onPublished = (siteId: string) => sitesHost.invalidate(siteId);
  // One Chromium per process, launched on first use (screenshots, thumbnails of versions).
  const browser = createBrowserLauncher({ chromiumPath: config.mirror.chromiumPath, log: app.log });
  app.addHook('onClose', () => browser.close());
  app.decorate('browser', browser);
  const screenshotsService = createScreenshotsService({
    db: database.db,
    blobs,
    browser,
    limiter,
    config,
    log: app.log,
  });
  app.decorate('screenshotsService', screenshotsService);
  const thumbnailJob = createThumbnailVersionJob({
    db: database.db,
    blobs,
    screenshots: screenshotsService,
  });
  jobs.register(thumbnailJob);
  const onVersionReady = async (siteId: string, versionId: string) => {
    if (!config.mirror.versionThumbnails) return;
    // The version is served already; a missing thumbnail only leaves a card without a picture.
    await jobs
      .enqueue(thumbnailJob, { versionId })
      .catch((err: unknown) => app.log.warn({ err, siteId, versionId }, 'thumbnail not queued'));
  };
  const customizeJob = createCustomizeSiteJob({
    db: database.db,
    blobs,
    config,
    providers: createAiProviders(config),
    onPublished,
    onVersionReady,
  });
  jobs.register(customizeJob);
  const mirrorJob = createMirrorSiteJob({
    db: database.db,
    blobs,
    config,
    onPublished,
    onVersionReady,
    startFollowUp: async (siteId, versionId) => {
      await jobs.enqueue(customizeJob, { siteId, versionId });
    },
  });
  jobs.register(mirrorJob);
  const sitesService = createSitesService({
    db: database.db,
    blobs,
    jobs,
    mirrorJob,
    limiter,
    config,
    onPublished,
  });
  app.decorate('blobs', blobs);
  app.decorate('jobs', jobs);
  app.decorate('sitesService', sitesService);
  app.decorate(
    'customizeService',
    createCustomizeService({
      db: database.db,
      jobs,
      customizeJob,
      sites: sitesService,
      limiter,
      config,
      onPublished,
    }),
  );
  if (deps.runJobs !== false) {
    jobs.start();
    const maintenance = setInterval(() => {
      sitesService
        .runMaintenance()
        .catch((err: unknown) => app.log.error({ err }, 'site maintenance failed'));
    }, 10 * 60_000);
    maintenance.unref();
    app.addHook('onClose', async () => {
      clearInterval(maintenance);
      await jobs.stop(config.shutdownTimeoutMs / 2);
    });
  }
  app.addHook('onClose', () => sitesHost.close());

  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });

  // Tenant requests that reach Fastify anyway (app.inject) are answered first, the same way: they
  // never see the app's headers, API or SPA.
  registerSitesHost(app, sitesFront, sitesHost);

  await app.register(helmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:', 'https:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        frameSrc: ["'self'", `http://*.${config.sitesDomain}:*`, `https://*.${config.sitesDomain}`],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'self'"],
        ...(config.appUrl.startsWith('https:') ? { upgradeInsecureRequests: [] } : {}),
      },
    },
    // The sites host serves previews that the app frames; keep cross-origin isolation off.
    crossOriginEmbedderPolicy: false,
    hsts: config.appUrl.startsWith('https:'),
  });

  registerErrorHandler(app);
  await registerApiDocs(app, config.appUrl);
  await app.register(apiRoutes, { prefix: '/api' });
  await registerWebApp(app, config.webDistDir);
  return app;
}
