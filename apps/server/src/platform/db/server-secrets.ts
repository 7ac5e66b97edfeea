import { randomBytes } from 'node:crypto';
import type { Db } from './database.js';

/**
 * A secret the server makes for itself (`server_secrets`), by name: made by whichever process asks
 * first (32 random bytes, hex), then read by every process alike.
 */
export async function findOrCreateSecret(db: Db, name: string): Promise<string> {
  await db
    .insertInto('server_secrets')
    .values({ name, value: randomBytes(32).toString('hex') })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  const row = await db
    .selectFrom('server_secrets')
    .select('value')
    .where('name', '=', name)
    .executeTakeFirstOrThrow();
  return row.value;
}
