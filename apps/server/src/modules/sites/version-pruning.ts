import type { Db } from '../../platform/db/database.js';
import type { SiteStatus } from '../../platform/db/schema.js';
import { PLAN_VERSIONS_KEPT, versionsKept } from './plan-limits.js';

/**
 * Versions a site keeps (issue 30, item 1): every version holds blobs, a fidelity report with its
 * screenshots and a thumbnail, so a site re-mirrored every few minutes would grow without end.
 * After a new version is live (and in the periodic upkeep, which catches downgrades), the versions
 * beyond the plan's count (`PLAN_VERSIONS_KEPT`) are deleted; their reports and blob lists go with
 * them, and the storage sweep frees what nothing else holds. Never deleted: the live version,
 * drafts, the versions the edits of those were made on (a re-mirror applies those edits again,
 * and undoing an edit of a draft starts from its base), a version a run in progress is based on or
 * replaces, a version being checked, and one whose files a run holds.
 */

const RUNNING: readonly SiteStatus[] = ['pending', 'processing', 'completing'];
const FINISHED: readonly SiteStatus[] = ['completed', 'failed'];

export interface VersionPruningDeps {
  db: Db;
  /** Which of these manifests a run in progress holds (storage holds). */
  heldAmong(hashes: readonly string[]): Promise<Set<string>>;
}

type VersionRow = {
  id: string;
  number: number;
  status: SiteStatus;
  draft: number;
  kind: string;
  base_version_id: string | null;
  replaces_version_id: string | null;
  manifest_hash: string | null;
};

/** The versions that stay whatever their age (see above). */
function versionsInUse(
  versions: readonly VersionRow[],
  liveId: string | null,
  checked: ReadonlySet<string>,
  held: ReadonlySet<string>,
): Set<string> {
  const byId = new Map(versions.map((v) => [v.id, v]));
  const keep = new Set<string>();
  /** A version and the ones its edits were made on, down to the mirror they started from. */
  const keepChain = (id: string | null) => {
    for (let hops = 0; id && hops < 1_000; hops++) {
      if (keep.has(id)) return;
      keep.add(id);
      const version = byId.get(id);
      if (!version || version.kind === 'mirror') return;
      id = version.base_version_id;
    }
  };
  keepChain(liveId);
  for (const v of versions) {
    if (v.draft === 1) keepChain(v.id);
    if (RUNNING.includes(v.status)) {
      keepChain(v.base_version_id);
      keepChain(v.replaces_version_id);
    }
    if (checked.has(v.id)) keep.add(v.id);
    if (v.manifest_hash && held.has(v.manifest_hash)) keep.add(v.id);
  }
  return keep;
}

/** Deletes a site's versions beyond what its owner's plan keeps; answers how many went. */
export async function pruneVersions(deps: VersionPruningDeps, siteId: string): Promise<number> {
  const { db } = deps;
  const manifests = await db
    .selectFrom('site_versions')
    .select('manifest_hash')
    .where('site_id', '=', siteId)
    .where('manifest_hash', 'is not', null)
    .execute();
  // Read before the transaction: a hold taken after it still protects the blobs, only not the row.
  const held = await deps.heldAmong(manifests.map((m) => m.manifest_hash!));
  return db.transaction().execute(async (trx) => {
    // The site's row first: publishing a version takes it too, so the live version read below
    // stays live until this transaction ends, and a version deleted here is never published.
    const locked = await trx
      .updateTable('sites')
      .set((eb) => ({ updated_at: eb.ref('sites.updated_at') }))
      .where('id', '=', siteId)
      .executeTakeFirst();
    if (Number(locked.numUpdatedRows) === 0) return 0;
    const site = await trx
      .selectFrom('sites')
      .leftJoin('users', 'users.id', 'sites.owner_id')
      .select(['sites.live_version_id', 'users.plan'])
      .where('sites.id', '=', siteId)
      .executeTakeFirstOrThrow();
    const versions: VersionRow[] = await trx
      .selectFrom('site_versions')
      .select([
        'id',
        'number',
        'status',
        'draft',
        'kind',
        'base_version_id',
        'replaces_version_id',
        'manifest_hash',
      ])
      .where('site_id', '=', siteId)
      .orderBy('number', 'desc')
      .execute();
    const checks = await trx
      .selectFrom('fidelity_reports')
      .select('version_id')
      .where('site_id', '=', siteId)
      .where('state', 'in', ['queued', 'running'])
      .execute();
    const inUse = versionsInUse(
      versions,
      site.live_version_id,
      new Set(checks.map((c) => c.version_id)),
      held,
    );

    const kept = versionsKept(site.plan);
    let completed = 0;
    const doomed: string[] = [];
    for (const v of versions) {
      if (v.draft === 1 || !FINISHED.includes(v.status)) continue;
      if (v.status === 'completed') completed++;
      // Failed runs stay while they are newer than the oldest completed version kept.
      const old = v.status === 'completed' ? completed > kept : completed >= kept;
      if (old && !inUse.has(v.id)) doomed.push(v.id);
    }
    if (doomed.length === 0) return 0;
    const deleted = await trx
      .deleteFrom('site_versions')
      .where('site_id', '=', siteId)
      .where('id', 'in', doomed)
      .where('draft', '=', 0)
      .where('status', 'in', [...FINISHED])
      .where((eb) =>
        eb.not(
          eb.exists(
            eb
              .selectFrom('sites')
              .select('sites.id')
              .whereRef('sites.live_version_id', '=', 'site_versions.id'),
          ),
        ),
      )
      .executeTakeFirst();
    return Number(deleted.numDeletedRows);
  });
}

/** Sites with more finished versions than their owner's plan keeps (after a downgrade, say). */
export async function sitesOverVersionLimit(db: Db): Promise<string[]> {
  const fewest = Math.min(...Object.values(PLAN_VERSIONS_KEPT));
  const rows = await db
    .selectFrom('site_versions as v')
    .innerJoin('sites as s', 's.id', 'v.site_id')
    .leftJoin('users as u', 'u.id', 's.owner_id')
    .select(['v.site_id', 'u.plan', (eb) => eb.fn.countAll<number>().as('n')])
    .where('v.draft', '=', 0)
    .where('v.status', 'in', [...FINISHED])
    .groupBy(['v.site_id', 'u.plan'])
    .having((eb) => eb.fn.countAll(), '>', fewest)
    .execute();
  return rows.filter((r) => Number(r.n) > versionsKept(r.plan)).map((r) => r.site_id);
}
