import {
  CLONE_STATUS_TEXTS,
  CUSTOMIZE_STATUS_TEXTS,
  DEMO_MIRROR_LIMITS,
  PLAN_MIRROR_LIMITS,
  type MirrorLimits,
  type PlanId,
} from '@mirror/contract';
import {
  mirror,
  MirrorError,
  type BlobStore,
  type Manifest,
  type ProgressEvent,
} from '@mirror/engine';
import { z } from 'zod';
import type { Config } from '../../config/env.js';
import type { Db } from '../../platform/db/database.js';
import type { SiteStatus } from '../../platform/db/schema.js';
import { defineJob, type JobDefinition } from '../../platform/jobs/job.js';
import {
  completeVersion,
  failFollowUps,
  findFollowUp,
  findSite,
  findVersion,
  updateRunState,
} from './sites.repository.js';
import { loadManifest, saveManifest } from './manifests.js';

/** Tries of one run before it is reported as failed. */
const MAX_ATTEMPTS = 3;

/** What a run says when the blob store's disk filled up (nothing of it is published). */
export const DISK_FULL_MESSAGE =
  'The server ran out of disk space while storing the copy. The previous version is still online; please try again later.';

/** Out of disk space: the engine's storage failure (the run stops at the first refused write) or a write here. */
function isDiskFull(err: unknown): boolean {
  const cause = err instanceof MirrorError && err.code === 'storage' ? err.cause : err;
  const code = cause instanceof Error && 'code' in cause ? String(cause.code) : '';
  return code === 'ENOSPC' || code === 'EDQUOT';
}

const MirrorSitePayload = z.object({ siteId: z.string(), versionId: z.string() });
export type MirrorSitePayload = z.infer<typeof MirrorSitePayload>;

export interface MirrorSiteDeps {
  db: Db;
  blobs: BlobStore;
  config: Config;
  /** Tells the sites host that a site's live version changed. */
  onPublished(siteId: string): void;
  /** A version completed (thumbnails are made from here). */
  onVersionReady?(siteId: string, versionId: string): Promise<void>;
  /**
   * Queues the step that was asked to run on the new version (a customization or an AI rewrite
   * of a fresh mirror); the site stays in progress until that step ends.
   */
  startFollowUp?(siteId: string, versionId: string): Promise<void>;
  /** A run stored a copy (metrics: pages and bytes mirrored). */
  onMirrored?(copy: { pages: number; bytes: number }): void;
}

/** What the run is doing, as the API reports it (SPEC §4 texts). */
function describe(event: ProgressEvent): { status: SiteStatus; text: string } {
  switch (event.phase) {
    case 'rendering':
      return { status: 'processing', text: CLONE_STATUS_TEXTS.processing };
    case 'rewriting':
      return { status: 'completing', text: CLONE_STATUS_TEXTS.finalizing };
    case 'finalizing':
    case 'done':
      return { status: 'completing', text: CLONE_STATUS_TEXTS.generating };
    default:
      return { status: 'processing', text: CLONE_STATUS_TEXTS.cloning };
  }
}

function limitsFor(plan: PlanId | null): MirrorLimits {
  return plan ? PLAN_MIRROR_LIMITS[plan] : DEMO_MIRROR_LIMITS;
}

/**
 * One mirror run: the engine writes blobs and a manifest; the version becomes live in one update
 * when the run succeeds. A failed or killed run leaves what is served untouched; a killed run's job
 * is picked up again and starts the version over (blobs already stored are not downloaded twice).
 */
