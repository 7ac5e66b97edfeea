import type { WatchesService } from './modules/watches/watches.service.js';
import type { FormsService } from './modules/forms/forms.service.js';
import { createHash, randomUUID } from 'node:crypto';
import helmet from '@fastify/helmet';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import {
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import { PART_PICKER_SCRIPT } from '@mirror/contract';
import type { SweepableBlobStore } from '@mirror/engine';
import type { Config } from './config/env.js';
import { createSitesFront, misdirectedTenant } from './hosting/sites-front.js';
import { registerSitesHost, type SitesHost } from './hosting/sites-host.js';
import { registerWebApp } from './hosting/web-app.js';
import { registerApiDocs } from './http/api-docs.js';
import { handleFrameworkError, registerErrorHandler } from './http/error-handler.js';
import { registerJsonBodyParser } from './http/json-body.js';
import { metricsRoute } from './http/routes/health.routes.js';
import { apiRoutes } from './http/routes/index.js';
import type { AuthService } from './modules/auth/auth.service.js';
import type { CustomizeService } from './modules/customize/customize.service.js';
import type { DomainRegistry } from './modules/domains/domain-registry.js';
import type { DomainsService } from './modules/domains/domains.service.js';
import type { ParkingService } from './modules/parking/parking.service.js';
import type { StorageService } from './modules/storage/storage.service.js';
import type { PaymentsService } from './modules/payments/payments.service.js';
import type { ScreenshotsService } from './modules/screenshots/screenshots.service.js';
import type { FidelityService } from './modules/fidelity/fidelity.service.js';
import type { VisualDiffService } from './modules/visual-diff/visual-diff.service.js';
import type { IdeasService } from './modules/ideas/ideas.service.js';
import type { SitesService } from './modules/sites/sites.service.js';
import type { Sandbox } from './platform/sandbox/sandbox.js';
import type { DatabaseHandle } from './platform/db/database.js';
import type { JobQueue } from './platform/jobs/job.js';
import type { Metrics } from './platform/metrics/metrics.js';
import { createProbes, type Probes } from './platform/ops/probes.js';
import {
  createPlatform,
  createServices,
  createSitesHostOf,
  type Platform,
  type PlatformDependencies,
  type Services,
} from './services.js';

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    database: DatabaseHandle;
    authService: AuthService;
    sitesService: SitesService;
    fidelityService: FidelityService;
    visualDiffService: VisualDiffService;
    ideasService: IdeasService;
    customizeService: CustomizeService;
    blobs: SweepableBlobStore;
    jobs: JobQueue;
    sandbox: Sandbox;
    screenshotsService: ScreenshotsService;
    paymentsService: PaymentsService;
    domainRegistry: DomainRegistry;
    domainsService: DomainsService;
    parkingService: ParkingService;
    watchesService: WatchesService;
    formsService: FormsService;
    storageService: StorageService;
    metrics: Metrics;
    probes: Probes;
  }
}

const REQUEST_ID_PATTERN = /^[A-Za-z0-9._-]{1,128}$/;

export interface AppDependencies extends PlatformDependencies {
  /**
   * `all` (default): the app, the API and the sites host in one process; `api`: the app and the
   * API only, tenant hosts are answered 421 (the sites processes serve them).
   */
  role?: 'all' | 'api';
  /** Run queued jobs and periodic work in this process (role `all`; tests of the API alone turn it off). */
  runJobs?: boolean;
}

/** Builds the whole HTTP application without listening, for `main.ts` and for tests (`app.inject`). */
export async function buildApp(
  config: Config,
  deps: AppDependencies = {},
): Promise<FastifyInstance> {
  const role = deps.role ?? 'all';
  const platform = await createPlatform(config, role, deps);
  try {
    const sitesHost = role === 'all' ? createSitesHostOf(platform) : null;
    const services = createServices(platform, { sitesHost });
    if (role === 'all' && deps.runJobs !== false) services.startBackgroundWork();
    return await buildHttpApp(platform, services, sitesHost);
  } catch (err) {
    await platform.close();
    throw err;
  }
}

