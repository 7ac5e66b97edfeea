import type { PlanId } from '@mirror/contract';
import type { Db } from '../../platform/db/database.js';
import { findUserPlan } from './users.repository.js';

/** What other modules may ask about an account without reading the users table themselves. */
export interface UserPlans {
  /** The account's plan; null for no account (a demo) or one deleted meanwhile. */
  planOf(userId: string | null): Promise<PlanId | null>;
}

export function createUserPlans(db: Db): UserPlans {
  return {
    async planOf(userId) {
      return userId ? ((await findUserPlan(db, userId)) ?? null) : null;
    },
  };
}
