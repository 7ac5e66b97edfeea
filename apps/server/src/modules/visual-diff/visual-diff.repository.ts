import type { Db } from '../../platform/db/database.js';
import type { FidelityState } from '../../platform/db/schema.js';
import type { StoredVisualDiffPage } from './visual-diff.task.js';

export function findVisualDiff(db: Db, versionId: string) {
  return db
    .selectFrom('visual_diffs')
    .selectAll()
    .where('version_id', '=', versionId)
    .executeTakeFirst();
}

export type VisualDiffRow = NonNullable<Awaited<ReturnType<typeof findVisualDiff>>>;

/** Asks for the visual diff of a version's change report (once: a report does not change). */
export async function queueVisualDiff(
  db: Db,
  diff: { versionId: string; siteId: string },
): Promise<void> {
  await db
    .insertInto('visual_diffs')
    .values({
      version_id: diff.versionId,
      site_id: diff.siteId,
      state: 'queued',
      requested_at: new Date().toISOString(),
      checked_at: null,
    })
    .onConflict((oc) => oc.column('version_id').doNothing())
    .execute();
}

export async function setVisualDiffState(
  db: Db,
  versionId: string,
  state: FidelityState,
  error: string | null = null,
): Promise<void> {
  await db
    .updateTable('visual_diffs')
    .set({ state, error })
    .where('version_id', '=', versionId)
    .execute();
}

/**
 * Stores a finished visual diff with its screenshots and their bytes. Nothing is stored when the
 * report went meanwhile (its version was deleted): its screenshots are then left to the collector.
 */
export async function saveVisualDiff(
  db: Db,
  saved: {
    versionId: string;
    checkedAt: string;
    pages: StoredVisualDiffPage[];
    shotSizes: Readonly<Record<string, number>>;
  },
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const updated = await trx
      .updateTable('visual_diffs')
      .set({
        state: 'completed',
        pages: JSON.stringify(saved.pages),
        error: null,
        checked_at: saved.checkedAt,
      })
      .where('version_id', '=', saved.versionId)
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) === 0) return;
    const hashes = [...new Set(saved.pages.flatMap((p) => Object.values(p.shots)))];
    if (hashes.length > 0)
      await trx
        .insertInto('visual_diff_blobs')
        .values(
          hashes.map((hash) => ({
            version_id: saved.versionId,
            hash,
            size: saved.shotSizes[hash] ?? 0,
          })),
        )
        .onConflict((oc) => oc.doNothing())
        .execute();
  });
}

/** Whether a screenshot belongs to this version's visual diff (only those are served). */
export async function isVisualDiffShot(db: Db, versionId: string, hash: string): Promise<boolean> {
  const row = await db
    .selectFrom('visual_diff_blobs')
    .select('hash')
    .where('version_id', '=', versionId)
    .where('hash', '=', hash)
    .executeTakeFirst();
  return row !== undefined;
}
