import { sql, type Kysely } from 'kysely';
import { timestampType } from '../column-types.js';

/**
 * Password resets, rate-limit counters, per-email login throttling, and the first columns of
 * `sites` (demo records that a visitor can claim after registering; the mirroring issue adds the rest).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const ts = timestampType(db);
  await db.schema
    .createTable('password_resets')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('expires_at', ts, (c) => c.notNull())
    .addColumn('used_at', ts)
    .execute();
  await db.schema
    .createIndex('password_resets_user_id_idx')
    .on('password_resets')
    .column('user_id')
    .execute();

  await db.schema
    .createTable('rate_limits')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('count', 'integer', (c) => c.notNull())
    .addColumn('reset_at', ts, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('rate_limits_reset_at_idx')
    .on('rate_limits')
    .column('reset_at')
    .execute();

  await db.schema
    .createTable('login_throttle')
    .addColumn('email', 'text', (c) => c.primaryKey())
    .addColumn('failures', 'integer', (c) => c.notNull())
    .addColumn('last_failure_at', ts, (c) => c.notNull())
    .addColumn('blocked_until', ts)
    .execute();

  await db.schema
    .createTable('sites')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('owner_id', 'text', (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('is_demo', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('source_url', 'text', (c) => c.notNull())
    .addColumn('subdomain', 'text', (c) => c.unique())
    .addColumn('status', 'text', (c) =>
      c
        .notNull()
        .defaultTo('pending')
        .check(sql.raw(`status in ('pending', 'processing', 'completing', 'completed', 'failed')`)),
    )
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sites_owner_id_idx').on('sites').column('owner_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('sites').execute();
  await db.schema.dropTable('login_throttle').execute();
  await db.schema.dropTable('rate_limits').execute();
  await db.schema.dropTable('password_resets').execute();
}
