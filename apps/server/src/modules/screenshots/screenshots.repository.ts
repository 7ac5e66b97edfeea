import type { Db } from '../../platform/db/database.js';

export interface ScreenshotRecord {
  url: string;
  hash: string;
  createdAt: string;
  expiresAt: string;
}

/** The stored screenshot of `url` that is still fresh at `now`. */
export async function findFreshScreenshot(
  db: Db,
  url: string,
  now: string,
): Promise<ScreenshotRecord | undefined> {
  const row = await db
    .selectFrom('screenshots')
    .selectAll()
    .where('url', '=', url)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return (
    row && { url: row.url, hash: row.hash, createdAt: row.created_at, expiresAt: row.expires_at }
  );
}

/** Whether `hash` is the image of some screenshot (and so may be served). */
export async function isScreenshotHash(db: Db, hash: string): Promise<boolean> {
  const row = await db
    .selectFrom('screenshots')
    .select('hash')
    .where('hash', '=', hash)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** One row per URL: a new capture replaces the previous one. */
export async function saveScreenshot(db: Db, record: ScreenshotRecord): Promise<void> {
  const values = {
    url: record.url,
    hash: record.hash,
    created_at: record.createdAt,
    expires_at: record.expiresAt,
  };
  await db
    .insertInto('screenshots')
    .values(values)
    .onConflict((oc) =>
      oc.column('url').doUpdateSet({
        hash: values.hash,
        created_at: values.created_at,
        expires_at: values.expires_at,
      }),
    )
    .execute();
}
