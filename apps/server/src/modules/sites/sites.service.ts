import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import {
  CLONE_STATUS_TEXTS,
  DEMO_RETENTION_DAYS,
  getPlan,
  isPaidPlan,
  normalizeSourceUrl,
  PLAN_LIMIT_MESSAGES,
  SITE_MESSAGES,
  type AnalyticsPeriod,
  type AnalyticsResponse,
  type CloneRecord,
  type CloneRequestBody,
  EditOp,
  type FidelitySummary,
  type PlanId,
  type ChangeReport,
  type SiteVersion,
  type SyncSchedule,
  type VersionChanges,
  type VisualDiff,
} from '@mirror/contract';
import { assertPublicUrl, RefusedAddressError, type SweepableBlobStore } from '@mirror/engine';
import { z } from 'zod';
import type { Config } from '../../config/env.js';
import {
  AppError,
  badRequest,
  conflict,
  forbidden,
  notFound,
  tooManyRequests,
} from '../../errors.js';
import type { Db } from '../../platform/db/database.js';
import type { UserRow } from '../../platform/db/schema.js';
import type { JobDefinition, JobQueue } from '../../platform/jobs/job.js';
import { addressKey, type RateLimiter } from '../../platform/rate-limit/rate-limiter.js';
import type { Sandbox } from '../../platform/sandbox/sandbox.js';
import type { AnalyticsService } from '../analytics/analytics.service.js';
import type { StorageService } from '../storage/storage.service.js';
import { siteTitlesTask } from './site-titles.task.js';
import { archiveReadLimits, type MirrorSitePayload } from './mirror-site.job.js';
import { archiveVersion, zipStaticFolder } from './site-export.js';
import { archiveCheckTask, type ArchiveCheckOutput } from './archive-check.task.js';
import { archiveTooLarge, readArchiveUpload } from './archive-upload.js';
import type { ArchiveExportFormat } from './archive-export.task.js';
import { createSiteRecords, type SiteRow } from './site-records.js';
import {
  claimDemoSites,
  countOwnedSites,
  deleteExpiredDemos,
  deleteSite,
  editsSinceMirror,
  findDueSyncs,
  findSite,
  findClaimableDemos,
  findVersion,
  insertRun,
  insertSite,
  isSubdomainTaken,
  findUntitledLiveVersions,
  listOwnedSites,
  publishVersion,
  setNextSync,
  setSubdomain,
  setSyncSchedule,
  setVersionTitle,
  deleteChangeReportsPastRetention,
  findChangeReport,
  listVersions,
  type RunStep,
} from './sites.repository.js';
import { parseSubdomain, randomSubdomain } from './subdomains.js';
import { sitesOverVersionLimit } from './version-pruning.js';
import { assertMayPublish, mayStartScheduledSync } from './plan-limits.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
export const DEMO_RATE_LIMIT = { limit: 5, windowMs: HOUR };
/** Per signed-in user: mirror runs they start (new sites, AI clones and re-mirrors alike). */
export const MIRROR_RATE_LIMIT = { limit: 30, windowMs: HOUR };
/** Per signed-in user: static exports (each one writes the whole site to disk and zips it). */
export const EXPORT_RATE_LIMIT = { limit: 20, windowMs: HOUR };
const SYNC_INTERVAL: Record<Exclude<SyncSchedule, 'off'>, number> = {
  hourly: DAY / 24,
  daily: DAY,
  weekly: 7 * DAY,
};
/** A page picked in an archive: an http(s) URL as the archive has it (no trailing slash dropped). */
function archivedUrl(text: string): string {
  try {
    const url = new URL(text);
    if (url.protocol === 'http:' || url.protocol === 'https:') return url.href;
  } catch {
    // answered below
  }
  throw badRequest(SITE_MESSAGES.urlInvalid);
}

