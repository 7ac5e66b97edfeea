/**
 * The composition root of everything but HTTP: the platform parts (logger, database, blobs, rate
 * limiter, mail, domain routes, metrics), the sites host, and the product's services and jobs.
 * Each process role (`main.ts --role all|api|worker|sites`) takes the parts it needs:
 *
 * | role   | platform | sites host | services + jobs | background work | HTTP            |
 * |--------|----------|------------|-----------------|-----------------|-----------------|
 * | all    | yes      | yes        | yes             | yes             | app, API, sites |
 * | api    | yes      | —          | yes             | —               | app, API        |
 * | worker | yes      | —          | yes             | yes             | health, metrics |
 * | sites  | yes      | yes        | —               | —               | sites, health   |
 *
 * Nothing here imports Fastify or the web app, so a worker never loads the web stack.
 */
import type { ChangeReport } from '@mirror/contract';
import type { SweepableBlobStore } from '@mirror/engine';
import { pino, type Logger } from 'pino';
import { z } from 'zod';
import type { Config } from './config/env.js';
import { createSitesHost, type SitesHost } from './hosting/sites-host.js';
import {
  createAnalyticsService,
  type AnalyticsService,
} from './modules/analytics/analytics.service.js';
import { createVisitRecorder } from './modules/analytics/visit-recorder.js';
import { createAuthService, type AuthService } from './modules/auth/auth.service.js';
import { createUserPlans } from './modules/auth/user-plans.js';
import { createAiProviders } from './modules/customize/ai-provider.js';
import { createCustomizeSiteJob } from './modules/customize/customize-site.job.js';
import {
  createCustomizeService,
  type CustomizeService,
} from './modules/customize/customize.service.js';
import { createDomainRegistry, type DomainRegistry } from './modules/domains/domain-registry.js';
import { createDomainsService, type DomainsService } from './modules/domains/domains.service.js';
import { createFidelityCheckJob } from './modules/fidelity/fidelity-check.job.js';
import { createVisualDiffJob } from './modules/visual-diff/visual-diff.job.js';
import {
  createVisualDiffService,
  type VisualDiffService,
} from './modules/visual-diff/visual-diff.service.js';
import { createIdeasService, type IdeasService } from './modules/ideas/ideas.service.js';
import {
  createFidelityService,
  type FidelityService,
} from './modules/fidelity/fidelity.service.js';
import { createParkingPages } from './modules/parking/parking-pages.js';
import { createParkingService, type ParkingService } from './modules/parking/parking.service.js';
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
import { createMirrorSiteJob } from './modules/sites/mirror-site.job.js';
import { createSiteVersions } from './modules/sites/site-versions.js';
import { createSitesService, type SitesService } from './modules/sites/sites.service.js';
import { createBlobStore } from './platform/blobs/blob-store.js';
import { createStorageService, type StorageService } from './modules/storage/storage.service.js';
import { closeDataFolder } from './platform/sandbox/run-user.js';
import { createSandbox, type Sandbox } from './platform/sandbox/sandbox.js';
import { openDatabase, type DatabaseHandle } from './platform/db/database.js';
import { createBullmqJobQueue } from './platform/jobs/bullmq-job-queue.js';
import { createWatchesService, type WatchesService } from './modules/watches/watches.service.js';
import { createFormCapture } from './modules/forms/form-capture.js';
import { createSiteSearch } from './modules/forms/site-search.js';
import { createFormWebhooks, type FormWebhooks } from './modules/forms/form-webhooks.js';
import { createFormsService, type FormsService } from './modules/forms/forms.service.js';
import { createFormRecipients, type FormRecipients } from './modules/forms/form-recipients.js';
import { requireManifest } from './modules/sites/manifests.js';
import { defineJob, type JobQueue } from './platform/jobs/job.js';
import { createLocalJobQueue } from './platform/jobs/local-job-queue.js';
import { createMailer, type Mailer } from './platform/mail/mailer.js';
import { createMetrics, type Metrics } from './platform/metrics/metrics.js';
import { createDbRateLimiter, type RateLimiter } from './platform/rate-limit/rate-limiter.js';

export type Role = 'all' | 'api' | 'worker' | 'sites';
export const ROLES: readonly Role[] = ['all', 'api', 'worker', 'sites'];

