import type { Kysely } from 'kysely';

/**
 * A running fidelity check says how far it got (issue 31, item 10): the page renders compared so
 * far out of those planned (pages × widths). Both null until the check reports, and again when it
 * is queued anew.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('fidelity_reports').addColumn('progress_done', 'integer').execute();
  await db.schema.alterTable('fidelity_reports').addColumn('progress_total', 'integer').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('fidelity_reports').dropColumn('progress_total').execute();
  await db.schema.alterTable('fidelity_reports').dropColumn('progress_done').execute();
}