export function createMirrorSiteJob(deps: MirrorSiteDeps): JobDefinition<MirrorSitePayload> {
  const { db, blobs, config } = deps;
  return defineJob({
    name: 'mirror-site',
    payload: MirrorSitePayload,
    maxAttempts: MAX_ATTEMPTS,
    backoffMs: 5_000,
    async handle({ siteId, versionId }, context) {
      const site = await findSite(db, siteId);
      const version = site ? await findVersion(db, siteId, versionId) : undefined;
      if (!site || !version || version.status === 'completed') return;
      const owner = site.owner_id
        ? await db
            .selectFrom('users')
            .select('plan')
            .where('id', '=', site.owner_id)
            .executeTakeFirst()
        : undefined;
      const limits = limitsFor(owner?.plan ?? null);

      await db
        .updateTable('site_versions')
        .set({ status: 'processing', error: null })
        .where('id', '=', versionId)
        .execute();
      let progress = 0.05;
      await updateRunState(db, siteId, {
        status: 'processing',
        current_status: CLONE_STATUS_TEXTS.starting,
        progress,
        estimated_time: null,
        error: null,
      });

      // Progress writes are throttled and chained, so they never overlap or arrive out of order.
      let writes = Promise.resolve();
      let lastWrite = 0;
      const onProgress = (event: ProgressEvent) => {
        progress = Math.max(progress, Math.min(0.97, 0.05 + 0.92 * event.progress));
        const now = Date.now();
        if (now - lastWrite < 1_000) return;
        lastWrite = now;
        const { status, text } = describe(event);
        const snapshot = {
          status,
          current_status: text,
          progress,
          estimated_time: event.estimatedTime,
        };
        writes = writes
          .then(() => updateRunState(db, siteId, snapshot))
          .catch((err: unknown) => {
            context.log.warn({ err }, 'progress update failed');
          });
      };

      /** Ends the run as failed: the version is marked so, what is served stays as it was. */
      const failRun = async (message: string) => {
        await db
          .updateTable('site_versions')
          .set({ status: 'failed', error: message, finished_at: new Date().toISOString() })
          .where('id', '=', versionId)
          .execute();
        await updateRunState(db, siteId, {
          status: 'failed',
          current_status: CLONE_STATUS_TEXTS.failed,
          progress,
          estimated_time: null,
          error: message,
        });
        await failFollowUps(db, versionId, `The mirror failed: ${message}`);
      };
      // A full disk fails the run at once; trying again soon would not help.
      const failDiskFull = async (err?: unknown) => {
        context.log.error({ err }, 'the blob store is out of disk space; the mirror failed');
        await failRun(DISK_FULL_MESSAGE);
      };

      const previous = site.live_version_id
        ? await loadManifest(db, blobs, site.live_version_id)
        : undefined;
      let manifest: Manifest;
      try {
        manifest = await mirror({
          url: site.source_url,
          store: blobs,
          allowPrivateNetworks: config.mirror.allowPrivateNetworks,
          render: config.mirror.render,
          chromiumPath: config.mirror.chromiumPath,
          maxPages: limits.maxPages,
          maxBytes: limits.maxBytes,
          maxTimeMs: limits.maxTimeMs,
          maxFileBytes: limits.maxFileBytes,
          signal: context.signal,
          onProgress,
          ...(previous ? { previous } : {}),
        });
      } catch (err) {
        await writes;
        if (context.signal.aborted) throw err;
        if (isDiskFull(err)) return failDiskFull(err);
        const permanent = err instanceof MirrorError || context.attempt >= MAX_ATTEMPTS;
        if (!permanent) throw err;
        await failRun(err instanceof Error ? err.message : String(err));
        return;
      }
      await writes;

      let manifestHash: string;
      try {
        manifestHash = await saveManifest(blobs, manifest);
      } catch (err) {
        if (isDiskFull(err)) return failDiskFull(err);
        throw err;
      }
      const finishedAt = new Date().toISOString();
      const followUp = deps.startFollowUp ? await findFollowUp(db, versionId) : undefined;
      await db.transaction().execute(async (trx) => {
        await completeVersion(trx, versionId, { manifestHash, manifest, finishedAt });
        await trx
          .updateTable('sites')
          .set({
            live_version_id: versionId,
            ...(followUp
              ? {
                  status: 'processing',
                  current_status: CUSTOMIZE_STATUS_TEXTS.queued,
                  current_version_id: followUp.id,
                  progress,
                  estimated_time: null,
                }
              : {
                  status: 'completed',
                  current_status: CLONE_STATUS_TEXTS.completed,
                  progress: 1,
                  estimated_time: 0,
                }),
            error: null,
            updated_at: finishedAt,
          })
          .where('id', '=', siteId)
          .execute();
      });
      deps.onPublished(siteId);
      let pages = 0;
      let bytes = 0;
      for (const entry of manifest.entries) {
        if (entry.kind === 'page') pages += 1;
        bytes += entry.size;
      }
      deps.onMirrored?.({ pages, bytes });
      await deps.onVersionReady?.(siteId, versionId);
      if (followUp) await deps.startFollowUp!(siteId, followUp.id);
    },
  });
}
