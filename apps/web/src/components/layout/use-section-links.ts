import { useLocation } from 'react-router';
import { LOCALES } from '@mirror/contract';
import { paths } from '../../config/paths';
import { getLocaleInfo, useI18n } from '../../lib/i18n';

const LANDING_PATHS = new Set([...LOCALES.map((l) => l.homePath), paths.liveDemo.path]);

/** Links to the landing sections: on a landing route they stay on it, elsewhere they go home. */
export function useSectionLinks() {
  const { locale, t } = useI18n();
  const { pathname } = useLocation();
  const current = pathname.replace(/\/+$/, '') || '/';
  const base = LANDING_PATHS.has(current) ? current : getLocaleInfo(locale).homePath;
  return [
    { to: `${base}#features`, label: t('nav.features') },
    { to: `${base}#how-it-works`, label: t('nav.howItWorks') },
    { to: `${base}#pricing`, label: t('nav.pricing') },
  ];
}
