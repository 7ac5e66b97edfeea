import type { Insertable, Selectable, Transaction, Updateable } from 'kysely';
import type { Db } from '../../platform/db/database.js';
import type { Database, ParkedMessagesTable, ParkedPagesTable } from '../../platform/db/schema.js';

export type ParkedPageRow = Selectable<ParkedPagesTable>;
export type ParkedMessageRow = Selectable<ParkedMessagesTable>;

export async function insertParkedPage(
  trx: Transaction<Database>,
  row: Insertable<ParkedPagesTable>,
): Promise<void> {
  await trx.insertInto('parked_pages').values(row).execute();
}

export function findParkedPage(db: Db, domainId: string) {
  return db
    .selectFrom('parked_pages')
    .selectAll()
    .where('domain_id', '=', domainId)
    .executeTakeFirst();
}

export async function updateParkedPage(
  db: Db,
  domainId: string,
  values: Updateable<ParkedPagesTable>,
): Promise<void> {
  if (Object.keys(values).length === 0) return;
  await db.updateTable('parked_pages').set(values).where('domain_id', '=', domainId).execute();
}

/** The page settings of several domains, by domain id. */
export async function findParkedPages(
  db: Db,
  domainIds: readonly string[],
): Promise<Map<string, ParkedPageRow>> {
  if (domainIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('parked_pages')
    .selectAll()
    .where('domain_id', 'in', [...domainIds])
    .execute();
  return new Map(rows.map((row) => [row.domain_id, row]));
}

/** Messages received per domain. */
export async function countMessages(
  db: Db,
  domainIds: readonly string[],
): Promise<Map<string, number>> {
  if (domainIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('parked_messages')
    .select(['domain_id', (eb) => eb.fn.countAll<number>().as('n')])
    .where('domain_id', 'in', [...domainIds])
    .groupBy('domain_id')
    .execute();
  return new Map(rows.map((row) => [row.domain_id, Number(row.n)]));
}

/** What the public side of a parked domain needs: its page, name and owner (for mail). */
export function findPublicPage(db: Db, domainId: string) {
  return db
    .selectFrom('parked_pages')
    .innerJoin('domains', 'domains.id', 'parked_pages.domain_id')
    .innerJoin('users', 'users.id', 'domains.owner_id')
    .select([
      'parked_pages.domain_id',
      'parked_pages.template',
      'parked_pages.content',
      'parked_pages.language',
      'parked_pages.message',
      'parked_pages.for_sale',
      'parked_pages.asking_price',
      'domains.domain',
      'domains.status',
      'users.email as owner_email',
      'users.locale as owner_locale',
    ])
    .where('parked_pages.domain_id', '=', domainId)
    .executeTakeFirst();
}

export async function insertMessage(db: Db, row: Insertable<ParkedMessagesTable>): Promise<void> {
  await db.insertInto('parked_messages').values(row).execute();
}

export function listMessages(db: Db, domainId: string, limit: number) {
  return db
    .selectFrom('parked_messages')
    .selectAll()
    .where('domain_id', '=', domainId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}
