import { z } from 'zod';
import { defineJob, type JobDefinition } from '../../platform/jobs/job.js';
import type { SiteVersions } from '../sites/site-versions.js';
import type { ScreenshotsService } from './screenshots.service.js';

const ThumbnailVersionPayload = z.object({ versionId: z.string() });
export type ThumbnailVersionPayload = z.infer<typeof ThumbnailVersionPayload>;

export interface ThumbnailVersionDeps {
  versions: Pick<SiteVersions, 'find' | 'setThumbnail'>;
  screenshots: Pick<ScreenshotsService, 'versionThumbnail'>;
}

/**
 * The thumbnail of a completed version (site cards, dashboard), made after the version is served:
 * a version never waits for its picture, and a version without one shows none.
 */
export function createThumbnailVersionJob(
  deps: ThumbnailVersionDeps,
): JobDefinition<ThumbnailVersionPayload> {
  const { versions, screenshots } = deps;
  return defineJob({
    name: 'thumbnail-version',
    background: true,
    payload: ThumbnailVersionPayload,
    maxAttempts: 2,
    backoffMs: 30_000,
    async handle({ versionId }) {
      const version = await versions.find(versionId);
      // Deleted meanwhile, not finished, or done already (a retried job).
      if (!version || version.status !== 'completed' || version.thumbnail_hash) return;
      if (!version.manifest_hash) return;
      const { hash } = await screenshots.versionThumbnail(versionId, version.manifest_hash);
      await versions.setThumbnail(versionId, hash);
    },
  });
}