export interface PlatformDependencies {
  /** An already open database (tests share one); otherwise the platform opens and closes its own. */
  database?: DatabaseHandle;
  /** Defaults to SMTP_URL or the dev outbox. */
  mailer?: Mailer;
  /** Where log lines go (stdout by default); tests read them to prove nothing secret is logged. */
  logStream?: NodeJS.WritableStream;
}

/** Parts every role uses. */
export interface Platform {
  config: Config;
  role: Role;
  log: Logger;
  database: DatabaseHandle;
  limiter: RateLimiter;
  mailer: Mailer;
  blobs: SweepableBlobStore;
  /** Runs work on strangers' pages (mirror runs, screenshots, exports) in child processes. */
  sandbox: Sandbox;
  /** Active custom and parked domains, in memory for host routing and the TLS edge's ask. */
  domainRegistry: DomainRegistry;
  metrics: Metrics;
  /** Runs `fn` when the process closes (last registered, first run). */
  onClose(fn: () => Promise<void> | void): void;
  close(): Promise<void>;
}

export async function createPlatform(
  config: Config,
  role: Role,
  deps: PlatformDependencies = {},
): Promise<Platform> {
  const closers: (() => Promise<void> | void)[] = [];
  const log = pino(
    {
      level: config.logLevel,
      base: { role, pid: process.pid },
      redact: {
        paths: ['req.headers.authorization', 'req.headers.cookie', 'res.headers["set-cookie"]'],
        censor: '[redacted]',
      },
    },
    deps.logStream ?? process.stdout,
  );
  // Sandboxed runs of a root server run as another user: the data folder is closed to them.
  closeDataFolder(config.dataDir);
  const database = deps.database ?? (await openDatabase(config.database));
  if (!deps.database) closers.push(() => database.destroy());
  const blobs = createBlobStore(config.mirror);
  const sandbox = createSandbox({
    blobs: { blobsDir: config.mirror.blobsDir, s3: config.mirror.s3 },
    memoryMb: config.mirror.runMemoryMb,
    user: config.mirror.sandboxUser,
    log,
    loadBuilt: config.mirror.sandboxBuilt,
  });
  // Runs still going when the process ends must not outlive it.
  closers.push(() => sandbox.killAll());
  const domainRegistry = createDomainRegistry({ db: database.db, log });
  await domainRegistry.refresh();
  // Other processes' domain changes reach this one's routes within this time.
  const domainRoutes = setInterval(() => {
    domainRegistry
      .refresh()
      .catch((err: unknown) => log.error({ err }, 'domain routes refresh failed'));
  }, 30_000);
  domainRoutes.unref();
  closers.push(() => clearInterval(domainRoutes));

  let closed: Promise<void> | null = null;
  return {
    config,
    role,
    log,
    database,
    limiter: createDbRateLimiter(database.db, config.rateLimitFactor),
    mailer: deps.mailer ?? createMailer(config.mail, log),
    blobs,
    sandbox,
    domainRegistry,
    metrics: createMetrics(role),
    onClose(fn) {
      closers.push(fn);
    },
    close() {
      closed ??= (async () => {
        for (const fn of closers.reverse()) {
          try {
            await fn();
          } catch (err) {
            log.error({ err }, 'error while closing');
          }
        }
      })();
      return closed;
    },
  };
}

/** The webhooks of copies' forms: the sites host makes each first try, workers the others. */
function createFormWebhooksOf(platform: Platform): FormWebhooks {
  return createFormWebhooks({
    db: platform.database.db,
    config: {
      webhookRetryDelaysMs: platform.config.webhookRetryDelaysMs,
      allowPrivateNetworks: platform.config.mirror.allowPrivateNetworks,
    },
  });
}

/** Addresses a published edit sends forms' mails to, and their confirmations (docs/forms.md). */
function createFormRecipientsOf(platform: Platform): FormRecipients {
  return createFormRecipients({
    db: platform.database.db,
    mailer: platform.mailer,
    log: platform.log,
    appUrl: platform.config.appUrl,
  });
}

