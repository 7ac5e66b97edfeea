import type { Kysely } from 'kysely';
import { timestampType } from '../column-types.js';

/**
 * Failed sign-ins are counted per account and address together (issue 18): counted per account
 * alone, five wrong passwords from anywhere locked the owner out, renewable forever. The counts are
 * short-lived, so the table is made anew rather than moved.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const ts = timestampType(db);
  await db.schema.dropTable('login_throttle').execute();
  await db.schema
    .createTable('login_throttle')
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('address', 'text', (c) => c.notNull())
    .addColumn('failures', 'integer', (c) => c.notNull())
    .addColumn('last_failure_at', ts, (c) => c.notNull())
    .addColumn('blocked_until', ts)
    .addPrimaryKeyConstraint('login_throttle_pk', ['email', 'address'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  const ts = timestampType(db);
  await db.schema.dropTable('login_throttle').execute();
  await db.schema
    .createTable('login_throttle')
    .addColumn('email', 'text', (c) => c.primaryKey())
    .addColumn('failures', 'integer', (c) => c.notNull())
    .addColumn('last_failure_at', ts, (c) => c.notNull())
    .addColumn('blocked_until', ts)
    .execute();
}
