import { z } from 'zod';
import type { Config } from '../../config/env.js';
import type { Db } from '../../platform/db/database.js';
import { defineJob, type JobDefinition } from '../../platform/jobs/job.js';
import { SandboxError, type Sandbox } from '../../platform/sandbox/sandbox.js';
import type { UserPlans } from '../auth/user-plans.js';
import { checkTimeoutMs, fidelityPageCap } from '../fidelity/fidelity-check.job.js';
import type { SiteVersions } from '../sites/site-versions.js';
import type { StorageService } from '../storage/storage.service.js';
import { findVisualDiff, saveVisualDiff, setVisualDiffState } from './visual-diff.repository.js';
import { visualDiffTask } from './visual-diff.task.js';

const VisualDiffPayload = z.object({
  /** The new version, whose change report it is. */
  versionId: z.string(),
  /** The version the report compared it with. */
  baseVersionId: z.string(),
  /** The report's changed pages, in its order. */
  paths: z.array(z.string()),
  /** The report's changed stylesheets, images and fonts: the pages that use them come next. */
  files: z.array(z.string()).default([]),
});
export type VisualDiffPayload = z.infer<typeof VisualDiffPayload>;

/** Who holds both versions' blobs while the visual diff runs. */
const holderOf = (versionId: string) => `visual-diff:${versionId}`;

const GONE = 'The versions compared are not available any more.';

export interface VisualDiffDeps {
  db: Db;
  config: Config;
  sandbox: Sandbox;
  versions: Pick<SiteVersions, 'find'>;
  /** The site owner's plan sets how many pages are rendered (as many as a fidelity check). */
  plans: UserPlans;
  storage: Pick<StorageService, 'holdVersion' | 'release'>;
}

/**
 * The visual diff of a new version's change report (issue 33), after the version is live: its
 * changed pages rendered on both versions in a sandboxed process, like a fidelity check. A failed
 * diff leaves the report as it is, with the reason.
 */
export function createVisualDiffJob(deps: VisualDiffDeps): JobDefinition<VisualDiffPayload> {
  const { db, config, sandbox, versions } = deps;
  return defineJob({
    name: 'visual-diff',
    background: true,
    payload: VisualDiffPayload,
    maxAttempts: 2,
    backoffMs: 30_000,
    async onAbandoned({ versionId }) {
      await setVisualDiffState(db, versionId, 'failed', 'The comparison stopped unexpectedly.');
      await deps.storage.release(holderOf(versionId));
    },
    async handle({ versionId, baseVersionId, paths, files }, context) {
      const row = await findVisualDiff(db, versionId);
      if (!row || row.state === 'completed' || row.state === 'failed') return;
      const [after, before] = [await versions.find(versionId), await versions.find(baseVersionId)];
      if (!after?.manifest_hash || !before?.manifest_hash)
        return setVisualDiffState(db, versionId, 'failed', GONE);
      const plan = await deps.plans.planOf(after.owner_id);
      const maxPages = fidelityPageCap(plan, config);
      await setVisualDiffState(db, versionId, 'running');
      // Both versions' files are held until the result is stored, whatever happens to them.
      const holder = holderOf(versionId);
      const held =
        (await deps.storage.holdVersion(holder, versionId)) &&
        (await deps.storage.holdVersion(holder, baseVersionId));
      if (!held) {
        await deps.storage.release(holder);
        return setVisualDiffState(db, versionId, 'failed', GONE);
      }
      try {
        const result = await sandbox.run(
          visualDiffTask,
          {
            beforeManifestHash: before.manifest_hash,
            afterManifestHash: after.manifest_hash,
            paths,
            files,
            maxPages,
            chromiumPath: config.mirror.chromiumPath,
          },
          { timeoutMs: checkTimeoutMs(maxPages), signal: context.signal, log: context.log },
        );
        const { output } = result;
        context.log.info(
          { versionId, pages: output.pages.length, ...result.usage },
          'visual diff ended',
        );
        await saveVisualDiff(db, { versionId, ...output });
      } catch (err) {
        if (context.signal.aborted) throw err;
        context.log.warn({ err, versionId }, 'visual diff failed');
        // A crash may be bad luck and is tried again; limits and the task's own errors are final.
        if (err instanceof SandboxError && err.reason === 'crashed' && context.attempt < 2)
          throw err;
        await setVisualDiffState(
          db,
          versionId,
          'failed',
          err instanceof SandboxError && err.reason === 'timeout'
            ? 'The comparison took too long.'
            : 'The comparison could not be completed.',
        );
      } finally {
        await deps.storage.release(holder);
      }
    },
  });
}