/** The sites host of this process: subdomains, custom and parked domains. */
export function createSitesHostOf(platform: Platform): SitesHost {
  const { database, config, log, domainRegistry } = platform;
  // Counts in memory, written every few seconds and when the process closes.
  const visits = createVisitRecorder({ db: database.db, trustProxy: config.trustProxy, log });
  platform.onClose(() => visits.close());
  const parkingPages = createParkingPages({
    db: database.db,
    limiter: platform.limiter,
    mailer: platform.mailer,
    config,
    visits,
  });
  domainRegistry.onChange(() => parkingPages.invalidate());
  const forms = createFormCapture({
    webhooks: createFormWebhooksOf(platform),
    recipients: createFormRecipientsOf(platform),
    db: database.db,
    blobs: platform.blobs,
    limiter: platform.limiter,
    mailer: platform.mailer,
    config,
    loadManifest: (versionId) => requireManifest(database.db, platform.blobs, versionId),
  });
  const sitesHost = createSitesHost({
    db: database.db,
    blobs: platform.blobs,
    config,
    log,
    domains: domainRegistry,
    parking: parkingPages,
    visits,
    forms,
    search: createSiteSearch({ blobs: platform.blobs, versions: forms }),
  });
  platform.metrics.watchSitesRequests(sitesHost.requestCount);
  return sitesHost;
}

/** The product's services and the jobs they queue. */
export interface Services {
  jobs: JobQueue;
  authService: AuthService;
  sitesService: SitesService;
  fidelityService: FidelityService;
  visualDiffService: VisualDiffService;
  ideasService: IdeasService;
  customizeService: CustomizeService;
  screenshotsService: ScreenshotsService;
  paymentsService: PaymentsService;
  domainsService: DomainsService;
  parkingService: ParkingService;
  storageService: StorageService;
  analyticsService: AnalyticsService;
  watchesService: WatchesService;
  formsService: FormsService;
  /**
   * Runs queued jobs, including the periodic work (site retention and syncs, billing renewals, DNS
   * checks, scheduled as jobs so that one process runs each period), in this process; `platform.close()` drains it: no new jobs, running ones get half the
   * shutdown time to finish, then they go back to the queue.
   */
  startBackgroundWork(): void;
}

