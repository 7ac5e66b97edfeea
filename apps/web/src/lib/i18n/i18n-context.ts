import { createContext } from 'react';
import type { LocaleCode } from '@mirror/contract';
import type { TranslateVars } from './translate';

export interface SetLocaleOptions {
  /** Remember the choice in local storage (language routes and the switcher do). */
  save?: boolean;
}

export interface I18nContextValue {
  locale: LocaleCode;
  dir: 'ltr' | 'rtl';
  t: (key: string, vars?: TranslateVars) => string;
  setLocale: (locale: LocaleCode, options?: SetLocaleOptions) => Promise<void>;
}

export const I18nContext = createContext<I18nContextValue | null>(null);
