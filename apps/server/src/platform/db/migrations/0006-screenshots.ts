import type { Kysely } from 'kysely';
import { timestampType } from '../column-types.js';

/**
 * Screenshots that may be served: a URL (a website, or `version:{id}` for a mirrored version) and
 * the blob of its latest thumbnail. Only hashes listed here are answered by GET /screenshots, so
 * no other blob is ever exposed.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const ts = timestampType(db);
  await db.schema
    .createTable('screenshots')
    .addColumn('url', 'text', (c) => c.primaryKey())
    .addColumn('hash', 'text', (c) => c.notNull())
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('expires_at', ts, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('screenshots_hash_idx').on('screenshots').column('hash').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('screenshots').execute();
}
