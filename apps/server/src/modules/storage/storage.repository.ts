import { sql } from 'kysely';
import type { Db } from '../../platform/db/database.js';
import type { SiteStatus } from '../../platform/db/schema.js';

const RUNNING: SiteStatus[] = ['pending', 'processing', 'completing'];
/** Rows per insert: three values each, well under SQLite's and PostgreSQL's parameter limits. */
const INSERT_CHUNK = 300;
/** Hashes asked about in one query. */
const SWEEP_QUERY_CHUNK = 500;

/** Completed versions whose blobs are not listed yet (completed before the list existed, or a crash). */
export async function versionsToIndex(
  db: Db,
  limit: number,
): Promise<{ id: string; manifest_hash: string }[]> {
  const rows = await db
    .selectFrom('site_versions as v')
    .select(['v.id', 'v.manifest_hash'])
    .where('v.manifest_hash', 'is not', null)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('version_blobs as b').select('b.hash').whereRef('b.version_id', '=', 'v.id'),
        ),
      ),
    )
    .limit(limit)
    .execute();
  return rows.map((r) => ({ id: r.id, manifest_hash: r.manifest_hash! }));
}

export async function insertVersionBlobs(
  db: Db,
  versionId: string,
  blobs: ReadonlyMap<string, number>,
): Promise<void> {
  const rows = [...blobs].map(([hash, size]) => ({ version_id: versionId, hash, size }));
  // One transaction: a large copy's list is thousands of rows.
  await db.transaction().execute(async (trx) => {
    for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
      await trx
        .insertInto('version_blobs')
        .values(rows.slice(i, i + INSERT_CHUNK))
        .onConflict((oc) => oc.columns(['version_id', 'hash']).doNothing())
        .execute();
    }
  });
}

export async function deleteVersionBlobs(db: Db, versionId: string): Promise<void> {
  await db.deleteFrom('version_blobs').where('version_id', '=', versionId).execute();
}

/** Drops the lists of versions that failed after their blobs were listed (a crash in between). */
export async function forgetFailedVersions(db: Db): Promise<void> {
  await db
    .deleteFrom('version_blobs')
    .where(
      'version_id',
      'in',
      db.selectFrom('site_versions').select('id').where('status', '=', 'failed'),
    )
    .execute();
}

/**
 * Bytes the owner's sites hold: every distinct blob of their completed versions (and of
 * `alsoVersionId`, a version about to complete), of their versions' fidelity screenshots, of their
 * change reports' visual diffs, of their thumbnails and of files sent with their forms, each
 * counted once.
 */
export async function usedBytes(db: Db, ownerId: string, alsoVersionId?: string): Promise<number> {
  const served = db
    .selectFrom('version_blobs as b')
    .innerJoin('site_versions as v', 'v.id', 'b.version_id')
    .innerJoin('sites as s', 's.id', 'v.site_id')
    .select(['b.hash as hash', 'b.size as size'])
    .where('s.owner_id', '=', ownerId)
    .where((eb) =>
      alsoVersionId
        ? eb.or([eb('v.status', '=', 'completed'), eb('v.id', '=', alsoVersionId)])
        : eb('v.status', '=', 'completed'),
    );
  const shots = db
    .selectFrom('fidelity_blobs as f')
    .innerJoin('site_versions as v', 'v.id', 'f.version_id')
    .innerJoin('sites as s', 's.id', 'v.site_id')
    .select(['f.hash as hash', sql<number>`coalesce(f.size, 0)`.as('size')])
    .where('s.owner_id', '=', ownerId);
  const changeShots = db
    .selectFrom('visual_diff_blobs as d')
    .innerJoin('visual_diffs as vd', 'vd.version_id', 'd.version_id')
    .innerJoin('sites as s', 's.id', 'vd.site_id')
    .select(['d.hash as hash', 'd.size as size'])
    .where('s.owner_id', '=', ownerId);
  const thumbnails = db
    .selectFrom('site_versions as v')
    .innerJoin('sites as s', 's.id', 'v.site_id')
    .select([
      sql<string>`v.thumbnail_hash`.as('hash'),
      sql<number>`coalesce(v.thumbnail_size, 0)`.as('size'),
    ])
    .where('s.owner_id', '=', ownerId)
    .where('v.thumbnail_hash', 'is not', null);
  const formFiles = db
    .selectFrom('form_files as ff')
    .innerJoin('form_submissions as fs', 'fs.id', 'ff.submission_id')
    .select(['ff.hash as hash', 'ff.size as size'])
    .where('fs.owner_id', '=', ownerId);
  const kept = served
    .unionAll(shots)
    .unionAll(changeShots)
    .unionAll(thumbnails)
    .unionAll(formFiles)
    .as('kept');
  const held = db
    .selectFrom(kept)
    .select(['kept.hash', (eb) => eb.fn.max('kept.size').as('size')])
    .groupBy('kept.hash')
    .as('held');
  const row = await db
    .selectFrom(held)
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('held.size'), eb.lit(0)).as('bytes'))
    .executeTakeFirstOrThrow();
  return Number(row.bytes);
}

