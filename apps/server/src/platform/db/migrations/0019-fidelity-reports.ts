import { sql, type Kysely } from 'kysely';
import { isPostgres, timestampType } from '../column-types.js';

/**
 * Fidelity reports (issue 21): one per checked version, its state, score and the report as JSON;
 * the screenshots of a report are blobs listed in `fidelity_blobs`, so the collector keeps them
 * while the version exists and deletes them after it (both rows go with the version).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const ts = timestampType(db);
  const real = isPostgres(db) ? sql`double precision` : sql`real`;
  await db.schema
    .createTable('fidelity_reports')
    .addColumn('version_id', 'text', (c) =>
      c.primaryKey().references('site_versions.id').onDelete('cascade'),
    )
    .addColumn('site_id', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('score', real)
    .addColumn('pages_checked', 'integer', (c) => c.notNull().defaultTo(0))
    /** `FidelityStoredReport` (JSON): counts and pages, shots as blob hashes. */
    .addColumn('report', 'text')
    .addColumn('error', 'text')
    /** Paths a re-capture asked for (JSON `string[]`), while queued or running. */
    .addColumn('paths', 'text')
    .addColumn('repaired_version_id', 'text')
    .addColumn('requested_at', ts, (c) => c.notNull())
    .addColumn('checked_at', ts)
    .execute();
  await db.schema
    .createTable('fidelity_blobs')
    .addColumn('version_id', 'text', (c) =>
      c.notNull().references('site_versions.id').onDelete('cascade'),
    )
    .addColumn('hash', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('fidelity_blobs_pk', ['version_id', 'hash'])
    .execute();
  await db.schema.createIndex('fidelity_blobs_hash').on('fidelity_blobs').column('hash').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('fidelity_blobs').execute();
  await db.schema.dropTable('fidelity_reports').execute();
}