/** Reading an uploaded archive before it is accepted (a 4 GB WACZ is read once, whole). */
const ARCHIVE_CHECK_TIMEOUT_MS = 10 * 60_000;
/** What the service's archives name as the software that wrote them (`warcinfo`, WACZ package). */
export const ARCHIVE_SOFTWARE = 'Mirror 0.1.0';
const RUNNING: ReadonlySet<string> = new Set(['pending', 'processing', 'completing']);

export interface DemoClaim {
  claimedIds: string[];
  message: string;
}

/**
 * A visitor's demo mirrors become the account's sites after sign-up or sign-in: only existing,
 * unclaimed demo records whose mirror did not fail, and no more than the plan's mirror allowance
 * leaves room for (issue 31, item 1). When there is less room than demos, the one the visitor
 * acted on (`firstId`: "Register to customize" on it) goes first, then completed mirrors newest
 * first, then those still running. `claimedIds` are in that order.
 */
export async function claimDemos(
  db: Db,
  user: { id: string; plan: PlanId },
  ids: readonly string[],
  firstId?: string,
): Promise<DemoClaim> {
  const unique = [...new Set(firstId ? [firstId, ...ids] : ids)];
  const claimable = rankDemos(await findClaimableDemos(db, unique), firstId);
  const allowance = getPlan(user.plan).limits.mirrors;
  const room =
    allowance === null
      ? claimable.length
      : Math.max(0, allowance - (await countOwnedSites(db, user.id)));
  const claimed = new Set(
    await claimDemoSites(db, user.id, claimable.slice(0, room), new Date().toISOString()),
  );
  const claimedIds = claimable.filter((id) => claimed.has(id));
  return {
    claimedIds,
    message: demoClaimMessage(claimedIds.length, unique.length, claimable.length > room),
  };
}

/** Demos (newest first) in the order a claim takes them: `firstId`, completed, then running. */
function rankDemos(demos: { id: string; status: string }[], firstId: string | undefined) {
  const rank = (demo: { id: string; status: string }) =>
    demo.id === firstId ? 0 : demo.status === 'completed' ? 1 : 2;
  // Array.prototype.sort is stable: within a rank the newest stays first.
  return [...demos].sort((a, b) => rank(a) - rank(b)).map((demo) => demo.id);
}

function demoClaimMessage(claimed: number, asked: number, overAllowance: boolean): string {
  if (asked === 0) return 'No demo sites to claim.';
  const done = claimed === 1 ? 'Claimed 1 demo site.' : `Claimed ${claimed} demo sites.`;
  if (overAllowance) return `${done} Your plan's mirror limit is reached: upgrade to keep more.`;
  if (claimed < asked) return `${done} The others failed, no longer exist or were already claimed.`;
  return done;
}

/**
 * A customization or AI rewrite to run on a fresh mirror once it completes. `carried`: the edits
 * of the live version re-applied after a re-mirror or sync, reviewed already, so the step
 * publishes at once. Every other customization becomes a draft (issue 19).
 */
export type FollowUpStep = RunStep;

export interface SitesServiceDeps {
  db: Db;
  analytics: Pick<AnalyticsService, 'siteAnalytics'>;
  blobs: SweepableBlobStore;
  jobs: JobQueue;
  mirrorJob: JobDefinition<MirrorSitePayload>;
  limiter: RateLimiter;
  config: Config;
  sandbox: Sandbox;
  storage: Pick<StorageService, 'assertRoom' | 'hold' | 'release' | 'heldAmong'>;
  /** Tells the sites host that a site's live version changed or the site is gone. */
  onPublished(siteId: string): void;
  /** Sites or versions were deleted: their blobs can be collected. */
  afterDeletion(): void;
  /** The fidelity checks of these versions (issue 21); none without. */
  fidelitySummaries?(versionIds: readonly string[]): Promise<Map<string, FidelitySummary>>;
  /** The visual diff of a version's change report (issue 33); none without. */
  visualDiffOf?(versionId: string): Promise<VisualDiff | null>;
  /** Deletes a site's versions beyond what its owner's plan keeps (issue 30, item 1). */
  pruneVersions?(siteId: string): Promise<number>;
  /**
   * What publishing a draft changes besides the pages (where its forms' mails go, issue 34):
   * `write` runs in the publish's transaction, `after` once it committed.
   */
  publishEffects?(
    site: { id: string; owner_id: string | null },
    version: { id: string; plan: string | null },
  ): Promise<{ write(trx: Db): Promise<void>; after(): Promise<void> } | null>;
}

