import { z } from 'zod';
import type { Db } from '../../platform/db/database.js';
import { defineJob, type JobDefinition } from '../../platform/jobs/job.js';
import { setVersionThumbnail } from '../sites/sites.repository.js';
import type { ScreenshotsService } from './screenshots.service.js';

const ThumbnailVersionPayload = z.object({ versionId: z.string() });
export type ThumbnailVersionPayload = z.infer<typeof ThumbnailVersionPayload>;

export interface ThumbnailVersionDeps {
  db: Db;
  screenshots: Pick<ScreenshotsService, 'versionThumbnail'>;
}

/**
 * The thumbnail of a completed version (site cards, dashboard), made after the version is served:
 * a version never waits for its picture, and a version without one shows none.
 */
export function createThumbnailVersionJob(
  deps: ThumbnailVersionDeps,
): JobDefinition<ThumbnailVersionPayload> {
  const { db, screenshots } = deps;
  return defineJob({
    name: 'thumbnail-version',
    payload: ThumbnailVersionPayload,
    maxAttempts: 2,
    backoffMs: 30_000,
    async handle({ versionId }) {
      const version = await db
        .selectFrom('site_versions')
        .select(['status', 'thumbnail_hash', 'manifest_hash'])
        .where('id', '=', versionId)
        .executeTakeFirst();
      // Deleted meanwhile, not finished, or done already (a retried job).
      if (!version || version.status !== 'completed' || version.thumbnail_hash) return;
      if (!version.manifest_hash) return;
      const { hash } = await screenshots.versionThumbnail(versionId, version.manifest_hash);
      await setVersionThumbnail(db, versionId, hash);
    },
  });
}
