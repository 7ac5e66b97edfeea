import type { Db } from '../../platform/db/database.js';
import type { LoginThrottleTable } from '../../platform/db/schema.js';

export function findLoginThrottle(db: Db, email: string): Promise<LoginThrottleTable | undefined> {
  return db.selectFrom('login_throttle').selectAll().where('email', '=', email).executeTakeFirst();
}

export async function saveLoginThrottle(db: Db, row: LoginThrottleTable): Promise<void> {
  await db
    .insertInto('login_throttle')
    .values(row)
    .onConflict((oc) =>
      oc.column('email').doUpdateSet({
        failures: row.failures,
        last_failure_at: row.last_failure_at,
        blocked_until: row.blocked_until,
      }),
    )
    .execute();
}

export async function clearLoginThrottle(db: Db, email: string): Promise<void> {
  await db.deleteFrom('login_throttle').where('email', '=', email).execute();
}
