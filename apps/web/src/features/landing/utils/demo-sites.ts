import { STORAGE_KEYS } from '@mirror/contract';

/** The demo mirrors this browser made and kept, oldest first. */
export function readDemoSiteIds(): string[] {
  try {
    const parsed: unknown = JSON.parse(window.localStorage.getItem(STORAGE_KEYS.demoSites) ?? '[]');
    return Array.isArray(parsed) ? parsed.filter((id): id is string => typeof id === 'string') : [];
  } catch {
    return [];
  }
}

/**
 * Remembers a demo mirror made by a visitor (SPEC §3 local storage: a list of demo site ids), so
 * that the next login or registration claims it. Returns false when the browser keeps no storage.
 */
export function saveDemoSiteId(id: string): boolean {
  const ids = readDemoSiteIds();
  if (!ids.includes(id)) ids.push(id);
  try {
    window.localStorage.setItem(STORAGE_KEYS.demoSites, JSON.stringify(ids));
    return true;
  } catch {
    return false;
  }
}

/** Drops a demo that failed: it is not worth claiming, nor showing again (issue 31, item 7). */
export function forgetDemoSiteId(id: string): void {
  const ids = readDemoSiteIds().filter((kept) => kept !== id);
  try {
    if (ids.length > 0) window.localStorage.setItem(STORAGE_KEYS.demoSites, JSON.stringify(ids));
    else window.localStorage.removeItem(STORAGE_KEYS.demoSites);
  } catch {
    // Nothing stored that could be changed.
  }
}
