import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import type { LocaleCode } from '@mirror/contract';
import { detectBrowserLocale, getLocaleInfo, saveLocale } from './detect-locale';
import { I18nContext, type I18nContextValue, type SetLocaleOptions } from './i18n-context';
import { englishMessages, getCachedMessages, loadMessages } from './load-messages';
import { createTranslator, type Messages } from './translate';

interface LoadedLocale {
  locale: LocaleCode;
  messages: Messages;
}

interface I18nProviderProps {
  children: ReactNode;
  /** Tests pass the language; the app detects it from the URL, storage and browser. */
  initialLocale?: LocaleCode;
}

export function I18nProvider({ children, initialLocale }: I18nProviderProps) {
  const [initial] = useState<LocaleCode>(() => initialLocale ?? detectBrowserLocale());
  const [loaded, setLoaded] = useState<LoadedLocale | null>(() => {
    const cached = getCachedMessages(initial);
    return cached ? { locale: initial, messages: cached } : null;
  });
  const requested = useRef<LocaleCode>(initial);

  const setLocale = useCallback(async (locale: LocaleCode, options: SetLocaleOptions = {}) => {
    requested.current = locale;
    if (options.save) saveLocale(locale);
    let messages: Messages;
    try {
      messages = await loadMessages(locale);
    } catch (error) {
      console.error(`Could not load the ${locale} translations`, error);
      messages = englishMessages();
    }
    // A later choice wins over a slower earlier load.
    if (requested.current === locale) setLoaded({ locale, messages });
  }, []);

  // English comes in two parts (the landing page's is here at once): the rest, and any other
  // language, is loaded now.
  useEffect(() => {
    void setLocale(initial);
  }, [initial, setLocale]);

  const locale = loaded?.locale;
  useEffect(() => {
    if (!locale) return;
    const info = getLocaleInfo(locale);
    document.documentElement.lang = info.code;
    document.documentElement.dir = info.dir;
  }, [locale]);

  // Nothing renders until the active language is here, so keys never flash on screen.
  if (!loaded) return null;
  return (
    <LoadedI18nProvider loaded={loaded} setLocale={setLocale}>
      {children}
    </LoadedI18nProvider>
  );
}

interface LoadedI18nProviderProps {
  loaded: LoadedLocale;
  setLocale: I18nContextValue['setLocale'];
  children: ReactNode;
}

function LoadedI18nProvider({ loaded, setLocale, children }: LoadedI18nProviderProps) {
  const value = useMemo<I18nContextValue>(
    () => ({
      locale: loaded.locale,
      dir: getLocaleInfo(loaded.locale).dir,
      t: createTranslator(loaded.messages, englishMessages),
      setLocale,
    }),
    [loaded, setLocale],
  );
  return <I18nContext.Provider value={value}>{children}</I18nContext.Provider>;
}
