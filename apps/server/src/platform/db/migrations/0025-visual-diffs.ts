import type { Kysely } from 'kysely';
import { timestampType } from '../column-types.js';

/**
 * The visual diff of a change report (issue 33): the report's changed pages rendered before and
 * after, at two widths, in a sandboxed task after the version is live. One row per report, gone
 * with it (its retention, or its version deleted); its screenshots are blobs listed in
 * `visual_diff_blobs` with their sizes (they count against the owner's storage), so the collector
 * keeps them while the row exists and frees them after.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const ts = timestampType(db);
  await db.schema
    .createTable('visual_diffs')
    .addColumn('version_id', 'text', (c) =>
      c.primaryKey().references('change_reports.version_id').onDelete('cascade'),
    )
    .addColumn('site_id', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    /** `StoredVisualDiffPage[]` (JSON): per page and width, its measures and shots as blob hashes. */
    .addColumn('pages', 'text')
    .addColumn('error', 'text')
    .addColumn('requested_at', ts, (c) => c.notNull())
    .addColumn('checked_at', ts)
    .execute();
  await db.schema
    .createTable('visual_diff_blobs')
    .addColumn('version_id', 'text', (c) =>
      c.notNull().references('visual_diffs.version_id').onDelete('cascade'),
    )
    .addColumn('hash', 'text', (c) => c.notNull())
    .addColumn('size', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('visual_diff_blobs_pk', ['version_id', 'hash'])
    .execute();
  await db.schema
    .createIndex('visual_diff_blobs_hash')
    .on('visual_diff_blobs')
    .column('hash')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('visual_diff_blobs').execute();
  await db.schema.dropTable('visual_diffs').execute();
}
