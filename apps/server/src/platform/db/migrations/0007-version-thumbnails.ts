import type { Kysely } from 'kysely';

/** The thumbnail of a completed version (a blob also listed in `screenshots`), for site cards. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('site_versions').addColumn('thumbnail_hash', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('site_versions').dropColumn('thumbnail_hash').execute();
}
