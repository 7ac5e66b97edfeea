import type { Kysely } from 'kysely';

/**
 * Analytics worth looking at (issue 20, item 5). Per site and UTC day: unique visitors (told apart
 * by a salted hash that changes daily, no cookies), body bytes sent and bot page loads beside the
 * visits and page views; the day's top paths and referrer hosts (a bounded number of keys a day,
 * the rest in one "other" key); the same counts for parked domains' pages.
 *
 * `daily_visitors` holds the hashes of the last two days only: inserting a hash that is already
 * there does nothing, which is how every process (several sites processes share PostgreSQL)
 * agrees on who is new today. Its day comes first in the key, so dropping old days reads no more
 * than it deletes. The day's salt is a row of `server_secrets`, dropped with the hashes.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('site_visits')
    .addColumn('visitors', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('site_visits')
    .addColumn('bytes', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('site_visits')
    .addColumn('bot_views', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('site_visits_day_idx').on('site_visits').column('day').execute();

  await db.schema
    .createTable('site_visit_keys')
    .addColumn('site_id', 'text', (c) => c.notNull().references('sites.id').onDelete('cascade'))
    .addColumn('day', 'text', (c) => c.notNull())
    /** 'page' (a path) or 'referrer' (another site's host). */
    .addColumn('kind', 'text', (c) => c.notNull())
    /** The path or host; '' is the day's "other" bucket, past the cap of distinct keys. */
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('hits', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('site_visit_keys_pk', ['site_id', 'day', 'kind', 'key'])
    .execute();
  await db.schema
    .createIndex('site_visit_keys_day_idx')
    .on('site_visit_keys')
    .column('day')
    .execute();

  await db.schema
    .createTable('parked_visits')
    .addColumn('domain_id', 'text', (c) => c.notNull().references('domains.id').onDelete('cascade'))
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('visitors', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('page_views', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('bot_views', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('parked_visits_pk', ['domain_id', 'day'])
    .execute();
  await db.schema.createIndex('parked_visits_day_idx').on('parked_visits').column('day').execute();

  await db.schema
    .createTable('daily_visitors')
    .addColumn('day', 'text', (c) => c.notNull())
    /** A site id, or `parked:` and a domain id. */
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('hash', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('daily_visitors_pk', ['day', 'scope', 'hash'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('daily_visitors').execute();
  await db.schema.dropTable('parked_visits').execute();
  await db.schema.dropTable('site_visit_keys').execute();
  await db.schema.dropIndex('site_visits_day_idx').execute();
  await db.schema.alterTable('site_visits').dropColumn('bot_views').execute();
  await db.schema.alterTable('site_visits').dropColumn('bytes').execute();
  await db.schema.alterTable('site_visits').dropColumn('visitors').execute();
  await (db as Kysely<{ server_secrets: { name: string } }>)
    .deleteFrom('server_secrets')
    .where('name', 'like', 'visitor-salt:%')
    .execute();
}
