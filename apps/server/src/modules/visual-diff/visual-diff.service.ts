import type { ChangeReport, VisualDiff } from '@mirror/contract';
import { changesLook, type BlobStore } from '@mirror/engine';
import { notFound } from '../../errors.js';
import type { Db } from '../../platform/db/database.js';
import type { UserRow } from '../../platform/db/schema.js';
import type { JobDefinition, JobQueue } from '../../platform/jobs/job.js';
import type { SitesService } from '../sites/sites.service.js';
import type { VisualDiffPayload } from './visual-diff.job.js';
import {
  findVisualDiff,
  isVisualDiffShot,
  queueVisualDiff,
  type VisualDiffRow,
} from './visual-diff.repository.js';
import type { StoredVisualDiffPage } from './visual-diff.task.js';

const SHOT_NOT_FOUND = 'Screenshot not found.';

export interface VisualDiffServiceDeps {
  db: Db;
  blobs: BlobStore;
  jobs: JobQueue;
  diffJob: JobDefinition<VisualDiffPayload>;
  sites: Pick<SitesService, 'ownedSite'>;
}

/** Where the owner's app asks for a screenshot (with its bearer token). */
export function changeShotUrl(siteId: string, versionId: string, hash: string): string {
  return `/api/domains/clone/${siteId}/versions/${versionId}/changes/shots/${hash}.png`;
}

/** The API's answer for a version's row. */
function visualDiffOf(row: VisualDiffRow): VisualDiff {
  const pages = row.pages ? (JSON.parse(row.pages) as StoredVisualDiffPage[]) : [];
  const shot = (hash: string) => changeShotUrl(row.site_id, row.version_id, hash);
  return {
    state: row.state,
    error: row.error ?? null,
    checkedAt: row.checked_at ?? null,
    pages: pages.map((p) => ({
      path: p.path,
      viewport: p.viewport,
      diffPercent: p.diffPercent,
      noisePercent: p.noisePercent,
      unmeasured: p.unmeasured ?? null,
      beforeShot: shot(p.shots.before),
      afterShot: shot(p.shots.after),
      diffShot: shot(p.shots.diff),
    })),
  };
}

/** The visual diffs of change reports (issue 33): how the changed pages look before and after. */
export function createVisualDiffService(deps: VisualDiffServiceDeps) {
  const { db, blobs } = deps;
  return {
    /** After a version whose report changed pages or files is live: its visual diff, queued. */
    async queue(
      siteId: string,
      versionId: string,
      baseVersionId: string,
      report: ChangeReport,
    ): Promise<void> {
      const paths = report.pages.changed.map((page) => page.path);
      // A changed stylesheet, image or font changes how the pages that use it look.
      const files = report.assets.changed
        .filter((file) => changesLook(file.contentType))
        .map((file) => file.path);
      if (paths.length === 0 && files.length === 0) return;
      await queueVisualDiff(db, { versionId, siteId });
      await deps.jobs.enqueue(deps.diffJob, { versionId, baseVersionId, paths, files });
    },

    /** A version's visual diff as the API says it; null when it has none. */
    async visualOf(versionId: string): Promise<VisualDiff | null> {
      const row = await findVisualDiff(db, versionId);
      return row ? visualDiffOf(row) : null;
    },

    /** A screenshot of a version's visual diff, for the site's owner only. */
    async openShot(
      user: UserRow,
      siteId: string,
      versionId: string,
      file: string,
    ): Promise<AsyncIterable<Uint8Array>> {
      const site = await deps.sites.ownedSite(user, siteId);
      const hash = file.replace(/\.png$/, '');
      const row = await findVisualDiff(db, versionId);
      if (
        row?.site_id !== site.id ||
        !(await isVisualDiffShot(db, versionId, hash)) ||
        !(await blobs.has(hash))
      )
        throw notFound(SHOT_NOT_FOUND);
      return blobs.read(hash);
    },
  };
}

export type VisualDiffService = ReturnType<typeof createVisualDiffService>;
