import {
  changeDigest,
  CLONE_STATUS_TEXTS,
  CUSTOMIZE_STATUS_TEXTS,
  DEMO_MIRROR_LIMITS,
  getPlan,
  PLAN_MIRROR_LIMITS,
  type ChangeReport,
  type MirrorFailureKind,
  type MirrorLimits,
  type PlanId,
  type RunCounts,
  type WatchHit,
  type WatchRule,
} from '@mirror/contract';
import type { MirrorFailure, ProgressEvent } from '@mirror/engine';
import { z } from 'zod';
import type { Config } from '../../config/env.js';
import type { Db } from '../../platform/db/database.js';
import type { SiteStatus } from '../../platform/db/schema.js';
import { defineJob, type JobDefinition } from '../../platform/jobs/job.js';
import {
  SandboxError,
  SandboxTaskError,
  type Sandbox,
  type SandboxUsage,
} from '../../platform/sandbox/sandbox.js';
import type { NetSettings } from '../../platform/sandbox/net-settings.js';
import { mirrorRunTask, type MirrorRunOutput } from './mirror-run.task.js';
import {
  completeVersion,
  failFollowUps,
  findFollowUp,
  findSite,
  dropUnchangedSync,
  findMirrorBase,
  findVersion,
  RUN_COMPLETED,
  RUN_ENDED,
  saveChangeReport,
  updateRunState,
} from './sites.repository.js';
import type { UserPlans } from '../auth/user-plans.js';
import type { StorageService } from '../storage/storage.service.js';
import { publishRefusal } from './plan-limits.js';

/** Tries of one run before it is reported as failed. */
const MAX_ATTEMPTS = 3;

/** What a run says when the blob store's disk filled up (nothing of it is published). */
export const DISK_FULL_MESSAGE =
  'The server ran out of disk space while storing the copy. The previous version is still online; please try again later.';

/** Every failure the sandbox reports (a limit, a crash) starts with this. */
export const RUN_FAILED_PREFIX = 'This site could not be copied: ';

/**
 * Time a run gets past its plan's limit before it is killed: the engine stops fetching at the
 * limit by itself, then still rewrites and stores what it copied.
 */
export function runGraceMs(limits: MirrorLimits): number {
  return Math.max(30_000, Math.round(limits.maxTimeMs * 0.1));
}

function minutes(ms: number): string {
  const n = Math.round(ms / 60_000);
  return n === 1 ? '1 minute' : `${n} minutes`;
}

const SANDBOX_FAILURE_KINDS: Record<SandboxError['reason'], MirrorFailureKind> = {
  timeout: 'time-limit',
  memory: 'memory-limit',
  crashed: 'crashed',
  aborted: 'crashed',
};

/** A run the sandbox ended, as a category with its technical detail. */
function sandboxFailure(error: SandboxError): MirrorFailure {
  return { kind: SANDBOX_FAILURE_KINDS[error.reason], detail: error.message };
}

/** A plain sentence for a run the sandbox ended (none of them says anything about the server). */
export function sandboxFailureMessage(error: SandboxError, limits: MirrorLimits): string {
  switch (error.reason) {
    case 'timeout':
      return `${RUN_FAILED_PREFIX}it was still running after the ${minutes(limits.maxTimeMs)} a copy may take.`;
    case 'memory':
      return `${RUN_FAILED_PREFIX}it needed more memory than a copy may use. A site this large or complex may need a smaller page limit.`;
    default:
      return `${RUN_FAILED_PREFIX}the copying process stopped unexpectedly. Please try again later.`;
  }
}

/** Out of disk space: the engine's storage failure (the run stops at the first refused write). */
function isDiskFull(err: unknown): boolean {
  if (!(err instanceof SandboxTaskError)) return false;
  const code = err.code === 'storage' ? err.causeCode : err.code;
  return code === 'ENOSPC' || code === 'EDQUOT';
}

