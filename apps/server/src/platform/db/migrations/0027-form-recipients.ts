import type { Kysely } from 'kysely';
import { timestampType } from '../column-types.js';

/**
 * "Send the contact form to sales@…" (issue 34, item 6): a form's own recipient, set when a
 * published draft asks for it, and the addresses asked to take a site's form mails. An address
 * gets mails only once it has confirmed it wants them (a link in one confirmation mail); until
 * then, and after it declines, they go to the owner as before.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const ts = timestampType(db);
  await db.schema.alterTable('form_settings').addColumn('recipient_email', 'text').execute();
  await db.schema
    .createTable('form_recipients')
    .addColumn('site_id', 'text', (c) => c.notNull().references('sites.id').onDelete('cascade'))
    /** Lowercased. */
    .addColumn('email', 'text', (c) => c.notNull())
    /** `pending`, `confirmed` or `declined`. */
    .addColumn('status', 'text', (c) => c.notNull())
    /** SHA-256 (hex) of the token its confirmation link carries; the token itself is not kept. */
    .addColumn('token_hash', 'text', (c) => c.notNull())
    .addColumn('requested_at', ts, (c) => c.notNull())
    .addColumn('answered_at', ts)
    /** Confirmation mails sent, and the last one's time (a few, spaced, then no more). */
    .addColumn('mails_sent', 'integer', (c) => c.notNull())
    .addColumn('last_mailed_at', ts)
    .addPrimaryKeyConstraint('form_recipients_pk', ['site_id', 'email'])
    .execute();
  await db.schema
    .createIndex('form_recipients_token')
    .on('form_recipients')
    .column('token_hash')
    .unique()
    .execute();
}
