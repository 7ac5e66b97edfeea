import { STORAGE_KEYS } from '@mirror/contract';

/** Ids of the demo mirrors this browser made before signing in; null when there are none. */
export function readPendingDemoIds(): string[] | null {
  let raw: string | null;
  try {
    raw = window.localStorage.getItem(STORAGE_KEYS.demoSites);
  } catch {
    return null;
  }
  if (!raw) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return null;
  }
  if (!Array.isArray(parsed)) return null;
  const ids = parsed.filter((id): id is string => typeof id === 'string' && id !== '');
  return ids.length > 0 ? ids : null;
}

export function clearPendingDemoIds(): void {
  try {
    window.localStorage.removeItem(STORAGE_KEYS.demoSites);
  } catch {
    // Nothing stored that could be removed.
  }
}
