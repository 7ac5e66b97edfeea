import { DEFAULT_USER_SETTINGS, STORAGE_KEYS } from '@mirror/contract';
import type { UserSettings } from '@mirror/contract';

/** A copy of the account's settings kept in the browser (SPEC §3), read when the server is not. */
export function readLocalSettings(): UserSettings {
  try {
    const raw = window.localStorage.getItem(STORAGE_KEYS.settings);
    const parsed = raw ? (JSON.parse(raw) as Partial<UserSettings>) : {};
    return {
      notifications: { ...DEFAULT_USER_SETTINGS.notifications, ...parsed.notifications },
      appearance: { ...DEFAULT_USER_SETTINGS.appearance, ...parsed.appearance },
    };
  } catch {
    return structuredClone(DEFAULT_USER_SETTINGS) as UserSettings;
  }
}

export function writeLocalSettings(settings: UserSettings | null): void {
  try {
    if (settings) window.localStorage.setItem(STORAGE_KEYS.settings, JSON.stringify(settings));
    else window.localStorage.removeItem(STORAGE_KEYS.settings);
  } catch {
    // Without storage the copy on the account is the only one.
  }
}
