import type { Db } from '../../platform/db/database.js';

export async function countOwnedSites(db: Db, ownerId: string): Promise<number> {
  const row = await db
    .selectFrom('sites')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('owner_id', '=', ownerId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Ids among `ids` that are demo records nobody has claimed yet. */
export async function findUnclaimedDemoIds(db: Db, ids: readonly string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom('sites')
    .select('id')
    .where('id', 'in', [...ids])
    .where('is_demo', '=', 1)
    .where('owner_id', 'is', null)
    .orderBy('created_at')
    .execute();
  return rows.map((r) => r.id);
}

/** Gives the demo records to the owner; only rows still unclaimed change, so a race claims each once. */
export async function claimDemoSites(
  db: Db,
  ownerId: string,
  ids: readonly string[],
  now: string,
): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .updateTable('sites')
    .set({ owner_id: ownerId, is_demo: 0, updated_at: now })
    .where('id', 'in', [...ids])
    .where('is_demo', '=', 1)
    .where('owner_id', 'is', null)
    .returning('id')
    .execute();
  return rows.map((r) => r.id);
}
