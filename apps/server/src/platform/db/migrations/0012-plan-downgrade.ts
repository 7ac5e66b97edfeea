import type { Kysely } from 'kysely';
import { timestampType } from '../column-types.js';

/**
 * Plan limits hold after a downgrade too (issue 18, item 5):
 * - `domains.detach_at`: a custom domain beyond the account's plan keeps serving until then (the
 *   downgrade plus a grace period), then the periodic billing upkeep detaches it; an upgrade in
 *   between clears it;
 * - `site_versions.rewrite_credit`: the one-off rewrite payment (`sites.ai_rewrite_paid_at`) a
 *   rewrite used up when it started, given back to the site if the run fails.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const ts = timestampType(db);
  await db.schema.alterTable('domains').addColumn('detach_at', ts).execute();
  await db.schema.createIndex('domains_detach_at_idx').on('domains').column('detach_at').execute();
  await db.schema.alterTable('site_versions').addColumn('rewrite_credit', ts).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('site_versions').dropColumn('rewrite_credit').execute();
  await db.schema.dropIndex('domains_detach_at_idx').execute();
  await db.schema.alterTable('domains').dropColumn('detach_at').execute();
}