/** The HTTP layer over the services: Fastify, the API, the web app, and tenant hosts in front. */
async function buildHttpApp(
  platform: Platform,
  services: Services,
  sitesHost: SitesHost | null,
): Promise<FastifyInstance> {
  const { config } = platform;
  // Tenant hosts are answered by the HTTP server's own listener, before Fastify sees them.
  const sitesFront = createSitesFront(config);
  const app = Fastify({
    serverFactory: sitesFront.serverFactory,
    loggerInstance: platform.log as FastifyBaseLogger,
    trustProxy: config.trustProxy,
    requestIdHeader: 'x-request-id',
    genReqId: (req) => {
      const incoming = req.headers['x-request-id'];
      return typeof incoming === 'string' && REQUEST_ID_PATTERN.test(incoming)
        ? incoming
        : randomUUID();
    },
    bodyLimit: 1_048_576,
    // Router errors (bad percent-encoding, an over-long parameter) answer `{ message }` too.
    frameworkErrors: handleFrameworkError,
    // Domain names in paths (`/api/domains/check/{domain}`) may be up to 253 characters.
    routerOptions: { maxParamLength: 300 },
  }).withTypeProvider<ZodTypeProvider>();

  registerJsonBodyParser(app);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  const probes = createProbes(platform, services.jobs);
  app.decorate('config', config);
  app.decorate('database', platform.database);
  app.decorate('blobs', platform.blobs);
  app.decorate('domainRegistry', platform.domainRegistry);
  app.decorate('metrics', platform.metrics);
  app.decorate('probes', probes);
  app.decorate('jobs', services.jobs);
  app.decorate('sandbox', platform.sandbox);
  app.decorate('authService', services.authService);
  app.decorate('sitesService', services.sitesService);
  app.decorate('fidelityService', services.fidelityService);
  app.decorate('visualDiffService', services.visualDiffService);
  app.decorate('ideasService', services.ideasService);
  app.decorate('customizeService', services.customizeService);
  app.decorate('screenshotsService', services.screenshotsService);
  app.decorate('paymentsService', services.paymentsService);
  app.decorate('domainsService', services.domainsService);
  app.decorate('parkingService', services.parkingService);
  app.decorate('watchesService', services.watchesService);
  app.decorate('formsService', services.formsService);
  app.decorate('storageService', services.storageService);
  app.decorateRequest('authContext', null);
  // Fastify closes its server first (in-flight requests finish), then the platform drains jobs.
  app.addHook('preClose', async () => probes.drain());
  app.addHook('onClose', () => platform.close());

  const tenants = sitesHost ?? misdirectedTenant;
  sitesFront.attach(tenants, platform.log);

  app.addHook('onResponse', async (request, reply) => {
    platform.metrics.observeHttp(
      request.method,
      request.routeOptions.url ?? 'unmatched',
      reply.statusCode,
      reply.elapsedTime / 1000,
    );
  });
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });

  // Tenant requests that reach Fastify anyway (app.inject) are answered first, the same way: they
  // never see the app's headers, API or SPA.
  registerSitesHost(app, sitesFront, tenants);

  // Stripe.js is loaded from Stripe's host and frames its card fields from there (Stripe only).
  const stripeHosts = config.payments.stripe
    ? {
        script: ['https://js.stripe.com'],
        frame: ['https://js.stripe.com', 'https://hooks.stripe.com'],
        connect: ['https://api.stripe.com'],
      }
    : { script: [], frame: [], connect: [] };
  // The watch form's part picker (issue 33) shows a page of the owner's copy in a sandboxed
  // `srcdoc` frame, which keeps this policy: its one script of ours is allowed by its hash (no
  // inline script else), and the page's styles, images and fonts load from the sites host (its
  // references made absolute there: `base-uri` stays the app's own).
  const pickerScript = `'sha256-${createHash('sha256').update(PART_PICKER_SCRIPT, 'utf8').digest('base64')}'`;
  const sitesHosts = [`http://*.${config.sitesDomain}:*`, `https://*.${config.sitesDomain}`];
  await app.register(helmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", pickerScript, ...stripeHosts.script],
        styleSrc: ["'self'", "'unsafe-inline'", ...sitesHosts],
        imgSrc: ["'self'", 'data:', 'blob:', 'https:', ...sitesHosts],
        fontSrc: ["'self'", 'data:', ...sitesHosts],
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
  await app.register(metricsRoute);
  await registerWebApp(app, config.webDistDir);
  return app;
}
