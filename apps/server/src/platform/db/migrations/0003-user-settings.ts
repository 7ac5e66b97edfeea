import type { Kysely } from 'kysely';

/** App settings per account, as JSON text (null until the user saves them: defaults apply). */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('users').addColumn('settings', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('users').dropColumn('settings').execute();
}
