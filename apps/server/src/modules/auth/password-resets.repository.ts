import type { Db } from '../../platform/db/database.js';

export async function insertPasswordReset(
  db: Db,
  reset: { id: string; userId: string; tokenHash: string; createdAt: string; expiresAt: string },
): Promise<void> {
  await db
    .insertInto('password_resets')
    .values({
      id: reset.id,
      user_id: reset.userId,
      token_hash: reset.tokenHash,
      created_at: reset.createdAt,
      expires_at: reset.expiresAt,
      used_at: null,
    })
    .execute();
}

/**
 * Marks a live, unused reset as used and returns its user id, in one statement, so a link can be
 * used once even when two requests race.
 */
export async function consumePasswordReset(
  db: Db,
  tokenHash: string,
  now: string,
): Promise<string | undefined> {
  const row = await db
    .updateTable('password_resets')
    .set({ used_at: now })
    .where('token_hash', '=', tokenHash)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .returning('user_id')
    .executeTakeFirst();
  return row?.user_id;
}

/** A new link (or a successful reset) makes the user's other outstanding links useless. */
export async function invalidateUserResets(db: Db, userId: string, now: string): Promise<void> {
  await db
    .updateTable('password_resets')
    .set({ used_at: now })
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .execute();
}
