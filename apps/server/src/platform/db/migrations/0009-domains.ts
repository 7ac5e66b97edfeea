import type { Kysely } from 'kysely';
import { timestampType } from '../column-types.js';

/**
 * Domains (issue 8). One table for every domain an account brings, custom (serving a site) or
 * parked, so a domain belongs to one account whatever it is used for; both go through the same DNS
 * verification. A parked domain's page settings and the messages its visitors send live beside it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const ts = timestampType(db);

  await db.schema
    .createTable('domains')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('owner_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('domain', 'text', (c) => c.notNull().unique())
    .addColumn('site_id', 'text', (c) => c.references('sites.id').onDelete('cascade'))
    .addColumn('zone', 'text', (c) => c.notNull())
    .addColumn('www_redirect', 'text', (c) => c.notNull().defaultTo('www-to-apex'))
    .addColumn('token', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('pending'))
    .addColumn('problem', 'text')
    .addColumn('reason', 'text')
    .addColumn('last_check', 'text')
    .addColumn('checked_at', ts)
    .addColumn('verified_at', ts)
    .addColumn('next_check_at', ts)
    .addColumn('check_attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('domains_owner_idx').on('domains').column('owner_id').execute();
  await db.schema.createIndex('domains_site_idx').on('domains').column('site_id').execute();
  await db.schema
    .createIndex('domains_next_check_idx')
    .on('domains')
    .column('next_check_at')
    .execute();

  await db.schema
    .createTable('parked_pages')
    .addColumn('domain_id', 'text', (c) =>
      c.primaryKey().references('domains.id').onDelete('cascade'),
    )
    .addColumn('project_id', 'text', (c) => c.notNull())
    .addColumn('template', 'text', (c) => c.notNull())
    .addColumn('content', 'text')
    .addColumn('monetization', 'text', (c) => c.notNull().defaultTo('none'))
    .addColumn('language', 'text')
    .addColumn('message', 'text')
    .addColumn('for_sale', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('asking_price', 'integer')
    .execute();

  await db.schema
    .createTable('parked_messages')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('domain_id', 'text', (c) => c.notNull().references('domains.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('amount', 'integer')
    .addColumn('created_at', ts, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('parked_messages_domain_idx')
    .on('parked_messages')
    .columns(['domain_id', 'created_at'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('parked_messages').execute();
  await db.schema.dropTable('parked_pages').execute();
  await db.schema.dropTable('domains').execute();
}