/** Screenshots and thumbnails whose size is not known yet (kept before sizes were recorded). */
export async function unmeasuredBlobs(db: Db, limit: number): Promise<string[]> {
  const rows = await db
    .selectFrom('fidelity_blobs')
    .select('hash')
    .where('size', 'is', null)
    .union(
      db
        .selectFrom('site_versions')
        .select(sql<string>`thumbnail_hash`.as('hash'))
        .where('thumbnail_hash', 'is not', null)
        .where('thumbnail_size', 'is', null),
    )
    .limit(limit)
    .execute();
  return rows.map((r) => r.hash);
}

export async function setMeasuredSize(db: Db, hash: string, size: number): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable('fidelity_blobs')
      .set({ size })
      .where('hash', '=', hash)
      .where('size', 'is', null)
      .execute();
    await trx
      .updateTable('site_versions')
      .set({ thumbnail_size: size })
      .where('thumbnail_hash', '=', hash)
      .where('thumbnail_size', 'is', null)
      .execute();
  });
}

/**
 * Version thumbnails of versions that are gone (pruned, or their site deleted): their rows are
 * dropped, so the sweep frees the pictures.
 */
export async function forgetOrphanThumbnails(db: Db): Promise<void> {
  await db
    .deleteFrom('screenshots')
    .where('url', 'like', 'version:%')
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('site_versions as v')
            .select('v.id')
            .where(sql<boolean>`${sql.lit('version:')} || v.id = screenshots.url`),
        ),
      ),
    )
    .execute();
}

// ---- holds: blobs a run refers to without writing them (issue 30, item 8) ----------------------

/** Hashes a completed version lists (its manifest and every body it serves). */
export async function versionBlobHashes(db: Db, versionId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('version_blobs')
    .select('hash')
    .where('version_id', '=', versionId)
    .execute();
  return rows.map((r) => r.hash);
}

/** A completed version's manifest, or undefined when the version is gone or not completed. */
export async function completedManifest(db: Db, versionId: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('site_versions')
    .select('manifest_hash')
    .where('id', '=', versionId)
    .where('status', '=', 'completed')
    .executeTakeFirst();
  return row?.manifest_hash ?? undefined;
}

export async function insertHolds(
  db: Db,
  holder: string,
  hashes: readonly string[],
  takenAt: string,
): Promise<void> {
  const rows = [...new Set(hashes)].map((hash) => ({ holder, hash, taken_at: takenAt }));
  // Each chunk commits on its own: a hold must be visible to the sweep as soon as it is written.
  for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
    await db
      .insertInto('blob_holds')
      .values(rows.slice(i, i + INSERT_CHUNK))
      .onConflict((oc) => oc.columns(['holder', 'hash']).doUpdateSet({ taken_at: takenAt }))
      .execute();
  }
}

export async function deleteHolds(db: Db, holder: string): Promise<void> {
  await db.deleteFrom('blob_holds').where('holder', '=', holder).execute();
}

