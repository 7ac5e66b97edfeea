import { getPlan, type PlanId } from '@mirror/contract';
import type { Db } from '../../platform/db/database.js';
import { claimDemoSites, countOwnedSites, findUnclaimedDemoIds } from './sites.repository.js';

export interface DemoClaim {
  claimedIds: string[];
  message: string;
}

/**
 * A visitor's demo mirrors become the account's sites after sign-up or sign-in: only existing,
 * unclaimed demo records, and no more than the plan's mirror allowance leaves room for.
 */
export async function claimDemos(
  db: Db,
  user: { id: string; plan: PlanId },
  ids: readonly string[],
): Promise<DemoClaim> {
  const unique = [...new Set(ids)];
  const claimable = await findUnclaimedDemoIds(db, unique);
  const allowance = getPlan(user.plan).limits.mirrors;
  const room =
    allowance === null
      ? claimable.length
      : Math.max(0, allowance - (await countOwnedSites(db, user.id)));
  const claimedIds = await claimDemoSites(
    db,
    user.id,
    claimable.slice(0, room),
    new Date().toISOString(),
  );
  return {
    claimedIds,
    message: demoClaimMessage(claimedIds.length, unique.length, claimable.length > room),
  };
}

function demoClaimMessage(claimed: number, asked: number, overAllowance: boolean): string {
  if (asked === 0) return 'No demo sites to claim.';
  const done = claimed === 1 ? 'Claimed 1 demo site.' : `Claimed ${claimed} demo sites.`;
  if (overAllowance) return `${done} Your plan's mirror limit is reached: upgrade to keep more.`;
  if (claimed < asked) return `${done} The others no longer exist or were already claimed.`;
  return done;
}
