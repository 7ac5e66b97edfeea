import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';

/**
 * Domain claims (issue 18): a claim that was never verified no longer holds a domain against the
 * account that proves ownership. Each account's TXT token for a domain is derived from a server
 * secret (HMAC of account and domain), so an account that is refused can be told its record before
 * it holds a row; the secret is made here once, shared by every process through the database.
 * The index serves the expiry of unverified claims and the per-account count of pending ones.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('server_secrets')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .execute();
  await (db as Kysely<{ server_secrets: { name: string; value: string } }>)
    .insertInto('server_secrets')
    .values({ name: 'domain-claims', value: randomBytes(32).toString('hex') })
    .execute();
  await db.schema
    .createIndex('domains_unverified_idx')
    .on('domains')
    .columns(['verified_at', 'created_at'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('domains_unverified_idx').execute();
  await db.schema.dropTable('server_secrets').execute();
}
