import { sql, type Kysely } from 'kysely';
import { isPostgres, timestampType } from '../column-types.js';

/**
 * Mirroring as a service: the rest of a site's columns, its immutable versions (one per mirror
 * run; the site points at its live one), the jobs table of the local job provider, and daily
 * visit counters for analytics.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const ts = timestampType(db);
  const real = isPostgres(db) ? sql`double precision` : sql`real`;
  for (const [name, type] of [
    ['ai_instructions', 'text'],
    ['customizations', 'text'],
    ['current_status', 'text'],
    ['error', 'text'],
    ['live_version_id', 'text'],
    ['current_version_id', 'text'],
    ['demo_ip', 'text'],
  ] as const) {
    await db.schema.alterTable('sites').addColumn(name, type).execute();
  }
  await db.schema
    .alterTable('sites')
    .addColumn('progress', real, (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('sites').addColumn('estimated_time', 'integer').execute();
  await db.schema
    .alterTable('sites')
    .addColumn('sync_schedule', 'text', (c) => c.notNull().defaultTo('off'))
    .execute();
  await db.schema.alterTable('sites').addColumn('next_sync_at', ts).execute();
  await db.schema.alterTable('sites').addColumn('expires_at', ts).execute();

  await db.schema
    .createTable('site_versions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('site_id', 'text', (c) => c.notNull().references('sites.id').onDelete('cascade'))
    .addColumn('number', 'integer', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('manifest_hash', 'text')
    .addColumn('pages', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('assets', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('bytes', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('failed_urls', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('error', 'text')
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('finished_at', ts)
    .addUniqueConstraint('site_versions_site_number_unique', ['site_id', 'number'])
    .execute();

  await db.schema
    .createTable('jobs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('max_attempts', 'integer', (c) => c.notNull())
    .addColumn('run_at', ts, (c) => c.notNull())
    .addColumn('locked_by', 'text')
    .addColumn('locked_until', ts)
    .addColumn('last_error', 'text')
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('jobs_status_run_at_idx')
    .on('jobs')
    .columns(['status', 'run_at'])
    .execute();

  await db.schema
    .createTable('site_visits')
    .addColumn('site_id', 'text', (c) => c.notNull().references('sites.id').onDelete('cascade'))
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('visits', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('page_views', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('site_visits_pk', ['site_id', 'day'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('site_visits').execute();
  await db.schema.dropTable('jobs').execute();
  await db.schema.dropTable('site_versions').execute();
}
