import type { Db } from '../../platform/db/database.js';

export interface ScreenshotRecord {
  url: string;
  hash: string;
  createdAt: string;
  expiresAt: string;
  /** Whether the website lets the app frame it; null (or left out) when unknown. */
  frameable?: boolean | null;
}

type ScreenshotRow = {
  url: string;
  hash: string;
  created_at: string;
  expires_at: string;
  frameable: number | null;
};

function toRecord(row: ScreenshotRow): ScreenshotRecord {
  return {
    url: row.url,
    hash: row.hash,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    frameable: row.frameable === null ? null : row.frameable === 1,
  };
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
  return row && toRecord(row);
}

/** The stored screenshots of these URLs, fresh or not (the reference grid shows stale ones too). */
export async function findScreenshots(
  db: Db,
  urls: readonly string[],
): Promise<Map<string, ScreenshotRecord>> {
  if (urls.length === 0) return new Map();
  const rows = await db.selectFrom('screenshots').selectAll().where('url', 'in', urls).execute();
  return new Map(rows.map((row) => [row.url, toRecord(row)]));
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
    frameable:
      record.frameable === undefined || record.frameable === null ? null : record.frameable ? 1 : 0,
  };
  await db
    .insertInto('screenshots')
    .values(values)
    .onConflict((oc) =>
      oc.column('url').doUpdateSet({
        hash: values.hash,
        created_at: values.created_at,
        expires_at: values.expires_at,
        frameable: values.frameable,
      }),
    )
    .execute();
}
