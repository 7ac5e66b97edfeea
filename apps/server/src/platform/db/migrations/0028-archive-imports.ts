import type { Kysely } from 'kysely';

/**
 * Where a mirror version came from when it was made from an uploaded web archive (issue 35): the
 * manifest's `importedFrom` (file name, format, the software that wrote it, its responses) as
 * JSON; null for a copy of a live site. The site page says "Imported from …" from it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('site_versions').addColumn('imported_from', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('site_versions').dropColumn('imported_from').execute();
}