const MirrorSitePayload = z.object({
  siteId: z.string(),
  versionId: z.string(),
  /** Started by the site's sync schedule: a sync that finds nothing changed makes no version. */
  scheduled: z.boolean().optional(),
  /**
   * Make the copy from an uploaded web archive (issue 35): its blob, held for this version until
   * the run ends, and its file name. Only a site's first run; a later sync copies the live site.
   */
  archive: z.object({ hash: z.string(), name: z.string() }).optional(),
});
export type MirrorSitePayload = z.infer<typeof MirrorSitePayload>;

export interface MirrorSiteDeps {
  db: Db;
  config: Config;
  /** The site owner's plan sets the run's limits. */
  plans: UserPlans;
  sandbox: Sandbox;
  /** TEST-ONLY: the address policy's exempt addresses and names (default: the configuration's). */
  net?: Omit<NetSettings, 'allowPrivateNetworks'>;
  /**
   * Lists a finished copy's blobs and checks the owner's storage before it is published; holds the
   * live version's files the run may keep without writing them again.
   */
  storage: Pick<StorageService, 'admitVersion' | 'holdVersion' | 'release'>;
  /** Deletes the site's versions beyond what its owner's plan keeps (after a new one is live). */
  pruneVersions?(siteId: string): Promise<unknown>;
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
  /** The site's watches: evaluated with the change report, told when a published version meets them. */
  watches?: {
    rulesOf(siteId: string): Promise<WatchRule[]>;
    notify(siteId: string, versionId: string, summary: string, hits: WatchHit[]): Promise<void>;
  };
  /** A version with a change report is live (its visual diff is queued from here). */
  onChangeReport?(
    siteId: string,
    versionId: string,
    baseVersionId: string,
    report: ChangeReport,
  ): Promise<void>;
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
 * The most an uploaded archive may hold: in bytes, its payloads decoded, what the plan lets one
 * upload or one copy be, whichever is larger (a WARC's gzip members hold more than their file's
 * bytes); in records, four a file the plan's copy may have (a response, its request, a revisit,
 * metadata), so that a million tiny records cannot fill the reader's index.
 */
export function archiveReadLimits(plan: PlanId | null): { maxBytes: number; maxRecords: number } {
  const limits = limitsFor(plan);
  return {
    maxBytes: Math.max(getPlan(plan ?? 'free').limits.archiveUploadBytes, limits.maxBytes),
    maxRecords: Math.max(10_000, limits.maxFiles * 4),
  };
}

/**
 * One mirror run: the engine writes blobs and a manifest, in a sandboxed process; the version
 * becomes live in one update when the run succeeds. A failed or killed run leaves what is served
 * untouched; a killed run's job is picked up again and starts the version over (blobs already
 * stored are not downloaded twice), at most MAX_ATTEMPTS times in all.
 */
