import type { SiteVersion } from '@mirror/contract';

// Version types and helpers; the version calls are in api/sites.ts.

/**
 * A version with the plan that made it (`kind`, `draft`, `changes`, `unparsed`, `instructions`)
 * and, when it is completed but not live, the address where it can be looked at (`previewUrl`).
 */
export type SiteVersionDetail = SiteVersion;

/** The newest draft of a list (newest first), if any. */
export function findDraft(versions: readonly SiteVersionDetail[]): SiteVersionDetail | undefined {
  return versions.find((version) => version.draft === true);
}
