import type { Kysely } from 'kysely';
import { timestampType } from '../column-types.js';

/**
 * Rewrite payments charged once (issue 30, item 9).
 *
 * - `rewrite_payments`: one row per attempt to pay a site's one-off AI rewrite, claimed before the
 *   provider is called; its id is the provider's idempotency key. `open_site_id` is the site's id
 *   while the attempt is under way (charging, or waiting for 3-D Secure) and null once it ended:
 *   unique, so a site has at most one attempt under way and two requests cannot both charge.
 * - `site_versions.planned`: the edit plan a run's planner answered (JSON), kept as soon as it
 *   answers: a retried run uses it instead of asking the model again, and a rewrite whose model
 *   answered has used its payment, whatever fails afterwards.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const ts = timestampType(db);
  await db.schema
    .createTable('rewrite_payments')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('site_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('open_site_id', 'text', (c) => c.unique())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('payment_intent_id', 'text')
    .addColumn('payment_method_id', 'text', (c) => c.notNull())
    .addColumn('amount', 'integer', (c) => c.notNull())
    /** The rewrite this payment opened: the value it wrote to `sites.ai_rewrite_paid_at`. */
    .addColumn('paid_at', ts)
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('rewrite_payments_intent')
    .on('rewrite_payments')
    .column('payment_intent_id')
    .execute();
  await db.schema
    .createIndex('rewrite_payments_status')
    .on('rewrite_payments')
    .column('status')
    .execute();
  await db.schema.alterTable('site_versions').addColumn('planned', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('site_versions').dropColumn('planned').execute();
  await db.schema.dropTable('rewrite_payments').execute();
}
