import type { Kysely } from 'kysely';
import { timestampType } from '../column-types.js';

/**
 * Forms on copies (issue 34): the owner's settings per form (found in the live version's
 * manifest, named by its key), the submissions the sites host took, and their uploaded files
 * (blobs, counted in the owner's storage), and the signed webhook deliveries of submissions. All
 * go with their site.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const ts = timestampType(db);
  await db.schema
    .createTable('form_settings')
    .addColumn('site_id', 'text', (c) => c.notNull().references('sites.id').onDelete('cascade'))
    .addColumn('form_key', 'text', (c) => c.notNull())
    .addColumn('enabled', 'integer', (c) => c.notNull())
    .addColumn('redirect_url', 'text')
    .addColumn('notify', 'text', (c) => c.notNull())
    .addColumn('webhook_url', 'text')
    /** Made when a webhook is first set; kept when it changes, so receivers keep checking. */
    .addColumn('webhook_secret', 'text')
    .addPrimaryKeyConstraint('form_settings_pk', ['site_id', 'form_key'])
    .execute();

  await db.schema
    .createTable('form_submissions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('site_id', 'text', (c) => c.notNull().references('sites.id').onDelete('cascade'))
    .addColumn('owner_id', 'text', (c) => c.notNull())
    .addColumn('form_key', 'text', (c) => c.notNull())
    .addColumn('form_label', 'text', (c) => c.notNull())
    .addColumn('page', 'text')
    /** `[name, value][]` (JSON), in the order sent. */
    .addColumn('fields', 'text', (c) => c.notNull())
    /** Lowercased text of the fields, for the owner's search. */
    .addColumn('search_text', 'text', (c) => c.notNull())
    .addColumn('spam', 'integer', (c) => c.notNull())
    .addColumn('spam_reason', 'text')
    /** Bytes kept: the fields' JSON and the files. */
    .addColumn('bytes', 'integer', (c) => c.notNull())
    .addColumn('created_at', ts, (c) => c.notNull())
    /** Mailed (at once or in a digest), or not to be mailed; null while a digest owes it. */
    .addColumn('mailed_at', ts)
    .execute();
  await db.schema
    .createIndex('form_submissions_site')
    .on('form_submissions')
    .columns(['site_id', 'created_at'])
    .execute();
  await db.schema
    .createIndex('form_submissions_owner')
    .on('form_submissions')
    .columns(['owner_id', 'created_at'])
    .execute();

  await db.schema
    .createTable('form_files')
    .addColumn('submission_id', 'text', (c) =>
      c.notNull().references('form_submissions.id').onDelete('cascade'),
    )
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('field', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('hash', 'text', (c) => c.notNull())
    .addColumn('size', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('form_files_pk', ['submission_id', 'position'])
    .execute();
  await db.schema.createIndex('form_files_hash').on('form_files').column('hash').execute();

  /** Each submission's signed webhook delivery, its tries and their status (as watches'). */
  await db.schema
    .createTable('form_webhook_deliveries')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('submission_id', 'text', (c) =>
      c.notNull().references('form_submissions.id').onDelete('cascade'),
    )
    .addColumn('site_id', 'text', (c) => c.notNull().references('sites.id').onDelete('cascade'))
    .addColumn('form_key', 'text', (c) => c.notNull())
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull())
    .addColumn('last_status_code', 'integer')
    .addColumn('last_error', 'text')
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('finished_at', ts)
    /** When the next try is due; a try in progress moves it on, so one process makes it. */
    .addColumn('next_attempt_at', ts)
    .execute();
  await db.schema
    .createIndex('form_webhook_deliveries_due')
    .on('form_webhook_deliveries')
    .columns(['status', 'next_attempt_at'])
    .execute();
}
