import type { ClaimDemosResponse } from '@mirror/contract';
import { api } from '../../../lib/api-client';

/** `firstId`: the demo the visitor acted on, claimed before the others (issue 31, item 1). */
export function claimDemos(demoSiteIds: string[], firstId?: string): Promise<ClaimDemosResponse> {
  return api.post<ClaimDemosResponse>(
    '/auth/claim-demos',
    firstId ? { demoSiteIds, firstId } : { demoSiteIds },
  );
}
