import type { Kysely } from 'kysely';

/**
 * Draft first, for every edit (issue 19): a customization is a draft until its owner publishes it,
 * except the edits a re-mirror or scheduled sync re-applies (`carried`, reviewed already). A draft
 * remembers the plain description of each applied edit (`edits`, JSON) and, when it was made by
 * undoing one edit of another draft, that draft (`replaces_version_id`, dropped when it completes).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('site_versions')
    .addColumn('carried', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('site_versions').addColumn('edits', 'text').execute();
  await db.schema.alterTable('site_versions').addColumn('replaces_version_id', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const name of ['carried', 'edits', 'replaces_version_id']) {
    await db.schema.alterTable('site_versions').dropColumn(name).execute();
  }
}
