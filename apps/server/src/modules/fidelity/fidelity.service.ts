import {
  FIDELITY_MESSAGES,
  type FidelityReportResponse,
  type FidelitySummary,
} from '@mirror/contract';
import type { BlobStore } from '@mirror/engine';
import { badRequest, conflict, notFound, tooManyRequests } from '../../errors.js';
import type { Db } from '../../platform/db/database.js';
import type { UserRow } from '../../platform/db/schema.js';
import type { JobDefinition, JobQueue } from '../../platform/jobs/job.js';
import type { RateLimiter } from '../../platform/rate-limit/rate-limiter.js';
import { assertMayPublish } from '../sites/plan-limits.js';
import type { SitesService } from '../sites/sites.service.js';
import type { FidelityCheckPayload } from './fidelity-check.job.js';
import type { StoredFidelityReport } from './fidelity-check.task.js';
import { reportResponse } from './fidelity-report.js';
import { findReport, isFidelityShot, queueCheck, summaries } from './fidelity.repository.js';

const HOUR = 60 * 60_000;
/** Checks an owner may ask for by hand (each renders up to 50 pages in Chromium). */
export const FIDELITY_RATE_LIMIT = { limit: 10, windowMs: HOUR };

const SHOT_FILE = /^([0-9a-f]{64})\.png$/;

export interface FidelityServiceDeps {
  db: Db;
  blobs: BlobStore;
  jobs: JobQueue;
  checkJob: JobDefinition<FidelityCheckPayload>;
  limiter: RateLimiter;
  sites: Pick<SitesService, 'ownedSite'>;
}

export function createFidelityService(deps: FidelityServiceDeps) {
  const { db, blobs } = deps;

  async function liveVersionOf(
    user: UserRow,
    siteId: string,
  ): Promise<{ siteId: string; versionId: string }> {
    const site = await deps.sites.ownedSite(user, siteId);
    if (!site.live_version_id) throw notFound(FIDELITY_MESSAGES.nothingLive);
    return { siteId: site.id, versionId: site.live_version_id };
  }

  async function queue(siteId: string, versionId: string, paths: string[] | null): Promise<void> {
    await queueCheck(db, { versionId, siteId, paths });
    await deps.jobs.enqueue(deps.checkJob, { versionId });
  }

  return {
    /** After a mirror version is live: its check, queued. */
    queue: (siteId: string, versionId: string) => queue(siteId, versionId, null),

    summaries: (versionIds: readonly string[]): Promise<Map<string, FidelitySummary>> =>
      summaries(db, versionIds),

    /** The live version's report. */
    async report(user: UserRow, siteId: string): Promise<FidelityReportResponse> {
      const { versionId } = await liveVersionOf(user, siteId);
      const row = await findReport(db, versionId);
      if (!row) throw notFound(FIDELITY_MESSAGES.notChecked);
      return reportResponse(row);
    },

    /**
     * Checks the live version again, or only `paths` of it (captured again). A check may publish
     * its repair, so a read-only site (beyond its owner's plan) is refused like a re-mirror.
     */
    async checkAgain(
      user: UserRow,
      siteId: string,
      paths: string[] | undefined,
    ): Promise<FidelityReportResponse> {
      const live = await liveVersionOf(user, siteId);
      await assertMayPublish(db, live.siteId);
      const row = await findReport(db, live.versionId);
      if (row && (row.state === 'queued' || row.state === 'running'))
        throw conflict(FIDELITY_MESSAGES.busy);
      if (paths) {
        const report = row?.report ? (JSON.parse(row.report) as StoredFidelityReport) : null;
        const known = new Set(report?.pages.map((p) => p.path));
        if (paths.some((p) => !known.has(p))) throw badRequest(FIDELITY_MESSAGES.unknownPage);
      }
      const hit = await deps.limiter.hit(`fidelity:user:${user.id}`, FIDELITY_RATE_LIMIT);
      if (!hit.allowed) throw tooManyRequests(hit.retryAfterSeconds, FIDELITY_MESSAGES.rateLimited);
      await queue(live.siteId, live.versionId, paths ? [...new Set(paths)] : null);
      return reportResponse((await findReport(db, live.versionId))!);
    },

    /** A screenshot of a report, by its hash (only blobs some report lists). */
    async openShot(file: string): Promise<AsyncIterable<Uint8Array>> {
      const hash = SHOT_FILE.exec(file)?.[1];
      if (!hash || !(await isFidelityShot(db, hash)) || !(await blobs.has(hash)))
        throw notFound(FIDELITY_MESSAGES.shotNotFound);
      return blobs.read(hash);
    },
  };
}

export type FidelityService = ReturnType<typeof createFidelityService>;
