import type { Kysely } from 'kysely';
import { timestampType } from '../column-types.js';

/**
 * Every blob kept for an account is counted, and a run's references are visible to the storage
 * sweep (issue 30, items 1 and 8). The sizes of a version's fidelity screenshots and thumbnail
 * (null: not measured yet, measured the next time storage is counted); the blobs a run in progress
 * reuses by hash without writing them (`blob_holds`, one row per run and blob, dropped when the
 * run ends); and the blobs a sweep is deleting right now (`blob_sweep_marks`), which a run taking
 * a hold waits for, so that a hold and a deletion never miss each other.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const ts = timestampType(db);
  await db.schema.alterTable('fidelity_blobs').addColumn('size', 'integer').execute();
  await db.schema.alterTable('site_versions').addColumn('thumbnail_size', 'integer').execute();
  await db.schema
    .createTable('blob_holds')
    .addColumn('holder', 'text', (c) => c.notNull())
    .addColumn('hash', 'text', (c) => c.notNull())
    .addColumn('taken_at', ts, (c) => c.notNull())
    .addPrimaryKeyConstraint('blob_holds_pk', ['holder', 'hash'])
    .execute();
  await db.schema.createIndex('blob_holds_hash').on('blob_holds').column('hash').execute();
  await db.schema
    .createTable('blob_sweep_marks')
    .addColumn('hash', 'text', (c) => c.notNull())
    .addColumn('sweep_id', 'text', (c) => c.notNull())
    .addColumn('marked_at', ts, (c) => c.notNull())
    .addPrimaryKeyConstraint('blob_sweep_marks_pk', ['hash', 'sweep_id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('blob_sweep_marks').execute();
  await db.schema.dropTable('blob_holds').execute();
  await db.schema.alterTable('site_versions').dropColumn('thumbnail_size').execute();
  await db.schema.alterTable('fidelity_blobs').dropColumn('size').execute();
}
