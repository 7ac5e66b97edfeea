import type { Kysely } from 'kysely';
import { timestampType } from '../column-types.js';

/**
 * Watches on change reports (issue 33): what of a site's changes its owner wants to be told,
 * the versions that met them (hits, mailed at once or in a daily digest) and the webhook
 * deliveries of those hits with their status; the token of each site's Atom feed. All go with
 * their site.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('watches')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('site_id', 'text', (c) => c.notNull().references('sites.id').onDelete('cascade'))
    .addColumn('owner_id', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('scope', 'text', (c) => c.notNull())
    /** Paths (JSON array). */
    .addColumn('pages', 'text', (c) => c.notNull())
    .addColumn('selector', 'text')
    .addColumn('text_fallback', 'text')
    /** `KeywordRule[]` (JSON). */
    .addColumn('keywords', 'text', (c) => c.notNull())
    .addColumn('min_words', 'integer', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('webhook_url', 'text')
    .addColumn('webhook_secret', 'text', (c) => c.notNull())
    .addColumn('created_at', timestampType(db), (c) => c.notNull())
    .addColumn('last_hit_at', timestampType(db))
    .execute();
  await db.schema.createIndex('watches_site').on('watches').column('site_id').execute();
  await db.schema.createIndex('watches_owner').on('watches').column('owner_id').execute();

  await db.schema
    .createTable('watch_hits')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('watch_id', 'text', (c) => c.notNull().references('watches.id').onDelete('cascade'))
    .addColumn('site_id', 'text', (c) => c.notNull())
    .addColumn('version_id', 'text', (c) =>
      c.notNull().references('site_versions.id').onDelete('cascade'),
    )
    /** `WatchReason[]` (JSON). */
    .addColumn('reasons', 'text', (c) => c.notNull())
    .addColumn('created_at', timestampType(db), (c) => c.notNull())
    /** Mailed (at once or in a digest), or not to be mailed; null while a digest owes it. */
    .addColumn('mailed_at', timestampType(db))
    .execute();
  await db.schema.createIndex('watch_hits_watch').on('watch_hits').column('watch_id').execute();
  await db.schema.createIndex('watch_hits_unmailed').on('watch_hits').column('mailed_at').execute();

  await db.schema
    .createTable('webhook_deliveries')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('watch_id', 'text', (c) => c.notNull().references('watches.id').onDelete('cascade'))
    .addColumn('site_id', 'text', (c) => c.notNull())
    .addColumn('version_id', 'text', (c) => c.notNull())
    .addColumn('url', 'text', (c) => c.notNull())
    /** The JSON body sent on every try (signed afresh each time). */
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull())
    .addColumn('last_status_code', 'integer')
    .addColumn('last_error', 'text')
    .addColumn('created_at', timestampType(db), (c) => c.notNull())
    .addColumn('finished_at', timestampType(db))
    .addColumn('next_attempt_at', timestampType(db))
    .execute();
  await db.schema
    .createIndex('webhook_deliveries_site')
    .on('webhook_deliveries')
    .columns(['site_id', 'created_at'])
    .execute();

  /** The private token of a site's Atom feed of change reports, made when first asked. */
  await db.schema
    .createTable('change_feeds')
    .addColumn('site_id', 'text', (c) => c.primaryKey().references('sites.id').onDelete('cascade'))
    .addColumn('token', 'text', (c) => c.notNull().unique())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('change_feeds').execute();
  await db.schema.dropTable('webhook_deliveries').execute();
  await db.schema.dropTable('watch_hits').execute();
  await db.schema.dropTable('watches').execute();
}
