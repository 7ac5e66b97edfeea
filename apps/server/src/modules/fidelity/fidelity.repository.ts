import type { FidelitySummary } from '@mirror/contract';
import type { Db } from '../../platform/db/database.js';
import type { FidelityState } from '../../platform/db/schema.js';
import type { StoredFidelityReport } from './fidelity-check.task.js';

export function findReport(db: Db, versionId: string) {
  return db
    .selectFrom('fidelity_reports')
    .selectAll()
    .where('version_id', '=', versionId)
    .executeTakeFirst();
}

export type FidelityRow = NonNullable<Awaited<ReturnType<typeof findReport>>>;

/**
 * Asks for a check of a version: a new row, or the old one queued again (its last report stays
 * readable meanwhile). `paths`: only these pages, re-captured.
 */
export async function queueCheck(
  db: Db,
  check: { versionId: string; siteId: string; paths: string[] | null },
): Promise<void> {
  const now = new Date().toISOString();
  const paths = check.paths ? JSON.stringify(check.paths) : null;
  await db
    .insertInto('fidelity_reports')
    .values({
      version_id: check.versionId,
      site_id: check.siteId,
      state: 'queued',
      score: null,
      paths,
      requested_at: now,
      checked_at: null,
    })
    .onConflict((oc) =>
      oc.column('version_id').doUpdateSet({
        state: 'queued',
        paths,
        error: null,
        requested_at: now,
        progress_done: null,
        progress_total: null,
      }),
    )
    .execute();
}

export async function setState(
  db: Db,
  versionId: string,
  state: FidelityState,
  error: string | null = null,
): Promise<void> {
  await db
    .updateTable('fidelity_reports')
    .set({ state, error, ...(state === 'failed' ? { paths: null } : {}) })
    .where('version_id', '=', versionId)
    .execute();
}

/** How far a running check got: page renders compared, of those planned. */
export async function setProgress(
  db: Db,
  versionId: string,
  progress: { done: number; total: number },
): Promise<void> {
  await db
    .updateTable('fidelity_reports')
    .set({ progress_done: progress.done, progress_total: progress.total })
    .where('version_id', '=', versionId)
    .where('state', '=', 'running')
    .execute();
}

/** A running check's progress as the API says it; null before it reports or once it ended. */
export function progressOf(row: {
  state: FidelityState;
  progress_done: number | null;
  progress_total: number | null;
}): { done: number; total: number } | null {
  if (row.state !== 'running' || row.progress_done === null || row.progress_total === null)
    return null;
  return { done: Number(row.progress_done), total: Number(row.progress_total) };
}

/** `{ progress }` while a check runs and has reported, else nothing (older answers' shape). */
export function withProgress(row: Parameters<typeof progressOf>[0]) {
  const progress = progressOf(row);
  return progress ? { progress } : {};
}

/** Distinct pages of a report (each is checked at every width). */
export function pagesChecked(report: StoredFidelityReport): number {
  return new Set(report.pages.map((p) => p.path)).size;
}

/** Hashes of a report's screenshots. */
function shotHashes(report: StoredFidelityReport): string[] {
  return [...new Set(report.pages.flatMap((p) => Object.values(p.shots)))];
}

/**
 * Stores a finished check of a version (a row is created for a repaired version), with the bytes
 * of its screenshots: `shotSizes` for those this check took, the sizes already listed for those a
 * partial check kept from the last report.
 */
export async function saveReport(
  db: Db,
  saved: {
    versionId: string;
    siteId: string;
    report: StoredFidelityReport;
    repairedVersionId: string | null;
    shotSizes?: Readonly<Record<string, number>>;
  },
): Promise<void> {
  const { report } = saved;
  const values = {
    state: 'completed' as const,
    score: report.score,
    pages_checked: pagesChecked(report),
    report: JSON.stringify(report),
    error: null,
    paths: null,
    repaired_version_id: saved.repairedVersionId,
    checked_at: report.checkedAt,
  };
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto('fidelity_reports')
      .values({
        version_id: saved.versionId,
        site_id: saved.siteId,
        requested_at: report.checkedAt,
        ...values,
      })
      .onConflict((oc) => oc.column('version_id').doUpdateSet(values))
      .execute();
    const listed = await trx
      .selectFrom('fidelity_blobs')
      .select(['hash', 'size'])
      .where('version_id', '=', saved.versionId)
      .execute();
    const sizes = new Map(listed.map((r) => [r.hash, r.size]));
    await trx.deleteFrom('fidelity_blobs').where('version_id', '=', saved.versionId).execute();
    const hashes = shotHashes(report);
    if (hashes.length > 0)
      await trx
        .insertInto('fidelity_blobs')
        .values(
          hashes.map((hash) => ({
            version_id: saved.versionId,
            hash,
            size: saved.shotSizes?.[hash] ?? sizes.get(hash) ?? null,
          })),
        )
        .onConflict((oc) => oc.doNothing())
        .execute();
  });
}

/** The checks of these versions, as the site and its versions list them. */
export async function summaries(
  db: Db,
  versionIds: readonly string[],
): Promise<Map<string, FidelitySummary>> {
  const ids = [...new Set(versionIds)];
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom('fidelity_reports')
    .select(['version_id', 'state', 'score', 'pages_checked', 'progress_done', 'progress_total'])
    .where('version_id', 'in', ids)
    .execute();
  return new Map(
    rows.map((r) => [
      r.version_id,
      {
        state: r.state,
        score: r.score === null ? null : Number(r.score),
        pagesChecked: Number(r.pages_checked),
        ...withProgress(r),
      },
    ]),
  );
}

/** Whether a blob is a screenshot of some fidelity report (only those are served by hash). */
export async function isFidelityShot(db: Db, hash: string): Promise<boolean> {
  const row = await db
    .selectFrom('fidelity_blobs')
    .select('hash')
    .where('hash', '=', hash)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}
