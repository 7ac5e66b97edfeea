import type { Kysely } from 'kysely';

/**
 * A version's name (issue 20, item 4): its home page's `<title>`, cleaned (`cleanSiteTitle`). Sites
 * are listed and headed by their live version's title, with the host beneath. '' when the home page
 * has none (the host is shown); null for versions from before this column, filled in the first time
 * the site is listed (`site-titles.task.ts` reads the stored home page in a sandbox).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('site_versions').addColumn('title', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('site_versions').dropColumn('title').execute();
}