/** Reading the titles of older live versions, when sites are listed (once per version). */
const TITLES_TIMEOUT_MS = 20_000;

export function createSitesService(deps: SitesServiceDeps) {
  const { db, config } = deps;
  const { previewUrlOf, toRecord, toVersion } = createSiteRecords(config);

  /**
   * Live versions made before titles were kept get theirs now, read from their stored home pages
   * in one sandboxed run; a run that fails leaves them to the next listing (the host is shown).
   */
  async function withTitles<T extends SiteRow>(sites: T[]): Promise<T[]> {
    const untitled = sites.filter((s) => s.live_version_id && s.live_title === null);
    if (untitled.length === 0) return sites;
    const versions = await findUntitledLiveVersions(
      db,
      untitled.map((s) => s.live_version_id!),
    );
    if (versions.length === 0) return sites;
    try {
      const {
        output: { titles },
      } = await deps.sandbox.run(
        siteTitlesTask,
        { manifestHashes: versions.map((v) => v.manifest_hash!) },
        { timeoutMs: TITLES_TIMEOUT_MS },
      );
      const byVersion = new Map(versions.map((v, i) => [v.id, titles[i] ?? '']));
      for (const [versionId, title] of byVersion) await setVersionTitle(db, versionId, title);
      return sites.map((s) =>
        s.live_version_id && byVersion.has(s.live_version_id)
          ? { ...s, live_title: byVersion.get(s.live_version_id)! }
          : s,
      );
    } catch {
      return sites;
    }
  }

  /** The records with their live versions' fidelity checks. */
  async function withFidelity(records: CloneRecord[]): Promise<CloneRecord[]> {
    const live = records.flatMap((r) => (r.liveVersionId ? [r.liveVersionId] : []));
    const checks = (await deps.fidelitySummaries?.(live)) ?? new Map<string, FidelitySummary>();
    return records.map((r) => ({
      ...r,
      fidelity: (r.liveVersionId && checks.get(r.liveVersionId)) || null,
    }));
  }

  /** The site if this user may see it: owners see theirs; a demo is visible to whoever has its id. */
  async function visibleSite(user: UserRow | null, id: string): Promise<SiteRow> {
    const site = await findSite(db, id);
    if (!site) throw notFound(SITE_MESSAGES.notFound);
    if (site.owner_id === null ? site.is_demo !== 1 : site.owner_id !== user?.id)
      throw notFound(SITE_MESSAGES.notFound);
    return site;
  }

  async function ownedSite(user: UserRow, id: string): Promise<SiteRow> {
    const site = await findSite(db, id);
    if (!site || site.owner_id !== user.id) throw notFound(SITE_MESSAGES.notFound);
    return site;
  }

  /**
   * A source on a private or local network is refused before anything is stored or counted. The
   * engine checks every address again when it fetches (a name may resolve differently by then);
   * a name that does not resolve now is left to the run, which reports it.
   */
  async function refusePrivateAddress(sourceUrl: string): Promise<void> {
    if (config.mirror.allowPrivateNetworks) return;
    try {
      await assertPublicUrl(new URL(sourceUrl));
    } catch (error) {
      if (error instanceof RefusedAddressError) throw badRequest(SITE_MESSAGES.privateAddress);
      if ((error as { code?: unknown }).code === 'EBADSCHEME') {
        throw badRequest(SITE_MESSAGES.urlInvalid);
      }
    }
  }

  /** A mirror run costs the same whether it makes a new site or refreshes one. */
  async function limitRuns(user: UserRow): Promise<void> {
    await deps.storage.assertRoom(user.id, user.plan);
    const hit = await deps.limiter.hit(`mirror:user:${user.id}`, MIRROR_RATE_LIMIT);
    if (!hit.allowed) throw tooManyRequests(hit.retryAfterSeconds, SITE_MESSAGES.runRateLimited);
  }

  async function chooseSubdomain(requested: string | null): Promise<string> {
    if (requested) {
      if (await isSubdomainTaken(db, requested)) throw conflict(SITE_MESSAGES.subdomainTaken);
      return requested;
    }
    for (;;) {
      const candidate = randomSubdomain();
      if (!(await isSubdomainTaken(db, candidate))) return candidate;
    }
  }

  /**
   * A fresh mirror re-applies the edits the live version carries (a customize step after it). A
   * page the owner restored from an earlier version (issue 33) is taken from the live version,
   * which has it as published (one of the newest versions, which every plan keeps), so it stays
   * restored however old the version it first came from.
   */
  async function carriedEdits(liveVersionId: string | null): Promise<FollowUpStep | undefined> {
    if (!liveVersionId) return undefined;
    const parsed = z.array(EditOp).safeParse(await editsSinceMirror(db, liveVersionId));
    if (!parsed.success || parsed.data.length === 0) return undefined;
    const ops = parsed.data.map((op) =>
      op.op === 'restorePage' ? { ...op, fromVersionId: liveVersionId } : op,
    );
    return { kind: 'customize', instructions: null, idea: null, ops, carried: true };
  }

  /**
   * Creates the version and queues its run, in that order, so a crash in between leaves a pending
   * run to retry. A follow-up step is recorded with it: the mirror job queues it when it succeeds.
   */
  async function startRun(
    siteId: string,
    followUp?: FollowUpStep,
    {
      scheduled = false,
      versionId = randomUUID(),
      archive,
    }: { scheduled?: boolean; versionId?: string; archive?: MirrorSitePayload['archive'] } = {},
  ): Promise<void> {
    await insertRun(db, siteId, versionId, followUp, new Date().toISOString());
    await deps.jobs.enqueue(deps.mirrorJob, {
      siteId,
      versionId,
      ...(scheduled ? { scheduled } : {}),
      ...(archive ? { archive } : {}),
    });
  }

  /** A signed-in user may start one more site: the plan's allowance, storage and the run limit. */
  async function assertMayAddSite(user: UserRow): Promise<void> {
    const allowance = getPlan(user.plan).limits.mirrors;
    if (allowance !== null && (await countOwnedSites(db, user.id)) >= allowance) {
      throw forbidden(SITE_MESSAGES.mirrorLimit);
    }
    await limitRuns(user);
  }

  /**
   * An uploaded archive no run took: removed from the store at once (unless a run holds the same
   * bytes), so a refused upload leaves nothing behind.
   */
  async function dropUpload(holder: string, hash: string): Promise<void> {
    await deps.storage.release(holder);
    if ((await deps.storage.heldAmong([hash])).has(hash)) return;
    await deps.blobs.remove(hash, new Date(Date.now() + DAY));
  }

  /** Inserts a new site row, answering 409 when its subdomain was taken meanwhile. */
  async function addSite(row: Parameters<typeof insertSite>[1]): Promise<void> {
    try {
      await insertSite(db, row);
    } catch (err) {
      if (row.subdomain && (await isSubdomainTaken(db, row.subdomain)))
        throw conflict(SITE_MESSAGES.subdomainTaken);
      throw err;
    }
  }

  /** Reads an uploaded archive in a sandbox: its pages and facts, or the engine's verdict. */
  async function checkArchive(
    hash: string,
    name: string,
    plan: PlanId,
    url: string | undefined,
  ): Promise<Extract<ArchiveCheckOutput, { ok: true }>> {
    const { maxBytes, maxRecords } = archiveReadLimits(plan);
    const { output } = await deps.sandbox.run(
      archiveCheckTask,
      { hash, name, maxBytes, maxRecords, ...(url ? { url } : {}) },
      { timeoutMs: ARCHIVE_CHECK_TIMEOUT_MS },
    );
    if (output.ok) return output;
    if (output.code === 'too-large')
      // Too many records says so in the engine's words; too many bytes, with the plan's limit.
      throw /records/.test(output.message)
        ? new AppError('archive_too_large', 413, output.message)
        : archiveTooLarge(maxBytes);
    throw new AppError('bad_archive', 400, output.message);
  }

  return {
    toRecord,
    previewUrlOf,
    visibleSite,
    ownedSite,

    /**
     * A new site and its first mirror run. Instructions given here (paid plans) become a
     * customization that runs right after the mirror; `followUp` asks for another step instead
     * (the AI rewrite of idea mode, whose own rules the caller checked).
     */
    async createClone(
      user: UserRow | null,
      body: CloneRequestBody,
      ip: string,
      options: { followUp?: FollowUpStep } = {},
    ): Promise<CloneRecord> {
      const sourceUrl = normalizeSourceUrl(body.sourceUrl);
      if (!sourceUrl) throw badRequest(SITE_MESSAGES.urlInvalid);
      await refusePrivateAddress(sourceUrl);
      const wantsSubdomain = (body.targetDomain ?? '').trim() !== '';
      const wantsInstructions = (body.aiInstructions ?? '').trim() !== '';
      const paid = user !== null && isPaidPlan(user.plan);
      if (wantsSubdomain && !paid) throw forbidden(SITE_MESSAGES.paidSubdomain);
      if (wantsInstructions && !paid) throw forbidden(SITE_MESSAGES.paidInstructions);
      const requested = parseSubdomain(body.targetDomain, config.sitesDomain);

      if (user) {
        await assertMayAddSite(user);
      } else {
        const hit = await deps.limiter.hit(addressKey('demo', ip), DEMO_RATE_LIMIT);
        if (!hit.allowed) throw tooManyRequests(hit.retryAfterSeconds, SITE_MESSAGES.demoLimit);
      }

      const subdomain = await chooseSubdomain(requested);
      const id = randomUUID();
      const now = new Date();
      await addSite({
        id,
        owner_id: user?.id ?? null,
        is_demo: user ? 0 : 1,
        source_url: sourceUrl,
        subdomain,
        status: 'pending',
        current_status: CLONE_STATUS_TEXTS.validating,
        ai_instructions: wantsInstructions ? body.aiInstructions!.trim() : null,
        customizations:
          body.customizations && Object.keys(body.customizations).length > 0
            ? JSON.stringify(body.customizations)
            : null,
        demo_ip: user ? null : ip,
        expires_at: user ? null : new Date(now.getTime() + DEMO_RETENTION_DAYS * DAY).toISOString(),
        created_at: now.toISOString(),
        updated_at: now.toISOString(),
      });
      const followUp =
        options.followUp ??
        (wantsInstructions
          ? {
              kind: 'customize' as const,
              instructions: body.aiInstructions!.trim(),
              idea: null,
              ops: [],
            }
          : undefined);
      await startRun(id, followUp);
      return toRecord((await findSite(db, id))!);
    },

    /**
     * "Host an archive" (issue 35): a new site made from an uploaded WACZ or WARC instead of the
     * live site. The upload streams into the blob store (refused past the plan's size); a sandboxed
     * run reads it before anything else is written, and a bad archive is answered with the
     * engine's sentence and leaves nothing stored. A good one becomes a site whose first run
     * imports it; its address is the archive's first page, or the one the owner picked.
     */
    async hostArchive(
      user: UserRow,
      req: IncomingMessage,
    ): Promise<{ site: CloneRecord; archive: Extract<ArchiveCheckOutput, { ok: true }> }> {
      await assertMayAddSite(user);
      const limitBytes = getPlan(user.plan).limits.archiveUploadBytes;
      const upload = await readArchiveUpload(req, deps.blobs, limitBytes);
      // Held for the version from now: a sweep leaves it alone until its run ends.
      const versionId = randomUUID();
      const missing = await deps.storage.hold(versionId, [upload.hash]);
      try {
        if (missing.size > 0) throw new Error('the uploaded archive is missing from the store');
        const { targetDomain = '', url = '' } = upload.fields;
        const wantsSubdomain = targetDomain.trim() !== '';
        if (wantsSubdomain && !isPaidPlan(user.plan)) throw forbidden(SITE_MESSAGES.paidSubdomain);
        const requested = parseSubdomain(targetDomain, config.sitesDomain);
        const picked = url.trim() === '' ? undefined : archivedUrl(url.trim());
        const checked = await checkArchive(upload.hash, upload.name, user.plan, picked);
        const subdomain = await chooseSubdomain(requested);
        const id = randomUUID();
        const now = new Date().toISOString();
        await addSite({
          id,
          owner_id: user.id,
          is_demo: 0,
          source_url: checked.startUrl,
          subdomain,
          status: 'pending',
          current_status: CLONE_STATUS_TEXTS.validating,
          ai_instructions: null,
          customizations: null,
          demo_ip: null,
          expires_at: null,
          created_at: now,
          updated_at: now,
        });
        await startRun(id, undefined, {
          versionId,
          archive: { hash: upload.hash, name: upload.name },
        });
        return { site: toRecord((await findSite(db, id))!), archive: checked };
      } catch (err) {
        await dropUpload(versionId, upload.hash);
        throw err;
      }
    },

    async status(user: UserRow | null, id: string) {
      const record = (await withFidelity([toRecord(await visibleSite(user, id))]))[0]!;
      return {
        id: record.id,
        status: record.status,
        currentStatus: record.currentStatus,
        previewUrl: record.previewUrl,
        progress: record.progress,
        estimatedTime: record.estimatedTime,
        error: record.error,
        errorKind: record.errorKind ?? null,
        errorDetail: record.errorDetail ?? null,
        counts: record.counts ?? null,
        currentUrl: record.currentUrl ?? null,
        fidelity: record.fidelity ?? null,
      };
    },

    async get(user: UserRow, id: string): Promise<CloneRecord> {
      const [site] = await withTitles([await ownedSite(user, id)]);
      return (await withFidelity([toRecord(site!)]))[0]!;
    },

    async list(user: UserRow): Promise<CloneRecord[]> {
      return withFidelity((await withTitles(await listOwnedSites(db, user.id))).map(toRecord));
    },

    async remove(user: UserRow, id: string): Promise<void> {
      const site = await ownedSite(user, id);
      await deleteSite(db, site.id);
      deps.onPublished(site.id);
      deps.afterDeletion();
    },

    async remirror(user: UserRow, id: string): Promise<CloneRecord> {
      const site = await ownedSite(user, id);
      if (RUNNING.has(site.status)) throw conflict(SITE_MESSAGES.busy);
      // Beyond the plan's number of sites (after a downgrade) a site is read-only.
      await assertMayPublish(db, site.id);
      await limitRuns(user);
      await startRun(site.id, await carriedEdits(site.live_version_id));
      return toRecord((await findSite(db, site.id))!);
    },

    async versions(user: UserRow, id: string): Promise<SiteVersion[]> {
      const site = await ownedSite(user, id);
      const versions = await listVersions(db, site.id);
      const checks =
        (await deps.fidelitySummaries?.(versions.map((v) => v.id))) ??
        new Map<string, FidelitySummary>();
      return versions.map((v) => toVersion(v, site.live_version_id, checks.get(v.id) ?? null));
    },

    /** What a mirror version changed against the version it replaced (issue 33). */
    async changes(user: UserRow, id: string, versionId: string): Promise<VersionChanges> {
      const site = await ownedSite(user, id);
      if (!(await findVersion(db, site.id, versionId))) throw notFound('Version not found.');
      const row = await findChangeReport(db, site.id, versionId);
      if (!row)
        throw notFound(
          'This version has no change report: it is a first mirror, an edit, or older than change reports.',
        );
      return {
        versionId,
        baseVersionId: row.base_version_id,
        baseNumber: row.base_number ?? null,
        report: JSON.parse(row.report) as ChangeReport,
        visual: (await deps.visualDiffOf?.(versionId)) ?? null,
      };
    },

    /**
     * Rollback (or forward, or a draft): the live pointer moves to a completed version in one
     * update, through the publish gate like every other new live version.
     */
    async publish(user: UserRow, id: string, versionId: string): Promise<CloneRecord> {
      const site = await ownedSite(user, id);
      const version = await findVersion(db, site.id, versionId);
      if (!version) throw notFound('Version not found.');
      if (version.status !== 'completed' || !version.manifest_hash) {
        throw new AppError('version_not_ready', 409, 'Only a completed version can be published.');
      }
      await assertMayPublish(db, site.id);
      // A draft's edits take effect when it is published, the first time only (a rollback to it
      // later changes its pages back, not the forms' settings the owner may have changed since).
      const effects = version.draft === 1 ? await deps.publishEffects?.(site, version) : undefined;
      // Pruned since it was read: gone, like a version that never existed.
      if (!(await publishVersion(db, site.id, version, effects?.write)))
        throw notFound('Version not found.');
      deps.onPublished(site.id);
      await effects?.after();
      return toRecord((await findSite(db, site.id))!);
    },

    /**
     * Moves a site to another subdomain (paid plans, like choosing one at clone time); blank picks a
     * new random one. The old address answers "No site here" from then on.
     */
    async changeSubdomain(user: UserRow, id: string, requested: string): Promise<CloneRecord> {
      const site = await ownedSite(user, id);
      if (site.is_demo === 1) throw forbidden(SITE_MESSAGES.paidSubdomain);
      const label = parseSubdomain(requested, config.sitesDomain);
      if (label !== null && !isPaidPlan(user.plan)) throw forbidden(SITE_MESSAGES.paidSubdomain);
      if (label === site.subdomain) return toRecord(site);
      const subdomain = await chooseSubdomain(label);
      await setSubdomain(db, site.id, subdomain);
      deps.onPublished(site.id);
      return toRecord((await findSite(db, site.id))!);
    },

    async setSyncSchedule(user: UserRow, id: string, schedule: SyncSchedule): Promise<CloneRecord> {
      const site = await ownedSite(user, id);
      if (schedule !== 'off') {
        const { limits } = getPlan(user.plan);
        if (!limits.scheduledSync) throw forbidden(PLAN_LIMIT_MESSAGES.syncNeedsPlan);
        if (schedule === 'hourly' && !limits.hourlySync)
          throw forbidden(PLAN_LIMIT_MESSAGES.syncHourlyNeedsAgency);
        await assertMayPublish(db, site.id);
      }
      await setSyncSchedule(
        db,
        site.id,
        schedule,
        schedule === 'off' ? null : new Date(Date.now() + SYNC_INTERVAL[schedule]).toISOString(),
        new Date().toISOString(),
      );
      return toRecord((await findSite(db, site.id))!);
    },

    /** The live version as a zip of a static folder (counted against the export limit). */
    async exportZip(user: UserRow, id: string): Promise<NodeJS.ReadableStream> {
      const site = await ownedSite(user, id);
      const version = site.live_version_id
        ? await findVersion(db, site.id, site.live_version_id)
        : undefined;
      if (!version?.manifest_hash)
        throw new AppError('no_live_version', 409, 'This site has no completed mirror yet.');
      const hit = await deps.limiter.hit(`export:user:${user.id}`, EXPORT_RATE_LIMIT);
      if (!hit.allowed) throw tooManyRequests(hit.retryAfterSeconds);
      return zipStaticFolder(deps.sandbox, version.manifest_hash);
    },

    /**
     * A completed version as a web archive (issue 35): the responses as the origin answered them,
     * written by a sandboxed run. Counted against the export limit like the zip.
     */
    async exportArchive(
      user: UserRow,
      id: string,
      versionId: string,
      format: ArchiveExportFormat,
    ): Promise<{ stream: NodeJS.ReadableStream; bytes: number; fileName: string }> {
      const site = await ownedSite(user, id);
      const version = await findVersion(db, site.id, versionId);
      if (!version) throw notFound('Version not found.');
      if (version.status !== 'completed' || !version.manifest_hash)
        throw new AppError('version_not_ready', 409, 'Only a completed version can be downloaded.');
      const hit = await deps.limiter.hit(`export:user:${user.id}`, EXPORT_RATE_LIMIT);
      if (!hit.allowed) throw tooManyRequests(hit.retryAfterSeconds);
      const written = await archiveVersion(deps.sandbox, {
        manifestHash: version.manifest_hash,
        format,
        software: ARCHIVE_SOFTWARE,
        title: version.title || site.subdomain || site.source_url,
      });
      const extension = format === 'wacz' ? 'wacz' : 'warc.gz';
      return {
        ...written,
        fileName: `${site.subdomain ?? 'site'}-v${version.number}.${extension}`,
      };
    },

    async analytics(
      user: UserRow,
      id: string,
      period: AnalyticsPeriod,
    ): Promise<AnalyticsResponse> {
      const site = await ownedSite(user, id);
      return deps.analytics.siteAnalytics(site.id, period);
    },

    /** Periodic upkeep: drop unclaimed demos past their time, start scheduled syncs that are due. */
    async runMaintenance(now = new Date()): Promise<{ expired: number; synced: number }> {
      const expired = await deleteExpiredDemos(db, now.toISOString());
      expired.forEach((siteId) => deps.onPublished(siteId));
      if (expired.length > 0) deps.afterDeletion();
      // Versions beyond what the owner's plan keeps (a downgrade lowers the count).
      if (deps.pruneVersions) {
        for (const siteId of await sitesOverVersionLimit(db)) await deps.pruneVersions(siteId);
      }
      // Change reports past the owner's plan's retention (the version keeps its one-line digest).
      await deleteChangeReportsPastRetention(db, now);
      const due = await findDueSyncs(db, now.toISOString(), [...RUNNING] as SiteRow['status'][]);
      let synced = 0;
      for (const site of due) {
        // Never a sync the owner's plan does not allow (no scheduled sync, or a read-only site):
        // such a schedule is turned off instead.
        const allowed = await mayStartScheduledSync(db, site.id);
        if (!allowed) {
          await setSyncSchedule(db, site.id, 'off', null);
          continue;
        }
        // Hourly on a plan that syncs daily at most (a downgrade from Agency): daily from now on.
        let schedule = site.sync_schedule as Exclude<SyncSchedule, 'off'>;
        if (schedule === 'hourly' && !allowed.hourly) {
          schedule = 'daily';
          await setSyncSchedule(db, site.id, schedule, null);
        }
        synced++;
        const interval = SYNC_INTERVAL[schedule];
        await setNextSync(db, site.id, new Date(now.getTime() + interval).toISOString());
        const live = await findSite(db, site.id);
        await startRun(site.id, await carriedEdits(live?.live_version_id ?? null), {
          scheduled: true,
        });
      }
      return { expired: expired.length, synced };
    },
  };
}

export type SitesService = ReturnType<typeof createSitesService>;