/** Holds of runs that died (taken before `before`). */
export async function deleteStaleHolds(db: Db, before: string): Promise<void> {
  await db.deleteFrom('blob_holds').where('taken_at', '<', before).execute();
}

/** Which of `hashes` a run (or the run `holder`) holds. */
export async function heldAmong(
  db: Db,
  hashes: readonly string[],
  holder?: string,
): Promise<Set<string>> {
  if (hashes.length === 0) return new Set();
  const held = new Set<string>();
  const list = [...new Set(hashes)];
  for (let i = 0; i < list.length; i += SWEEP_QUERY_CHUNK) {
    let query = db
      .selectFrom('blob_holds')
      .select('hash')
      .distinct()
      .where('hash', 'in', list.slice(i, i + SWEEP_QUERY_CHUNK));
    if (holder) query = query.where('holder', '=', holder);
    for (const r of await query.execute()) held.add(r.hash);
  }
  return held;
}

/** Marks blobs a sweep is about to delete (each commit is visible to runs taking holds). */
export async function insertSweepMarks(
  db: Db,
  sweepId: string,
  hashes: readonly string[],
  markedAt: string,
): Promise<void> {
  if (hashes.length === 0) return;
  await db
    .insertInto('blob_sweep_marks')
    .values([...new Set(hashes)].map((hash) => ({ hash, sweep_id: sweepId, marked_at: markedAt })))
    .onConflict((oc) => oc.columns(['hash', 'sweep_id']).doNothing())
    .execute();
}

export async function deleteSweepMarks(db: Db, sweepId: string): Promise<void> {
  await db.deleteFrom('blob_sweep_marks').where('sweep_id', '=', sweepId).execute();
}

/** Marks left by sweeps that died (made before `before`). */
export async function deleteStaleSweepMarks(db: Db, before: string): Promise<void> {
  await db.deleteFrom('blob_sweep_marks').where('marked_at', '<', before).execute();
}

/** Which of `hashes` a sweep marked after `since` (it may be deleting them now). */
export async function markedAmong(
  db: Db,
  hashes: readonly string[],
  since: string,
): Promise<Set<string>> {
  if (hashes.length === 0) return new Set();
  const rows = await db
    .selectFrom('blob_sweep_marks')
    .select('hash')
    .distinct()
    .where('hash', 'in', [...new Set(hashes)])
    .where('marked_at', '>', since)
    .execute();
  return new Set(rows.map((r) => r.hash));
}

/**
 * Which of `hashes` something still refers to: a version, a version's thumbnail or fidelity
 * screenshots, a change report's visual diff, a screenshot, a form submission's file, a run in
 * progress (its holds).
 */
export async function referencedAmong(db: Db, hashes: readonly string[]): Promise<Set<string>> {
  if (hashes.length === 0) return new Set();
  const list = [...hashes];
  const rows = await db
    .selectFrom('site_versions')
    .select('manifest_hash as hash')
    .where('manifest_hash', 'in', list)
    .union(
      db
        .selectFrom('site_versions')
        .select('thumbnail_hash as hash')
        .where('thumbnail_hash', 'in', list),
    )
    .union(db.selectFrom('version_blobs').select('hash').where('hash', 'in', list))
    .union(db.selectFrom('screenshots').select('hash').where('hash', 'in', list))
    .union(db.selectFrom('fidelity_blobs').select('hash').where('hash', 'in', list))
    .union(db.selectFrom('visual_diff_blobs').select('hash').where('hash', 'in', list))
    .union(db.selectFrom('form_files').select('hash').where('hash', 'in', list))
    .union(db.selectFrom('blob_holds').select('hash').where('hash', 'in', list))
    .execute();
  return new Set(rows.map((r) => r.hash).filter((h): h is string => h !== null));
}

/** When the oldest run still in progress (created after `since`) was queued, if any. */
export async function oldestRunSince(db: Db, since: string): Promise<string | null> {
  const row = await db
    .selectFrom('site_versions')
    .select((eb) => eb.fn.min<string>('created_at').as('at'))
    .where('status', 'in', RUNNING)
    .where('created_at', '>', since)
    .executeTakeFirst();
  return row?.at ?? null;
}
