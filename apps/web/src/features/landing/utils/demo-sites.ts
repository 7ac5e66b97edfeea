import { STORAGE_KEYS } from '@mirror/contract';

function readIds(): string[] {
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
  const ids = readIds();
  if (!ids.includes(id)) ids.push(id);
  try {
    window.localStorage.setItem(STORAGE_KEYS.demoSites, JSON.stringify(ids));
    return true;
  } catch {
    return false;
  }
}
