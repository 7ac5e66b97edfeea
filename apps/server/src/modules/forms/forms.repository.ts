import { sql } from 'kysely';
import type { Db } from '../../platform/db/database.js';
import { findOrCreateSecret } from '../../platform/db/server-secrets.js';
import type {
  FormFilesTable,
  FormSettingsTable,
  FormSubmissionsTable,
} from '../../platform/db/schema.js';

export type SubmissionRow = FormSubmissionsTable;
export type FileRow = FormFilesTable;
export type SettingsRow = FormSettingsTable;

/** The key that hashes visitors' addresses for the forms' rate limits, made by the first asker. */
export function addressKeyOf(db: Db): Promise<string> {
  return findOrCreateSecret(db, 'form-address-key');
}

/** What the sites host needs of a site to take a submission. */
export function captureContext(db: Db, siteId: string) {
  return db
    .selectFrom('sites as s')
    .innerJoin('users as u', 'u.id', 's.owner_id')
    .select(['s.id', 's.owner_id', 's.source_url', 's.subdomain', 'u.email', 'u.plan', 'u.locale'])
    .where('s.id', '=', siteId)
    .executeTakeFirst();
}

export function settingsOf(db: Db, siteId: string): Promise<SettingsRow[]> {
  return db.selectFrom('form_settings').selectAll().where('site_id', '=', siteId).execute();
}

export async function upsertSettings(db: Db, row: SettingsRow): Promise<void> {
  await db
    .insertInto('form_settings')
    .values(row)
    .onConflict((oc) =>
      oc.columns(['site_id', 'form_key']).doUpdateSet({
        enabled: row.enabled,
        redirect_url: row.redirect_url,
        notify: row.notify,
        webhook_url: row.webhook_url,
        webhook_secret: row.webhook_secret,
        recipient_email: row.recipient_email,
      }),
    )
    .execute();
}

/** Submissions an owner's forms took since `since` that are not spam (the plan's month). */
export async function countOwnerSubmissions(db: Db, ownerId: string, since: string) {
  const row = await db
    .selectFrom('form_submissions')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('owner_id', '=', ownerId)
    .where('created_at', '>=', since)
    .where('spam', '=', 0)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function insertSubmission(
  db: Db,
  submission: SubmissionRow,
  files: FileRow[],
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.insertInto('form_submissions').values(submission).execute();
    if (files.length > 0) await trx.insertInto('form_files').values(files).execute();
  });
}

/** Per form of a site: its submissions and spam, and the newest one's time. */
export function countsBySiteForm(db: Db, siteId: string) {
  return db
    .selectFrom('form_submissions')
    .select((eb) => [
      'form_key',
      eb.fn.sum<number>(eb.case().when('spam', '=', 0).then(1).else(0).end()).as('kept'),
      eb.fn.sum<number>('spam').as('spam'),
      eb.fn.max('created_at').as('last_at'),
    ])
    .where('site_id', '=', siteId)
    .groupBy('form_key')
    .execute();
}

export interface SubmissionFilter {
  formKey?: string;
  spam?: boolean;
  search?: string;
  before?: string;
}

export function listSubmissions(
  db: Db,
  siteId: string,
  filter: SubmissionFilter,
  limit: number,
): Promise<SubmissionRow[]> {
  let query = db.selectFrom('form_submissions').selectAll().where('site_id', '=', siteId);
  if (filter.formKey) query = query.where('form_key', '=', filter.formKey);
  if (filter.spam !== undefined) query = query.where('spam', '=', filter.spam ? 1 : 0);
  if (filter.before) query = query.where('created_at', '<', filter.before);
  if (filter.search) {
    const escaped = filter.search.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`);
    query = query.where(sql<boolean>`search_text like ${`%${escaped}%`} escape '\\'`);
  }
  return query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
}

/** Submissions asked about per query (SQLite and PostgreSQL bound a statement's parameters). */
const IDS_PER_QUERY = 1_000;

/** The files of these submissions (a CSV export asks for tens of thousands), by position. */
export async function filesOf(db: Db, submissionIds: readonly string[]): Promise<FileRow[]> {
  const files: FileRow[] = [];
  for (let i = 0; i < submissionIds.length; i += IDS_PER_QUERY) {
    const rows = await db
      .selectFrom('form_files')
      .selectAll()
      .where('submission_id', 'in', submissionIds.slice(i, i + IDS_PER_QUERY))
      .orderBy('submission_id')
      .orderBy('position')
      .execute();
    files.push(...rows);
  }
  return files;
}

export function findSubmission(db: Db, siteId: string, id: string) {
  return db
    .selectFrom('form_submissions')
    .selectAll()
    .where('site_id', '=', siteId)
    .where('id', '=', id)
    .executeTakeFirst();
}

export async function setSpam(db: Db, siteId: string, id: string, spam: boolean) {
  await db
    .updateTable('form_submissions')
    .set({ spam: spam ? 1 : 0, spam_reason: spam ? 'owner' : null })
    .where('site_id', '=', siteId)
    .where('id', '=', id)
    .execute();
}

export async function deleteSubmission(db: Db, siteId: string, id: string): Promise<boolean> {
  const result = await db
    .deleteFrom('form_submissions')
    .where('site_id', '=', siteId)
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Submissions a daily digest owes, per owner (not spam, not mailed yet). */
export function unmailedSubmissions(db: Db, limit: number) {
  return db
    .selectFrom('form_submissions as f')
    .innerJoin('sites as s', 's.id', 'f.site_id')
    .innerJoin('users as u', 'u.id', 'f.owner_id')
    .leftJoin('form_settings as fs', (join) =>
      join.onRef('fs.site_id', '=', 'f.site_id').onRef('fs.form_key', '=', 'f.form_key'),
    )
    .leftJoin('form_recipients as fr', (join) =>
      join.onRef('fr.site_id', '=', 'f.site_id').onRef('fr.email', '=', 'fs.recipient_email'),
    )
    .select([
      'fs.recipient_email as recipient',
      'fr.status as recipient_status',
      'f.id',
      'f.site_id',
      'f.owner_id',
      'f.form_label',
      'f.page',
      'f.fields',
      'f.created_at',
      's.source_url',
      'u.email',
      'u.locale',
    ])
    .where('f.mailed_at', 'is', null)
    .where('f.spam', '=', 0)
    .orderBy('f.owner_id')
    .orderBy('f.created_at')
    .limit(limit)
    .execute();
}

export async function markSubmissionsMailed(
  db: Db,
  ids: readonly string[],
  at: string,
): Promise<void> {
  if (ids.length === 0) return;
  await db
    .updateTable('form_submissions')
    .set({ mailed_at: at })
    .where('id', 'in', [...ids])
    .execute();
}
