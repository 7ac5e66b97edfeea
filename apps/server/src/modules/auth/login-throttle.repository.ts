import type { Db } from '../../platform/db/database.js';
import type { LoginThrottleTable } from '../../platform/db/schema.js';

/** Failed sign-ins of one account from one address. */
export function findLoginThrottle(
  db: Db,
  email: string,
  address: string,
): Promise<LoginThrottleTable | undefined> {
  return db
    .selectFrom('login_throttle')
    .selectAll()
    .where('email', '=', email)
    .where('address', '=', address)
    .executeTakeFirst();
}

export async function saveLoginThrottle(db: Db, row: LoginThrottleTable): Promise<void> {
  await db
    .insertInto('login_throttle')
    .values(row)
    .onConflict((oc) =>
      oc.columns(['email', 'address']).doUpdateSet({
        failures: row.failures,
        last_failure_at: row.last_failure_at,
        blocked_until: row.blocked_until,
      }),
    )
    .execute();
}

/** Forgets the failures of an account, from one address or (a new password) from every address. */
export async function clearLoginThrottle(db: Db, email: string, address?: string): Promise<void> {
  let query = db.deleteFrom('login_throttle').where('email', '=', email);
  if (address !== undefined) query = query.where('address', '=', address);
  await query.execute();
}
