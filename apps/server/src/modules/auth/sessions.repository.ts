import type { Db } from '../../platform/db/database.js';
import type { SessionRow, UserRow } from '../../platform/db/schema.js';

export async function insertSession(db: Db, session: SessionRow): Promise<void> {
  await db.insertInto('sessions').values(session).execute();
}

export async function findLiveSession(
  db: Db,
  tokenHash: string,
  now: string,
): Promise<{ session: SessionRow; user: UserRow } | undefined> {
  const session = await db
    .selectFrom('sessions')
    .selectAll()
    .where('token_hash', '=', tokenHash)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  if (!session) return undefined;
  const user = await db
    .selectFrom('users')
    .selectAll()
    .where('id', '=', session.user_id)
    .executeTakeFirst();
  return user ? { session, user } : undefined;
}

export async function touchSession(db: Db, id: string, now: string): Promise<void> {
  await db.updateTable('sessions').set({ last_used_at: now }).where('id', '=', id).execute();
}

export async function deleteSession(db: Db, id: string): Promise<void> {
  await db.deleteFrom('sessions').where('id', '=', id).execute();
}

/** Every session of the user except `keepId` (all of them when it is null). */
export async function deleteUserSessions(
  db: Db,
  userId: string,
  keepId: string | null,
): Promise<void> {
  let query = db.deleteFrom('sessions').where('user_id', '=', userId);
  if (keepId) query = query.where('id', '!=', keepId);
  await query.execute();
}

export async function deleteExpiredSessions(db: Db, now: string): Promise<void> {
  await db.deleteFrom('sessions').where('expires_at', '<=', now).execute();
}
