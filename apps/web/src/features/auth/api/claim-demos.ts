import type { ClaimDemosResponse } from '@mirror/contract';
import { api } from '../../../lib/api-client';

export function claimDemos(demoSiteIds: string[]): Promise<ClaimDemosResponse> {
  return api.post<ClaimDemosResponse>('/auth/claim-demos', { demoSiteIds });
}
