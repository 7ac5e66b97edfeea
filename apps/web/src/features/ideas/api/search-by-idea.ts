import { IDEA_SEARCH_LIMIT, type ReferenceWebsite } from '@mirror/contract';
import { api } from '../../../lib/api-client';

/** `POST /domains/search-by-idea` (SPEC §7): reference websites for an idea, best first. */
export function searchByIdea(idea: string, limit = IDEA_SEARCH_LIMIT): Promise<ReferenceWebsite[]> {
  return api.post<ReferenceWebsite[]>(
    '/domains/search-by-idea',
    { idea, limit },
    { defaultMessage: 'Website search failed' },
  );
}
