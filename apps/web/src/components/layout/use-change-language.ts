import { useCallback } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { LOCALES, type LocaleCode } from '@mirror/contract';
import { useI18n } from '../../lib/i18n';

const HOME_PATHS = new Set(LOCALES.map((l) => l.homePath));

/** On a language home the URL follows the language; elsewhere only the interface switches. */
export function useChangeLanguage() {
  const { setLocale } = useI18n();
  const { pathname, hash } = useLocation();
  const navigate = useNavigate();

  return useCallback(
    (code: LocaleCode) => {
      const info = LOCALES.find((l) => l.code === code);
      void setLocale(code, { save: true });
      const current = pathname.replace(/\/+$/, '') || '/';
      if (info && HOME_PATHS.has(current) && current !== info.homePath) {
        void navigate(`${info.homePath}${hash}`);
      }
    },
    [setLocale, pathname, hash, navigate],
  );
}