export function createServices(
  platform: Platform,
  options: {
    /** This process's sites host, told at once when a site's live version changes. */
    sitesHost?: SitesHost | null;
  } = {},
): Services {
  const { config, log, database, blobs, limiter, metrics, domainRegistry } = platform;
  const db = database.db;
  const jobs: JobQueue = config.jobs.redisUrl
    ? createBullmqJobQueue({
        redisUrl: config.jobs.redisUrl,
        prefix: config.jobs.redisPrefix,
        log,
        concurrency: config.jobs.concurrency,
        leaseMs: config.jobs.leaseMs,
      })
    : createLocalJobQueue({
        db,
        log,
        concurrency: config.jobs.concurrency,
        leaseMs: config.jobs.leaseMs,
      });
  platform.onClose(() => jobs.close());
  metrics.watchJobs(jobs);
  const register = <P>(definition: Parameters<typeof jobs.register<P>>[0]) => {
    jobs.register(metrics.instrumentJob(definition));
    return definition;
  };

  // Other processes' sites hosts see a new live version within their host-answer TTL (2 s).
  const sitesHost = options.sitesHost ?? null;
  const onPublished = (siteId: string) => sitesHost?.invalidate(siteId);

  // Periodic work, as scheduled jobs: one run per period across all the processes running jobs.
  // Answers the job, so it can also be queued at once.
  const periodic = (name: string, everyMs: number, run: () => Promise<unknown>) => {
    const definition = defineJob({
      name,
      payload: z.object({}).strict() as z.ZodType<Record<string, never>>,
      maxAttempts: 1,
      backoffMs: 0,
      handle: async () => {
        await run();
      },
    });
    jobs.schedule(metrics.instrumentJob(definition), everyMs);
    return definition;
  };

  // Storage per account, and the collector of blobs nothing refers to any more: every half hour,
  // and soon after a deletion (at most one extra pass a minute).
  const storageService = createStorageService({ db, blobs, log });
  const sweepJob = periodic('storage-sweep', 30 * 60_000, () => storageService.sweep());
  let sweepAskedAt = 0;
  const afterDeletion = () => {
    if (Date.now() - sweepAskedAt < 60_000) return;
    sweepAskedAt = Date.now();
    jobs
      .enqueue(sweepJob, {})
      .catch((err: unknown) => log.warn({ err }, 'storage sweep not queued'));
  };

  // What the jobs of other modules read and write of sites' versions, and of accounts' plans.
  const siteVersions = createSiteVersions({
    db,
    blobs,
    heldAmong: (hashes) => storageService.heldAmong(hashes),
    afterDeletion,
  });
  const plans = createUserPlans(db);

  // Screenshots and version thumbnails: each in a sandboxed process with its own Chromium.
  const screenshotsService = createScreenshotsService({
    db,
    blobs,
    sandbox: platform.sandbox,
    limiter,
    config,
    log,
  });
  const thumbnailJob = register(
    createThumbnailVersionJob({ versions: siteVersions, screenshots: screenshotsService }),
  );
  const queueThumbnail = async (versionId: string, siteId?: string) => {
    if (!config.mirror.versionThumbnails) return;
    // The version is served already; a missing thumbnail only leaves a card without a picture.
    await jobs
      .enqueue(thumbnailJob, { versionId })
      .catch((err: unknown) => log.warn({ err, siteId, versionId }, 'thumbnail not queued'));
  };
  const onVersionReady = (siteId: string, versionId: string) => queueThumbnail(versionId, siteId);
  // Fidelity checks of mirrored versions, after they are live (issue 21); a repair the check
  // publishes gets its thumbnail but is not checked again (its report is the check's). The check
  // takes the checked version's thumbnail in its own Chromium: one launch per mirror, not two.
  const fidelityJob = register(
    createFidelityCheckJob({
      db,
      config,
      sandbox: platform.sandbox,
      versions: siteVersions,
      plans,
      storage: storageService,
      onPublished,
      onRepaired: onVersionReady,
      ...(config.mirror.versionThumbnails
        ? {
            thumbnails: {
              async save(versionId: string, image: Buffer) {
                const { hash } = await screenshotsService.saveVersionThumbnail(versionId, image);
                await siteVersions.setThumbnail(versionId, hash);
              },
              queue: (versionId: string) => queueThumbnail(versionId),
            },
          }
        : {}),
    }),
  );
  const onMirrorReady = async (siteId: string, versionId: string) => {
    if (!config.mirror.fidelityChecks) return onVersionReady(siteId, versionId);
    await fidelityService.queue(siteId, versionId).catch(async (err: unknown) => {
      log.warn({ err, siteId, versionId }, 'fidelity check not queued');
      await onVersionReady(siteId, versionId);
    });
  };
  // The visual diff of each change report that lists changed pages (issue 33), after it is live.
  const visualDiffJob = register(
    createVisualDiffJob({
      db,
      config,
      sandbox: platform.sandbox,
      versions: siteVersions,
      plans,
      storage: storageService,
    }),
  );
  const visualDiffService = createVisualDiffService({
    db,
    blobs,
    jobs,
    diffJob: visualDiffJob,
    sites: { ownedSite: (user, id) => sitesService.ownedSite(user, id) },
  });
  const onChangeReport = async (
    siteId: string,
    versionId: string,
    baseVersionId: string,
    report: ChangeReport,
  ) => {
    if (!config.mirror.visualDiffs) return;
    // The report is stored already; a visual diff not queued only leaves it without pictures.
    await visualDiffService
      .queue(siteId, versionId, baseVersionId, report)
      .catch((err: unknown) => log.warn({ err, siteId, versionId }, 'visual diff not queued'));
  };
  const aiProviders = createAiProviders(config);
  const customizeJob = register(
    createCustomizeSiteJob({
      db,
      blobs,
      sandbox: platform.sandbox,
      config,
      providers: aiProviders,
      versions: siteVersions,
      plans,
      storage: storageService,
      onPublished,
      onVersionReady,
      afterDeletion,
    }),
  );
  // Watches on change reports (issue 33): evaluated with each report, told by mail, webhook and feed.
  const watchesService = createWatchesService({
    db,
    config,
    mailer: platform.mailer,
    jobs,
    log,
    sites: {
      ownedSite: (user, id) => sitesService.ownedSite(user, id),
      previewUrlOf: (label) => sitesService.previewUrlOf(label),
    },
    versions: siteVersions,
    blobs,
  });
  register(watchesService.deliveryJob);
  const formsService = createFormsService({
    db,
    blobs,
    mailer: platform.mailer,
    log,
    sites: { ownedSite: (user, id) => sitesService.ownedSite(user, id) },
    versions: siteVersions,
    webhooks: createFormWebhooksOf(platform),
    recipients: createFormRecipientsOf(platform),
    allowPrivateNetworks: config.mirror.allowPrivateNetworks,
  });
  const mirrorJob = register(
    createMirrorSiteJob({
      db,
      config,
      plans,
      sandbox: platform.sandbox,
      storage: storageService,
      pruneVersions: (siteId) => siteVersions.prune(siteId),
      onPublished,
      onVersionReady: onMirrorReady,
      onChangeReport,
      onMirrored: (copy) => metrics.mirrored(copy),
      watches: watchesService,
      startFollowUp: async (siteId, versionId) => {
        await jobs.enqueue(customizeJob, { siteId, versionId });
      },
    }),
  );
  const analyticsService = createAnalyticsService({ db });
  const sitesService = createSitesService({
    db,
    analytics: analyticsService,
    blobs,
    jobs,
    mirrorJob,
    limiter,
    config,
    sandbox: platform.sandbox,
    storage: storageService,
    onPublished,
    afterDeletion,
    // A published draft's edits of the forms (where their mails go) take effect with it.
    publishEffects: (site, version) => formsService.publishEffects(site, version),
    fidelitySummaries: (versionIds) => fidelityService.summaries(versionIds),
    visualDiffOf: (versionId) => visualDiffService.visualOf(versionId),
    pruneVersions: (siteId) => siteVersions.prune(siteId),
  });
  const fidelityService = createFidelityService({
    db,
    blobs,
    jobs,
    checkJob: fidelityJob,
    limiter,
    sites: sitesService,
  });
  const customizeService = createCustomizeService({
    db,
    jobs,
    customizeJob,
    sites: sitesService,
    limiter,
    config,
    blobs,
    versions: siteVersions,
    providers: aiProviders,
    storage: storageService,
    onPublished,
    afterDeletion,
  });
  // The test-mode provider reports its state changes to the service that owns our billing state.
  const paymentProviders = createPaymentProvider(config, {
    db,
    log,
    onEvent: (event) => paymentsService.applyEvent(event),
  });
  const paymentsService = createPaymentsService({
    db,
    analytics: analyticsService,
    ...paymentProviders,
    sites: sitesService,
    storage: storageService,
    limiter,
    config,
    log,
    mailer: platform.mailer,
    domainRegistry,
  });
  const domainsService = createDomainsService({
    db,
    mailer: platform.mailer,
    sites: sitesService,
    registry: domainRegistry,
    limiter,
    config,
    log,
  });
  const parkingService = createParkingService({
    db,
    analytics: analyticsService,
    domains: domainsService,
    // Rebuilt on the next request here; other processes' parked pages live 5 s.
    onPageChanged: (domainId) => sitesHost?.invalidateParked(domainId),
    log,
  });

  // Demo retention, claimed-site clean-up and scheduled syncs.
  periodic('site-maintenance', 10 * 60_000, () => sitesService.runMaintenance());
  // Daily digests of watches that are due (one a day per account), and old webhook deliveries.
  periodic('watch-digests', 15 * 60_000, () => watchesService.sendDigests());
  // Form submissions' webhook deliveries due again, and daily digests of form submissions (an
  // account's oldest owed one is a day old).
  periodic('form-webhooks', 60_000, () => formsService.deliverWebhooks());
  periodic('form-digests', 15 * 60_000, () => formsService.sendDigests());
  // Test-mode renewals are due to the minute; the tick also detaches custom domains whose grace
  // period after a downgrade is over, and forgets old webhook event ids.
  periodic('billing-maintenance', 60_000, () => paymentsService.runMaintenance());
  // Visit counts past their retention, and visitor marks and salts older than yesterday.
  periodic('analytics-retention', 60 * 60_000, () => analyticsService.prune());
  // DNS checks of pending domains (with back-off) and the daily look at active ones; claims
  // never verified in DOMAIN_CLAIM_EXPIRY_DAYS are removed first (their owners mailed).
  periodic('domain-checks', 30_000, () => domainsService.runDueChecks());

  let started = false;
  return {
    jobs,
    authService: createAuthService({
      db,
      mailer: platform.mailer,
      limiter,
      config,
      log,
      afterDeletion,
    }),
    sitesService,
    fidelityService,
    visualDiffService,
    ideasService: createIdeasService({ config, limiter, log, screenshots: screenshotsService }),
    customizeService,
    screenshotsService,
    paymentsService,
    domainsService,
    parkingService,
    storageService,
    analyticsService,
    watchesService,
    formsService,
    startBackgroundWork() {
      if (started) return;
      started = true;
      jobs.start();
      // Registered last, so it runs first on close: drain jobs before their connections go.
      platform.onClose(() => jobs.stop(config.shutdownTimeoutMs / 2));
    },
  };
}
