import type { Kysely } from 'kysely';

/**
 * Whether a captured website lets other sites frame it (issue 19, item 4): read from the main
 * document's `X-Frame-Options` and CSP `frame-ancestors` when it is captured; 1 or 0, null when
 * unknown (rows from before this column, version thumbnails). The reference grid shows a live
 * frame only when it is 1.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('screenshots').addColumn('frameable', 'integer').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('screenshots').dropColumn('frameable').execute();
}
