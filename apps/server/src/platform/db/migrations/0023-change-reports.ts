import type { Kysely } from 'kysely';
import { timestampType } from '../column-types.js';

/**
 * Change reports (issue 33): what a new mirror version changed against the version it replaced,
 * one per such version. Its digest (`ChangeDigest`, JSON) is on the version too, for the version
 * history.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('change_reports')
    .addColumn('version_id', 'text', (c) =>
      c.primaryKey().references('site_versions.id').onDelete('cascade'),
    )
    .addColumn('site_id', 'text', (c) => c.notNull())
    /** The version it was compared with (it may since have been deleted). */
    .addColumn('base_version_id', 'text', (c) => c.notNull())
    /** `ChangeReport` (JSON). */
    .addColumn('report', 'text', (c) => c.notNull())
    .addColumn('created_at', timestampType(db), (c) => c.notNull())
    .execute();
  await db.schema.alterTable('site_versions').addColumn('change_digest', 'text').execute();
  /** A scheduled sync that found nothing changed makes no version: the live one says when. */
  await db.schema
    .alterTable('site_versions')
    .addColumn('checked_unchanged_at', timestampType(db))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('site_versions').dropColumn('checked_unchanged_at').execute();
  await db.schema.alterTable('site_versions').dropColumn('change_digest').execute();
  await db.schema.dropTable('change_reports').execute();
}
