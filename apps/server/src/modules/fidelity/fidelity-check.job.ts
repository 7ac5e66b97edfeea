import { FIDELITY_MAX_PAGES, type PlanId } from '@mirror/contract';
import type { FastifyBaseLogger } from 'fastify';
import { z } from 'zod';
import type { Config } from '../../config/env.js';
import type { Db } from '../../platform/db/database.js';
import { defineJob, type JobDefinition } from '../../platform/jobs/job.js';
import type { NetSettings } from '../../platform/sandbox/net-settings.js';
import { SandboxError, type Sandbox } from '../../platform/sandbox/sandbox.js';
import type { UserPlans } from '../auth/user-plans.js';
import type { SiteVersions } from '../sites/site-versions.js';
import type { StorageService } from '../storage/storage.service.js';
import {
  fidelityCheckTask,
  type FidelityCheckOutput,
  type StoredFidelityReport,
} from './fidelity-check.task.js';
import { mergeReports, withoutRepairs } from './fidelity-report.js';
import { findReport, saveReport, setProgress, setState } from './fidelity.repository.js';

const FidelityCheckPayload = z.object({ versionId: z.string() });
export type FidelityCheckPayload = z.infer<typeof FidelityCheckPayload>;

/** Who holds a checked version's blobs while its check runs. */
const holderOf = (versionId: string) => `fidelity:${versionId}`;

/** The task's progress event (`{ done, total, path }` from the engine), or null. */
function readProgress(event: unknown): { done: number; total: number } | null {
  if (typeof event !== 'object' || event === null) return null;
  const { done, total } = event as { done?: unknown; total?: unknown };
  return Number.isInteger(done) && Number.isInteger(total)
    ? { done: done as number, total: total as number }
    : null;
}

/**
 * Pages a check renders at most (a change report's visual diff too): the plan's, lowered by
 * FIDELITY_MAX_PAGES on a small machine.
 */
export function fidelityPageCap(plan: PlanId | null, config: Config): number {
  return Math.min(FIDELITY_MAX_PAGES[plan ?? 'demo'], config.mirror.fidelityMaxPages ?? Infinity);
}

/** Time a check gets: the renders of its pages at two widths, a second render where they differ. */
export function checkTimeoutMs(pages: number): number {
  return 90_000 + pages * 20_000;
}

export interface FidelityCheckDeps {
  db: Db;
  config: Config;
  sandbox: Sandbox;
  versions: Pick<SiteVersions, 'find' | 'publishRepair'>;
  /** The site owner's plan sets how many pages a check takes. */
  plans: UserPlans;
  /** TEST-ONLY: the address policy's exempt addresses and names (default: the configuration's). */
  net?: Omit<NetSettings, 'allowPrivateNetworks'>;
  storage: Pick<StorageService, 'admitVersion' | 'holdVersion' | 'release'>;
  /** Tells the sites host that a site's live version changed (a repair was published). */
  onPublished(siteId: string): void;
  /** A repaired version is live (its thumbnail is made from here; it is not checked again). */
  onRepaired?(siteId: string, versionId: string): Promise<void>;
  /**
   * Version thumbnails (when they are made): a check takes the thumbnail of a version that has
   * none in its own Chromium, and queues the thumbnail job when it could not.
   */
  thumbnails?: {
    save(versionId: string, image: Buffer): Promise<void>;
    /** The thumbnail job (which does nothing for a version that has its thumbnail by then). */
    queue(versionId: string): Promise<void>;
  };
}

/**
 * A version's fidelity check (issue 21), after it is live: in a sandboxed process, like a mirror
 * run. Pages below the threshold are captured again; when that made them faithful, the repaired
 * copy is published as a new version (if the checked one is still live), whose report keeps both
 * measurements. A failed check changes nothing that is served.
 */
