import { Link } from 'react-router';
import { getLocaleInfo, useI18n } from '../../lib/i18n';

export function LogoMark() {
  return (
    <svg className="logo-mark" viewBox="0 0 32 32" width="32" height="32" aria-hidden="true">
      <rect width="32" height="32" rx="9" fill="var(--color-primary)" />
      <path
        d="M9 23V9l7 8 7-8v14"
        fill="none"
        stroke="#fff"
        strokeWidth="2.6"
        strokeLinejoin="round"
      />
      <path
        d="M16 17v6"
        stroke="#fff"
        strokeOpacity="0.55"
        strokeWidth="2.6"
        strokeLinecap="round"
      />
    </svg>
  );
}

export function Logo() {
  const { locale, t } = useI18n();
  return (
    <Link to={getLocaleInfo(locale).homePath} className="logo" aria-label={t('nav.homeLink')}>
      <LogoMark />
      <span className="logo-text" aria-hidden="true">
        Mirror
      </span>
    </Link>
  );
}
