import {
  DEFAULT_LOCALE,
  LOCALES,
  STORAGE_KEYS,
  isLocaleCode,
  matchLocale,
  type LocaleCode,
} from '@mirror/contract';

/** The language a route forces: only the language home paths (/es, /ru, ...) carry one. */
export function localeFromPath(pathname: string): LocaleCode | null {
  const normalized = pathname.replace(/\/+$/, '') || '/';
  const match = LOCALES.find((l) => l.code !== DEFAULT_LOCALE && l.homePath === normalized);
  return match ? match.code : null;
}

export function readSavedLocale(): LocaleCode | null {
  try {
    const saved = window.localStorage.getItem(STORAGE_KEYS.language);
    return isLocaleCode(saved) ? saved : null;
  } catch {
    return null;
  }
}

export function saveLocale(locale: LocaleCode): void {
  try {
    window.localStorage.setItem(STORAGE_KEYS.language, locale);
  } catch {
    // Storage can be unavailable (private mode); the choice then lasts for this page only.
  }
}

export interface LocaleSources {
  pathname: string;
  saved: LocaleCode | null;
  browserLanguages: readonly string[];
}

/** Route language, then the saved choice, then the browser's languages, then English. */
export function detectLocale({ pathname, saved, browserLanguages }: LocaleSources): LocaleCode {
  return localeFromPath(pathname) ?? saved ?? matchLocale(browserLanguages) ?? DEFAULT_LOCALE;
}

export function detectBrowserLocale(): LocaleCode {
  return detectLocale({
    pathname: window.location.pathname,
    saved: readSavedLocale(),
    browserLanguages: navigator.languages?.length ? navigator.languages : [navigator.language],
  });
}

export function getLocaleInfo(locale: LocaleCode) {
  return LOCALES.find((l) => l.code === locale) ?? LOCALES[0]!;
}