export function createFidelityCheckJob(
  deps: FidelityCheckDeps,
): JobDefinition<FidelityCheckPayload> {
  const { db, config, sandbox, versions } = deps;
  /** The check's thumbnail, stored; else the thumbnail job's turn. */
  async function saveThumbnail(
    versionId: string,
    image: Uint8Array | undefined,
    log: FastifyBaseLogger,
  ): Promise<void> {
    const thumbnails = deps.thumbnails!;
    if (image) {
      try {
        return await thumbnails.save(
          versionId,
          Buffer.from(image.buffer, image.byteOffset, image.byteLength),
        );
      } catch (err) {
        log.warn({ err, versionId }, "the check's thumbnail was not stored");
      }
    }
    await thumbnails.queue(versionId);
  }
  const net: NetSettings = {
    allowPrivateNetworks: config.mirror.allowPrivateNetworks,
    ...deps.net,
  };

  return defineJob({
    name: 'fidelity-check',
    background: true,
    payload: FidelityCheckPayload,
    maxAttempts: 2,
    backoffMs: 30_000,
    async onAbandoned({ versionId }) {
      await setState(db, versionId, 'failed', 'The check stopped unexpectedly.');
      await deps.storage.release(holderOf(versionId));
      await deps.thumbnails?.queue(versionId);
    },
    async handle({ versionId }, context) {
      const row = await findReport(db, versionId);
      if (!row || row.state === 'completed' || row.state === 'failed') return;
      const version = await versions.find(versionId);
      if (!version?.manifest_hash || version.status !== 'completed') {
        return setState(db, versionId, 'failed', 'The version is not available any more.');
      }
      const plan = await deps.plans.planOf(version.owner_id);
      const owner = version.owner_id && plan ? { id: version.owner_id, plan } : null;
      const paths = row.paths ? (JSON.parse(row.paths) as string[]) : undefined;
      const maxPages = fidelityPageCap(plan, config);
      const thumbnail = deps.thumbnails !== undefined && !version.thumbnail_hash;
      await setState(db, versionId, 'running');
      // A repair reuses the checked version's files: they are held (and the version kept) until
      // the check's result is stored, whatever happens to the version meanwhile.
      const holder = holderOf(versionId);
      if (!(await deps.storage.holdVersion(holder, versionId))) {
        await deps.storage.release(holder);
        return setState(db, versionId, 'failed', 'The version is not available any more.');
      }

      // Renders compared so far, said on the site page and the demo's panel (issue 31, item 10).
      let progressWrites = Promise.resolve();
      const reportProgress = (event: unknown) => {
        const progress = readProgress(event);
        if (!progress) return;
        progressWrites = progressWrites
          .then(() => setProgress(db, versionId, progress))
          .catch((err: unknown) => context.log.warn({ err, versionId }, 'fidelity progress lost'));
      };

      let output: FidelityCheckOutput;
      try {
        const result = await sandbox.run(
          fidelityCheckTask,
          {
            manifestHash: version.manifest_hash,
            chromiumPath: config.mirror.chromiumPath,
            net,
            maxPages,
            ...(paths ? { paths } : {}),
            repair: true,
            thumbnail,
          },
          {
            timeoutMs: checkTimeoutMs(paths?.length ?? maxPages),
            signal: context.signal,
            log: context.log,
            onProgress: (event) => reportProgress(event),
          },
        );
        output = result.output;
        context.log.info(
          { versionId, score: output.report.score, ...result.usage },
          'fidelity check ended',
        );
      } catch (err) {
        if (context.signal.aborted) throw err;
        context.log.warn({ err, versionId }, 'fidelity check failed');
        // A crash may be bad luck and is tried again; limits and the task's own errors are final.
        if (err instanceof SandboxError && err.reason === 'crashed' && context.attempt < 2)
          throw err;
        const reason =
          err instanceof SandboxError && err.reason === 'timeout'
            ? 'The check took too long.'
            : 'The check could not be completed.';
        await deps.storage.release(holder);
        await setState(db, versionId, 'failed', reason);
        if (thumbnail) await deps.thumbnails!.queue(versionId);
        return;
      }
      if (thumbnail) await saveThumbnail(versionId, output.thumbnail, context.log);

      const previous = row.report ? (JSON.parse(row.report) as StoredFidelityReport) : null;
      const merge = (report: StoredFidelityReport) =>
        paths ? mergeReports(previous, report) : report;
      const repairedPaths = [
        ...new Set(output.report.pages.filter((p) => p.repaired).map((p) => p.path)),
      ];
      const repaired = output.repaired;
      const repairedId = repaired
        ? await versions.publishRepair(
            version.site_id,
            versionId,
            repaired,
            [`Captured again after the fidelity check: ${repairedPaths.join(', ')}`],
            (id) => deps.storage.admitVersion(owner, id, repaired.manifestHash),
          )
        : null;
      if (repairedId) deps.onPublished(version.site_id);
      await saveReport(db, {
        versionId,
        siteId: version.site_id,
        report: merge(withoutRepairs(output.report)),
        repairedVersionId: repairedId,
        shotSizes: output.shotSizes,
      });
      if (repairedId) {
        await saveReport(db, {
          versionId: repairedId,
          siteId: version.site_id,
          report: merge(output.report),
          repairedVersionId: null,
          shotSizes: output.shotSizes,
        });
      }
      // The repair (if published) lists its blobs, the reports their screenshots.
      await deps.storage.release(holder);
      if (repairedId) await deps.onRepaired?.(version.site_id, repairedId);
    },
  });
}
