import type { ReferenceWebsite } from '@mirror/contract';

/** SPEC §3 reference cloneStatus after null: cloning, then completed or failed. */
export type ReferenceCloneStatus = 'cloning' | 'completed' | 'failed';

/** A search result with the state of its mirror in the user's account (SPEC §3). */
export interface ReferenceItem extends ReferenceWebsite {
  cloneStatus: ReferenceCloneStatus | null;
  cloneId: string | null;
}

export function toReferenceItem(reference: ReferenceWebsite): ReferenceItem {
  return { ...reference, cloneStatus: null, cloneId: null };
}

/**
 * A reference being cloned or cloned already cannot be selected again (SPEC §4); one whose clone
 * failed can be tried again.
 */
export function canSelectReference(item: Pick<ReferenceItem, 'cloneStatus'>): boolean {
  return item.cloneStatus === null || item.cloneStatus === 'failed';
}
