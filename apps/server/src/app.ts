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
import { createPaymentProvider } from './modules/payments/payment-providers.js';
import {
  createPaymentsService,
  type PaymentsService,
} from './modules/payments/payments.service.js';
import {
  createScreenshotsService,
  type ScreenshotsService,
} from './modules/screenshots/screenshots.service.js';
import { createThumbnailVersionJob } from './modules/screenshots/thumbnail-version.job.js';
import { createDomainRegistry, type DomainRegistry } from './modules/domains/domain-registry.js';
import { createDomainsService, type DomainsService } from './modules/domains/domains.service.js';
import { createParkingPages } from './modules/parking/parking-pages.js';
import { createParkingService, type ParkingService } from './modules/parking/parking.service.js';
import { createMirrorSiteJob } from './modules/sites/mirror-site.job.js';
import { createSitesService, type SitesService } from './modules/sites/sites.service.js';
import {
  createBrowserLauncher,
  type BrowserLauncher,
} from './platform/browser/browser-launcher.js';
import { createS3BlobStore } from './platform/blobs/s3-blob-store.js';
import { createBullmqJobQueue } from './platform/jobs/bullmq-job-queue.js';
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
    paymentsService: PaymentsService;
    domainRegistry: DomainRegistry;
    domainsService: DomainsService;
    parkingService: ParkingService;
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

  const s3 = config.mirror.s3;
  const blobs: BlobStore = s3
    ? createS3BlobStore({
        bucket: s3.bucket,
        prefix: s3.prefix,
        client: {
          region: s3.region,
          forcePathStyle: s3.forcePathStyle,
          ...(s3.endpoint ? { endpoint: s3.endpoint } : {}),
          ...(s3.credentials ? { credentials: s3.credentials } : {}),
        },
      })
    : createFsBlobStore(config.mirror.blobsDir);
  const jobs: JobQueue = config.jobs.redisUrl
    ? createBullmqJobQueue({
        redisUrl: config.jobs.redisUrl,
        prefix: config.jobs.redisPrefix,
        log: app.log,
        concurrency: config.jobs.concurrency,
        leaseMs: config.jobs.leaseMs,
      })
    : createLocalJobQueue({
        db: database.db,
        log: app.log,
        concurrency: config.jobs.concurrency,
        leaseMs: config.jobs.leaseMs,
      });
  // Active custom and parked domains, in memory for host routing and the TLS edge's ask.
  const domainRegistry = createDomainRegistry({ db: database.db, log: app.log });
  await domainRegistry.refresh();
  const parkingPages = createParkingPages({
    db: database.db,
    limiter,
    mailer: deps.mailer ?? createMailer(config.mail, app.log),
    config,
  });
  domainRegistry.onChange(() => parkingPages.invalidate());
  const sitesHost = createSitesHost({
    db: database.db,
    blobs,
    config,
    log: app.log,
    domains: domainRegistry,
    parking: parkingPages,
  });
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
  // The test-mode provider reports its state changes to the service that owns our billing state.
  const paymentProviders = createPaymentProvider(config, {
    db: database.db,
    log: app.log,
    onEvent: (event) => paymentsService.applyEvent(event),
  });
  const paymentsService = createPaymentsService({
    db: database.db,
    ...paymentProviders,
    sites: sitesService,
    limiter,
    config,
    log: app.log,
  });
  app.decorate('paymentsService', paymentsService);
  const domainsService = createDomainsService({
    db: database.db,
    sites: sitesService,
    registry: domainRegistry,
    limiter,
    config,
    log: app.log,
  });
  app.decorate('domainRegistry', domainRegistry);
  app.decorate('domainsService', domainsService);
  app.decorate(
    'parkingService',
    createParkingService({
      db: database.db,
      domains: domainsService,
      onPageChanged: (domainId) => parkingPages.invalidate(domainId),
      log: app.log,
    }),
  );
  // Other processes' domain changes reach this one's routes within this time.
  const domainRoutes = setInterval(() => {
    domainRegistry
      .refresh()
      .catch((err: unknown) => app.log.error({ err }, 'domain routes refresh failed'));
  }, 30_000);
  domainRoutes.unref();
  app.addHook('onClose', async () => clearInterval(domainRoutes));
  if (deps.runJobs !== false) {
    jobs.start();
    const maintenance = setInterval(() => {
      sitesService
        .runMaintenance()
        .catch((err: unknown) => app.log.error({ err }, 'site maintenance failed'));
    }, 10 * 60_000);
    maintenance.unref();
    // Test-mode renewals are due to the minute; the tick also forgets old webhook event ids.
    const billing = setInterval(() => {
      paymentsService
        .runMaintenance()
        .catch((err: unknown) => app.log.error({ err }, 'billing maintenance failed'));
    }, 60_000);
    billing.unref();
    // DNS checks of pending domains (with back-off) and the daily look at active ones.
    const domainChecks = setInterval(() => {
      domainsService
        .runDueChecks()
        .catch((err: unknown) => app.log.error({ err }, 'domain checks failed'));
    }, 30_000);
    domainChecks.unref();
    app.addHook('onClose', async () => {
      clearInterval(domainChecks);
      clearInterval(maintenance);
      clearInterval(billing);
      await jobs.stop(config.shutdownTimeoutMs / 2);
    });
  }
  app.addHook('onClose', () => sitesHost.close());
  app.addHook('onClose', () => jobs.close());

  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });

  // Tenant requests that reach Fastify anyway (app.inject) are answered first, the same way: they
  // never see the app's headers, API or SPA.
  registerSitesHost(app, sitesFront, sitesHost);

  // Stripe.js is loaded from Stripe's host and frames its card fields from there (Stripe only).
  const stripeHosts = config.payments.stripe
    ? {
        script: ['https://js.stripe.com'],
        frame: ['https://js.stripe.com', 'https://hooks.stripe.com'],
        connect: ['https://api.stripe.com'],
      }
    : { script: [], frame: [], connect: [] };
  await app.register(helmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", ...stripeHosts.script],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:', 'https:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'", ...stripeHosts.connect],
        frameSrc: [
          "'self'",
          `http://*.${config.sitesDomain}:*`,
          `https://*.${config.sitesDomain}`,
          ...stripeHosts.frame,
        ],
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
