import type { CloneWithAiBody, CloneWithAiResponse } from '@mirror/contract';
import { api } from '../../../lib/api-client';

/** SPEC §3 AI rewrite request, less the fields this app always sends the same way. */
export type RewriteRequest = Required<
  Pick<CloneWithAiBody, 'sourceUrl' | 'cloneId' | 'originalIdea' | 'aiInstructions'>
>;

/**
 * `POST /domains/clone-with-ai`: rewrites the reference's copy for the idea as a draft version,
 * made by a job the status call reports. Free users get 402 until they have paid.
 */
export function rewriteWithAi(request: RewriteRequest): Promise<CloneWithAiResponse> {
  const body: CloneWithAiBody = { ...request, rewriteWithAI: true, customizations: {} };
  return api.post<CloneWithAiResponse>('/domains/clone-with-ai', body, {
    defaultMessage: 'AI rewriting failed',
  });
}