export function createMirrorSiteJob(deps: MirrorSiteDeps): JobDefinition<MirrorSitePayload> {
  const { db, config, sandbox } = deps;
  const net: NetSettings = {
    allowPrivateNetworks: config.mirror.allowPrivateNetworks,
    ...deps.net,
  };

  /**
   * Ends the run as failed: the version is marked so, what is served stays as it was. `message` is
   * the English sentence; `failure` the category and detail the app shows a person (issue 20).
   */
  async function failRun(
    siteId: string,
    versionId: string,
    message: string,
    progress: number,
    failure: MirrorFailure,
  ) {
    const why = { error_kind: failure.kind, error_detail: failure.detail };
    await db
      .updateTable('site_versions')
      .set({ status: 'failed', error: message, ...why, finished_at: new Date().toISOString() })
      .where('id', '=', versionId)
      .execute();
    await updateRunState(db, siteId, {
      status: 'failed',
      current_status: CLONE_STATUS_TEXTS.failed,
      progress,
      estimated_time: null,
      error: message,
      ...why,
      run_counts: null,
      current_url: null,
    });
    await failFollowUps(db, versionId, `The mirror failed: ${message}`);
    await deps.storage.release(versionId);
  }

  return defineJob({
    name: 'mirror-site',
    payload: MirrorSitePayload,
    maxAttempts: MAX_ATTEMPTS,
    backoffMs: 5_000,
    async onAbandoned({ siteId, versionId }) {
      const version = await findVersion(db, siteId, versionId);
      if (!version || version.status === 'completed' || version.status === 'failed') return;
      const site = await findSite(db, siteId);
      await failRun(
        siteId,
        versionId,
        `${RUN_FAILED_PREFIX}the copying process stopped unexpectedly, ${MAX_ATTEMPTS} times. Please try again later.`,
        site?.progress ?? 0,
        { kind: 'crashed', detail: `The job was abandoned after ${MAX_ATTEMPTS} attempts.` },
      );
    },
    async handle({ siteId, versionId, scheduled, archive }, context) {
      const site = await findSite(db, siteId);
      const version = site ? await findVersion(db, siteId, versionId) : undefined;
      if (!site || !version || version.status === 'completed') return;
      const plan = await deps.plans.planOf(site.owner_id);
      const limits = limitsFor(plan);

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
      const onProgress = (value: unknown) => {
        const event = value as ProgressEvent;
        progress = Math.max(progress, Math.min(0.97, 0.05 + 0.92 * event.progress));
        const now = Date.now();
        if (now - lastWrite < 1_000) return;
        lastWrite = now;
        const { status, text } = describe(event);
        const counts: RunCounts = { pages: event.pages, files: event.files };
        const snapshot = {
          status,
          current_status: text,
          progress,
          estimated_time: event.estimatedTime,
          run_counts: JSON.stringify(counts),
          current_url: event.currentPage ?? null,
        };
        writes = writes
          .then(() => updateRunState(db, siteId, snapshot))
          .catch((err: unknown) => {
            context.log.warn({ err }, 'progress update failed');
          });
      };

      const live = site.live_version_id
        ? await findVersion(db, siteId, site.live_version_id)
        : undefined;
      // Unchanged files of the live version are revalidated and kept without being written again:
      // they are held from now until this version lists its own blobs (or fails).
      const previousManifestHash =
        live?.manifest_hash && (await deps.storage.holdVersion(versionId, live.id))
          ? live.manifest_hash
          : undefined;
      // The change report compares the new copy with the mirror the live version was made from
      // (none when that mirror cannot be found: then the version has no report).
      const mirrorBase = previousManifestHash ? await findMirrorBase(db, live!.id) : undefined;
      const changesBase = mirrorBase?.manifestHash
        ? { id: mirrorBase.id, manifestHash: mirrorBase.manifestHash }
        : undefined;
      const watches = changesBase && deps.watches ? await deps.watches.rulesOf(siteId) : [];
      const fail = (message: string, failure: MirrorFailure) =>
        failRun(siteId, versionId, message, progress, failure);
      const ended = (outcome: string, usage: SandboxUsage, reason?: string) =>
        context.log.info(
          { siteId, versionId, outcome, ...usage, ...(reason ? { reason } : {}) },
          'mirror run ended',
        );
      let output: MirrorRunOutput;
      try {
        const result = await sandbox.run(
          mirrorRunTask,
          {
            url: site.source_url,
            limits,
            render: config.mirror.render,
            chromiumPath: config.mirror.chromiumPath,
            renderMemoryMb: config.mirror.runMemoryMb,
            net,
            ...(previousManifestHash ? { previousManifestHash } : {}),
            ...(changesBase ? { changesBaseManifestHash: changesBase.manifestHash } : {}),
            ...(watches.length > 0 ? { watches } : {}),
            ...(archive ? { archive: { ...archive, ...archiveReadLimits(plan) } } : {}),
          },
          {
            timeoutMs: limits.maxTimeMs + runGraceMs(limits),
            signal: context.signal,
            onProgress,
            log: context.log,
          },
        );
        output = result.output;
        if ('failure' in output) ended('failed', result.usage, output.failure.message);
        else ended('completed', result.usage);
      } catch (err) {
        await writes;
        const usage = (err as { usage?: SandboxUsage }).usage ?? { peakBytes: 0, durationMs: 0 };
        if (context.signal.aborted) {
          ended('requeued', usage);
          throw err;
        }
        ended('failed', usage, err instanceof Error ? err.message : String(err));
        if (isDiskFull(err)) {
          context.log.error({ err }, 'the blob store is out of disk space; the mirror failed');
          return fail(DISK_FULL_MESSAGE, { kind: 'server-storage', detail: String(err) });
        }
        // The engine's own errors (its store failed) and the sandbox's limits are final; a crash
        // may be bad luck and is tried again.
        if (err instanceof SandboxTaskError && err.taskErrorName === 'MirrorError') {
          const kind = err.code === 'storage' ? 'server-storage' : 'unknown';
          return fail(err.message, { kind, detail: err.message });
        }
        if (err instanceof SandboxError && err.reason !== 'crashed')
          return fail(sandboxFailureMessage(err, limits), sandboxFailure(err));
        if (context.attempt >= MAX_ATTEMPTS) {
          if (err instanceof SandboxError)
            return fail(sandboxFailureMessage(err, limits), sandboxFailure(err));
          // The error's own text (a library's, OpenSSL's…) is detail, never the sentence.
          const detail = err instanceof Error ? err.message : String(err);
          return fail(
            `${RUN_FAILED_PREFIX}something went wrong while copying it. Please try again later.`,
            { kind: 'unknown', detail },
          );
        }
        throw err;
      }
      await writes;
      // The engine's own verdicts (nothing could be fetched, a refused address) are final.
      if ('failure' in output) {
        const { message, ...failure } = output.failure;
        return fail(message, failure);
      }
      const changes = changesBase ? output.changes : undefined;
      // A scheduled sync of a site that did not change makes no version (issue 33).
      if (scheduled && live && changes?.unchanged) {
        await dropUnchangedSync(db, {
          siteId,
          versionId,
          liveVersionId: live.id,
          checkedAt: new Date().toISOString(),
        });
        await deps.storage.release(versionId);
        return;
      }
      const refused = await deps.storage.admitVersion(
        site.owner_id && plan ? { id: site.owner_id, plan } : null,
        versionId,
        output.manifestHash,
      );
      if (refused) return fail(refused, { kind: 'storage-quota', detail: refused });

      const finishedAt = new Date().toISOString();
      const followUp = deps.startFollowUp ? await findFollowUp(db, versionId) : undefined;
      // The publish gate, where the live version switches: a plan that dropped during the run
      // (the site is read-only now) leaves the site as it was.
      const readOnly = await db.transaction().execute(async (trx) => {
        const refusal = await publishRefusal(trx, siteId);
        if (refusal) return refusal;
        await completeVersion(
          trx,
          versionId,
          {
            manifestHash: output.manifestHash,
            stats: output.stats,
            failed: output.failed,
            finishedAt,
            title: output.title,
          },
          {
            ...(changes ? { change_digest: JSON.stringify(changeDigest(changes)) } : {}),
            ...(output.importedFrom ? { imported_from: JSON.stringify(output.importedFrom) } : {}),
          },
        );
        if (changes && changesBase)
          await saveChangeReport(trx, {
            versionId,
            siteId,
            baseVersionId: changesBase.id,
            changes,
          });
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
              : RUN_COMPLETED),
            ...RUN_ENDED,
            updated_at: finishedAt,
          })
          .where('id', '=', siteId)
          .execute();
        return null;
      });
      if (readOnly) return fail(readOnly, { kind: 'plan-limit', detail: readOnly });
      await deps.storage.release(versionId);
      deps.onPublished(siteId);
      await deps.pruneVersions?.(siteId);
      deps.onMirrored?.({ pages: output.pages, bytes: output.bytes });
      // The version is live: a notification that fails is logged, the copy stays.
      if (changes && output.watchHits?.length)
        await deps.watches
          ?.notify(siteId, versionId, changes.summary, output.watchHits)
          .catch((err: unknown) =>
            context.log.warn({ err, siteId, versionId }, 'watch notifications failed'),
          );
      if (changes && changesBase)
        await deps.onChangeReport?.(siteId, versionId, changesBase.id, changes);
      await deps.onVersionReady?.(siteId, versionId);
      if (followUp) await deps.startFollowUp!(siteId, followUp.id);
    },
  });
}
