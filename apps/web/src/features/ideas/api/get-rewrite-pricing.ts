import type { AiRewritePricingResponse } from '@mirror/contract';
import { api } from '../../../lib/api-client';

export type RewritePricing = AiRewritePricingResponse;

/** `GET /domains/ai-rewrite-pricing`: what a rewrite costs users without a paid plan, in cents. */
export function getRewritePricing(signal?: AbortSignal): Promise<RewritePricing> {
  return api.get<RewritePricing>('/domains/ai-rewrite-pricing', {
    defaultMessage: 'Failed to get pricing',
    signal,
  });
}
