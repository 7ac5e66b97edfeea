import type { Db } from '../../platform/db/database.js';
import type { SiteStatus } from '../../platform/db/schema.js';

const RUNNING: SiteStatus[] = ['pending', 'processing', 'completing'];
/** Rows per insert: three values each, well under SQLite's and PostgreSQL's parameter limits. */
const INSERT_CHUNK = 300;

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
 * `alsoVersionId`, a version about to complete), each counted once.
 */
export async function usedBytes(db: Db, ownerId: string, alsoVersionId?: string): Promise<number> {
  const held = db
    .selectFrom('version_blobs as b')
    .innerJoin('site_versions as v', 'v.id', 'b.version_id')
    .innerJoin('sites as s', 's.id', 'v.site_id')
    .select(['b.hash', (eb) => eb.fn.max('b.size').as('size')])
    .where('s.owner_id', '=', ownerId)
    .where((eb) =>
      alsoVersionId
        ? eb.or([eb('v.status', '=', 'completed'), eb('v.id', '=', alsoVersionId)])
        : eb('v.status', '=', 'completed'),
    )
    .groupBy('b.hash')
    .as('held');
  const row = await db
    .selectFrom(held)
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('held.size'), eb.lit(0)).as('bytes'))
    .executeTakeFirstOrThrow();
  return Number(row.bytes);
}

/**
 * Which of `hashes` something still refers to: a version, a version's thumbnail or fidelity
 * screenshots, a screenshot.
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
