import type { Kysely, Selectable, Transaction } from 'kysely';
import type { Db } from '../../platform/db/database.js';
import type { Database, DomainsTable } from '../../platform/db/schema.js';

export type DomainRow = Selectable<DomainsTable>;
type Executor = Kysely<Database> | Transaction<Database>;

export function findDomainById(db: Db, id: string) {
  return db.selectFrom('domains').selectAll().where('id', '=', id).executeTakeFirst();
}

export function findDomainByName(db: Executor, domain: string) {
  return db.selectFrom('domains').selectAll().where('domain', '=', domain).executeTakeFirst();
}

export function listOwnedDomains(db: Db, ownerId: string, kind: DomainRow['kind']) {
  return db
    .selectFrom('domains')
    .selectAll()
    .where('owner_id', '=', ownerId)
    .where('kind', '=', kind)
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .execute();
}

export async function countOwnedDomains(
  db: Executor,
  ownerId: string,
  kind: DomainRow['kind'],
): Promise<number> {
  const row = await db
    .selectFrom('domains')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('owner_id', '=', ownerId)
    .where('kind', '=', kind)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function insertDomain(
  db: Executor,
  row: Pick<
    DomainRow,
    'id' | 'owner_id' | 'kind' | 'domain' | 'site_id' | 'zone' | 'token' | 'www_redirect'
  > & { next_check_at: string; created_at: string },
): Promise<void> {
  await db
    .insertInto('domains')
    .values({ ...row, updated_at: row.created_at })
    .execute();
}

export async function updateDomain(
  db: Executor,
  id: string,
  values: Partial<Omit<DomainRow, 'id' | 'owner_id' | 'kind' | 'domain' | 'created_at'>>,
): Promise<void> {
  await db
    .updateTable('domains')
    .set({ ...values, updated_at: new Date().toISOString() })
    .where('id', '=', id)
    .execute();
}

export async function deleteDomain(db: Db, id: string): Promise<void> {
  await db.deleteFrom('domains').where('id', '=', id).execute();
}

/**
 * Removes a claim only while it is still unverified (a check may verify it meanwhile): true when
 * this call removed it. Its parked page and messages go with it (foreign keys).
 */
export async function deleteUnverifiedDomain(db: Executor, id: string): Promise<boolean> {
  const result = await db
    .deleteFrom('domains')
    .where('id', '=', id)
    .where('verified_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}

/**
 * Removes a verified domain that another account takes over, only while it is still the holder's
 * row as it was looked at: true when this call removed it.
 */
export async function deleteVerifiedDomain(
  db: Executor,
  row: Pick<DomainRow, 'id' | 'owner_id' | 'verified_at'>,
): Promise<boolean> {
  if (row.verified_at === null) return false;
  const result = await db
    .deleteFrom('domains')
    .where('id', '=', row.id)
    .where('owner_id', '=', row.owner_id)
    .where('verified_at', '=', row.verified_at)
    .executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}

/** Domains of an account that were never verified, all kinds. */
export async function countPendingClaims(db: Executor, ownerId: string): Promise<number> {
  const row = await db
    .selectFrom('domains')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('owner_id', '=', ownerId)
    .where('verified_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Never-verified claims made before `cutoff`, oldest first, with their owner's address. */
export function listExpiredClaims(db: Db, cutoff: string, limit: number) {
  return db
    .selectFrom('domains')
    .innerJoin('users', 'users.id', 'domains.owner_id')
    .selectAll('domains')
    .select(['users.email as owner_email', 'users.name as owner_name'])
    .where('domains.verified_at', 'is', null)
    .where('domains.created_at', '<', cutoff)
    .orderBy('domains.created_at')
    .limit(limit)
    .execute();
}

export function findOwnerContact(db: Db, ownerId: string) {
  return db
    .selectFrom('users')
    .select(['email', 'name'])
    .where('id', '=', ownerId)
    .executeTakeFirst();
}

export async function findServerSecret(db: Db, name: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('server_secrets')
    .select('value')
    .where('name', '=', name)
    .executeTakeFirst();
  return row?.value;
}

/** Domains whose background check is due, oldest first. */
export function listDueDomains(db: Db, now: string, limit: number) {
  return db
    .selectFrom('domains')
    .selectAll()
    .where('next_check_at', '<=', now)
    .orderBy('next_check_at')
    .limit(limit)
    .execute();
}

/**
 * Takes a due check for this process: moves its time on only if nobody else did meanwhile, so two
 * processes do not check the same domain at once.
 */
export async function claimDueCheck(
  db: Db,
  id: string,
  dueAt: string,
  leaseUntil: string,
): Promise<boolean> {
  const result = await db
    .updateTable('domains')
    .set({ next_check_at: leaseUntil })
    .where('id', '=', id)
    .where('next_check_at', '=', dueAt)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
