import path from 'node:path';
import Database from 'better-sqlite3';
import type { PlanId } from '@mirror/contract';

/**
 * Puts an account on a plan, as a completed subscription would (payments are not part of the e2e
 * run): a direct write to the e2e server's SQLite database in E2E_DATA_DIR.
 */
export function setPlan(email: string, plan: PlanId): void {
  const dataDir = process.env.E2E_DATA_DIR;
  if (!dataDir)
    throw new Error('E2E_DATA_DIR is not set: run the specs through e2e/playwright.config.ts');
  const db = new Database(path.join(dataDir, 'mirror.db'));
  try {
    const changed = db
      .prepare('UPDATE users SET plan = ?, updated_at = ? WHERE email = ?')
      .run(plan, new Date().toISOString(), email.trim().toLowerCase()).changes;
    if (changed !== 1) throw new Error(`no account ${email} to put on ${plan}`);
  } finally {
    db.close();
  }
}
