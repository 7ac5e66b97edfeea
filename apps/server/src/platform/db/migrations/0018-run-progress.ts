import type { Kysely } from 'kysely';

/**
 * Progress that tells the truth and failures a person understands (issue 20, items 2 and 3). A
 * running mirror's counts (pages and files done out of found, JSON) and the page being copied; a
 * failed run's category (`MirrorFailureKind`) and technical detail, on the site and its version.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('sites').addColumn('run_counts', 'text').execute();
  await db.schema.alterTable('sites').addColumn('current_url', 'text').execute();
  await db.schema.alterTable('sites').addColumn('error_kind', 'text').execute();
  await db.schema.alterTable('sites').addColumn('error_detail', 'text').execute();
  await db.schema.alterTable('site_versions').addColumn('error_kind', 'text').execute();
  await db.schema.alterTable('site_versions').addColumn('error_detail', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('site_versions').dropColumn('error_detail').execute();
  await db.schema.alterTable('site_versions').dropColumn('error_kind').execute();
  await db.schema.alterTable('sites').dropColumn('error_detail').execute();
  await db.schema.alterTable('sites').dropColumn('error_kind').execute();
  await db.schema.alterTable('sites').dropColumn('current_url').execute();
  await db.schema.alterTable('sites').dropColumn('run_counts').execute();
}
