import type { Kysely } from 'kysely';
import { timestampType } from '../column-types.js';

/**
 * AI customization (issue 6): a version remembers what made it (a mirror run, a customization, a
 * rewrite), the version it was made from, what was asked, the plan applied and its diff summary,
 * and whether it is a draft waiting for review. A site remembers a paid one-off AI rewrite.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('site_versions')
    .addColumn('kind', 'text', (c) => c.notNull().defaultTo('mirror'))
    .execute();
  for (const name of [
    'base_version_id',
    'instructions',
    'idea',
    'requested_ops',
    'plan',
    'changes',
    'unparsed',
  ]) {
    await db.schema.alterTable('site_versions').addColumn(name, 'text').execute();
  }
  await db.schema
    .alterTable('site_versions')
    .addColumn('draft', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('sites').addColumn('ai_rewrite_paid_at', timestampType(db)).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const name of [
    'kind',
    'base_version_id',
    'instructions',
    'idea',
    'requested_ops',
    'plan',
    'changes',
    'unparsed',
    'draft',
  ]) {
    await db.schema.alterTable('site_versions').dropColumn(name).execute();
  }
  await db.schema.alterTable('sites').dropColumn('ai_rewrite_paid_at').execute();
}
