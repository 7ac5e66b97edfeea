export const LOCALE_CODES = ['en', 'es', 'ru', 'zh', 'ar', 'hi', 'th', 'id'] as const;
export type LocaleCode = (typeof LOCALE_CODES)[number];
export const DEFAULT_LOCALE: LocaleCode = 'en';

export interface LocaleInfo {
  code: LocaleCode;
  /** English name. */
  name: string;
  nativeName: string;
  flag: string;
  dir: 'ltr' | 'rtl';
  /** BCP 47 tag used for number and date formatting. */
  tag: string;
  /** Home path of the language: English uses /. */
  homePath: string;
}

export const LOCALES: readonly LocaleInfo[] = [
  {
    code: 'en',
    name: 'English',
    nativeName: 'English',
    flag: '🇺🇸',
    dir: 'ltr',
    tag: 'en-US',
    homePath: '/',
  },
  {
    code: 'es',
    name: 'Spanish',
    nativeName: 'Español',
    flag: '🇪🇸',
    dir: 'ltr',
    tag: 'es-ES',
    homePath: '/es',
  },
  {
    code: 'ru',
    name: 'Russian',
    nativeName: 'Русский',
    flag: '🇷🇺',
    dir: 'ltr',
    tag: 'ru-RU',
    homePath: '/ru',
  },
  {
    code: 'zh',
    name: 'Chinese',
    nativeName: '中文',
    flag: '🇨🇳',
    dir: 'ltr',
    tag: 'zh-CN',
    homePath: '/zh',
  },
  {
    code: 'ar',
    name: 'Arabic',
    nativeName: 'العربية',
    flag: '🇸🇦',
    dir: 'rtl',
    tag: 'ar',
    homePath: '/ar',
  },
  {
    code: 'hi',
    name: 'Hindi',
    nativeName: 'हिन्दी',
    flag: '🇮🇳',
    dir: 'ltr',
    tag: 'hi-IN',
    homePath: '/hi',
  },
  {
    code: 'th',
    name: 'Thai',
    nativeName: 'ไทย',
    flag: '🇹🇭',
    dir: 'ltr',
    tag: 'th-TH',
    homePath: '/th',
  },
  {
    code: 'id',
    name: 'Indonesian',
    nativeName: 'Bahasa Indonesia',
    flag: '🇮🇩',
    dir: 'ltr',
    tag: 'id-ID',
    homePath: '/id',
  },
];

export function isLocaleCode(value: unknown): value is LocaleCode {
  return typeof value === 'string' && (LOCALE_CODES as readonly string[]).includes(value);
}

/** Picks the first supported language from a list such as navigator.languages or Accept-Language. */
export function matchLocale(candidates: readonly string[]): LocaleCode | null {
  for (const candidate of candidates) {
    const base = candidate.trim().toLowerCase().split(/[-_;]/)[0];
    if (isLocaleCode(base)) return base;
  }
  return null;
}
