import type { Kysely } from 'kysely';

/**
 * The blobs each completed version holds (its manifest and every body it serves), so that storage
 * used per account is one query and blobs no version holds can be collected (issue 18). A version
 * completed before this table existed is listed the first time storage is counted or collected.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('version_blobs')
    .addColumn('version_id', 'text', (c) =>
      c.notNull().references('site_versions.id').onDelete('cascade'),
    )
    .addColumn('hash', 'text', (c) => c.notNull())
    .addColumn('size', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('version_blobs_pk', ['version_id', 'hash'])
    .execute();
  await db.schema.createIndex('version_blobs_hash').on('version_blobs').column('hash').execute();
  // The collector asks, for each stored blob, whether anything still refers to it.
  await db.schema
    .createIndex('site_versions_manifest_hash')
    .on('site_versions')
    .column('manifest_hash')
    .execute();
  await db.schema
    .createIndex('site_versions_thumbnail_hash')
    .on('site_versions')
    .column('thumbnail_hash')
    .execute();
  await db.schema.createIndex('screenshots_hash').on('screenshots').column('hash').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('screenshots_hash').execute();
  await db.schema.dropIndex('site_versions_thumbnail_hash').execute();
  await db.schema.dropIndex('site_versions_manifest_hash').execute();
  await db.schema.dropTable('version_blobs').execute();
}
