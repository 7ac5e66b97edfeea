import { randomUUID } from 'node:crypto';
import { FIDELITY_MAX_PAGES, type PlanId } from '@mirror/contract';
import { z } from 'zod';
import type { Config } from '../../config/env.js';
import type { Db } from '../../platform/db/database.js';
import { defineJob, type JobDefinition } from '../../platform/jobs/job.js';
import type { NetSettings } from '../../platform/sandbox/net-settings.js';
import { SandboxError, type Sandbox } from '../../platform/sandbox/sandbox.js';
import { completeVersion, findSite, nextVersionNumber } from '../sites/sites.repository.js';
import type { StorageService } from '../storage/storage.service.js';
import {
  fidelityCheckTask,
  type FidelityCheckOutput,
  type StoredFidelityReport,
} from './fidelity-check.task.js';
import { mergeReports, withoutRepairs } from './fidelity-report.js';
import { findReport, saveReport, setState } from './fidelity.repository.js';

const FidelityCheckPayload = z.object({ versionId: z.string() });
export type FidelityCheckPayload = z.infer<typeof FidelityCheckPayload>;

/** Time a check gets: the renders of its pages at two widths, a second render where they differ. */
export function checkTimeoutMs(pages: number): number {
  return 90_000 + pages * 20_000;
}

export interface FidelityCheckDeps {
  db: Db;
  config: Config;
  sandbox: Sandbox;
  /** TEST-ONLY: the address policy's exempt addresses and names (default: the configuration's). */
  net?: Omit<NetSettings, 'allowPrivateNetworks'>;
  storage: Pick<StorageService, 'admitVersion'>;
  /** Tells the sites host that a site's live version changed (a repair was published). */
  onPublished(siteId: string): void;
  /** A repaired version is live (its thumbnail is made from here; it is not checked again). */
  onRepaired?(siteId: string, versionId: string): Promise<void>;
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
  const { db, config, sandbox } = deps;
  const net: NetSettings = {
    allowPrivateNetworks: config.mirror.allowPrivateNetworks,
    ...deps.net,
  };

  /** Publishes a repaired copy as a new live version; null when it cannot or need not be. */
  async function publishRepair(
    siteId: string,
    checkedId: string,
    repaired: NonNullable<FidelityCheckOutput['repaired']>,
    owner: { id: string; plan: PlanId } | null,
    paths: string[],
  ): Promise<string | null> {
    const versionId = randomUUID();
    const now = new Date().toISOString();
    const created = await db.transaction().execute(async (trx) => {
      const site = await findSite(trx, siteId);
      if (site?.live_version_id !== checkedId) return false;
      await trx
        .insertInto('site_versions')
        .values({
          id: versionId,
          site_id: siteId,
          number: await nextVersionNumber(trx, siteId),
          status: 'processing',
          manifest_hash: null,
          error: null,
          created_at: now,
          finished_at: null,
          kind: 'mirror',
          base_version_id: checkedId,
        })
        .execute();
      return true;
    });
    if (!created) return null;
    const refused = await deps.storage.admitVersion(owner, versionId, repaired.manifestHash);
    const published =
      !refused &&
      (await db.transaction().execute(async (trx) => {
        const site = await findSite(trx, siteId);
        if (site?.live_version_id !== checkedId) return false;
        await completeVersion(
          trx,
          versionId,
          {
            manifestHash: repaired.manifestHash,
            stats: repaired.stats,
            failed: repaired.failed,
            finishedAt: new Date().toISOString(),
            title: repaired.title,
          },
          {
            changes: JSON.stringify([
              `Captured again after the fidelity check: ${paths.join(', ')}`,
            ]),
          },
        );
        await trx
          .updateTable('sites')
          .set({ live_version_id: versionId, updated_at: new Date().toISOString() })
          .where('id', '=', siteId)
          .execute();
        return true;
      }));
    if (!published) {
      await db.deleteFrom('site_versions').where('id', '=', versionId).execute();
      return null;
    }
    deps.onPublished(siteId);
    return versionId;
  }

  return defineJob({
    name: 'fidelity-check',
    payload: FidelityCheckPayload,
    maxAttempts: 2,
    backoffMs: 30_000,
    async onAbandoned({ versionId }) {
      await setState(db, versionId, 'failed', 'The check stopped unexpectedly.');
    },
    async handle({ versionId }, context) {
      const row = await findReport(db, versionId);
      if (!row || row.state === 'completed' || row.state === 'failed') return;
      const version = await db
        .selectFrom('site_versions')
        .select(['site_id', 'status', 'manifest_hash'])
        .where('id', '=', versionId)
        .executeTakeFirst();
      if (!version?.manifest_hash || version.status !== 'completed') {
        return setState(db, versionId, 'failed', 'The version is not available any more.');
      }
      const site = await findSite(db, version.site_id);
      if (!site) return;
      const plan = site.owner_id
        ? ((
            await db
              .selectFrom('users')
              .select('plan')
              .where('id', '=', site.owner_id)
              .executeTakeFirst()
          )?.plan ?? null)
        : null;
      const owner = site.owner_id && plan ? { id: site.owner_id, plan } : null;
      const paths = row.paths ? (JSON.parse(row.paths) as string[]) : undefined;
      const maxPages = Math.min(
        FIDELITY_MAX_PAGES[plan ?? 'demo'],
        config.mirror.fidelityMaxPages ?? Infinity,
      );
      await setState(db, versionId, 'running');

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
          },
          {
            timeoutMs: checkTimeoutMs(paths?.length ?? maxPages),
            signal: context.signal,
            log: context.log,
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
        return setState(db, versionId, 'failed', reason);
      }

      const previous = row.report ? (JSON.parse(row.report) as StoredFidelityReport) : null;
      const merge = (report: StoredFidelityReport) =>
        paths ? mergeReports(previous, report) : report;
      const repairedPaths = [
        ...new Set(output.report.pages.filter((p) => p.repaired).map((p) => p.path)),
      ];
      const repairedId = output.repaired
        ? await publishRepair(site.id, versionId, output.repaired, owner, repairedPaths)
        : null;
      await saveReport(db, {
        versionId,
        siteId: site.id,
        report: merge(withoutRepairs(output.report)),
        repairedVersionId: repairedId,
      });
      if (repairedId) {
        await saveReport(db, {
          versionId: repairedId,
          siteId: site.id,
          report: merge(output.report),
          repairedVersionId: null,
        });
        await deps.onRepaired?.(site.id, repairedId);
      }
    },
  });
}
