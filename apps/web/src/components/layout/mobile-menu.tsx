import { Link } from 'react-router';
import { LOCALES } from '@mirror/contract';
import { paths } from '../../config/paths';
import { useAuth } from '../../lib/auth-context';
import { useDialogs } from '../../lib/dialogs';
import { useI18n } from '../../lib/i18n';
import { Avatar } from './avatar';
import { useChangeLanguage } from './use-change-language';
import { useLogout } from './use-logout';
import { useSectionLinks } from './use-section-links';

interface MobileMenuProps {
  id: string;
  open: boolean;
  onClose: () => void;
}

/** The navbar's content for narrow screens: sections, account links, languages. */
export function MobileMenu({ id, open, onClose }: MobileMenuProps) {
  const { locale, t } = useI18n();
  const { isLoggedIn, user } = useAuth();
  const { openDialog } = useDialogs();
  const sectionLinks = useSectionLinks();
  const changeLanguage = useChangeLanguage();
  const handleLogout = useLogout();

  const accountLinks = [
    { to: paths.dashboard.getHref(), label: t('nav.dashboard') },
    { to: paths.parkDomain.getHref(), label: t('nav.parkDomain') },
    { to: paths.profile.getHref(), label: t('nav.profile') },
    { to: paths.billing.getHref(), label: t('nav.billing') },
    { to: paths.settings.getHref(), label: t('nav.settings') },
  ];

  const handleOpenDialog = (name: 'login' | 'register') => {
    onClose();
    openDialog(name);
  };

  return (
    <div id={id} className="mobile-menu" hidden={!open}>
      <nav aria-label={t('nav.mobileLabel')} className="container">
        <ul className="mobile-links">
          {sectionLinks.map((link) => (
            <li key={link.to}>
              <Link className="mobile-link" to={link.to} onClick={onClose}>
                {link.label}
              </Link>
            </li>
          ))}
        </ul>
        {isLoggedIn ? (
          <>
            <div className="mobile-user">
              <Avatar name={user?.name} />
              <div className="menu-user-text">
                <span className="menu-user-name">{user?.name || t('nav.guestName')}</span>
                {user?.email && <span className="menu-user-email">{user.email}</span>}
              </div>
            </div>
            <ul className="mobile-links">
              {accountLinks.map((link) => (
                <li key={link.to}>
                  <Link className="mobile-link" to={link.to} onClick={onClose}>
                    {link.label}
                  </Link>
                </li>
              ))}
              <li>
                <button
                  type="button"
                  className="mobile-link"
                  onClick={() => {
                    onClose();
                    void handleLogout();
                  }}
                >
                  {t('nav.logout')}
                </button>
              </li>
            </ul>
          </>
        ) : (
          <div className="mobile-auth">
            <button
              type="button"
              className="button button-outline"
              onClick={() => handleOpenDialog('login')}
            >
              {t('nav.login')}
            </button>
            <button
              type="button"
              className="button button-primary"
              onClick={() => handleOpenDialog('register')}
            >
              {t('nav.signup')}
            </button>
          </div>
        )}
        <h2 className="mobile-heading">{t('nav.language')}</h2>
        <ul className="mobile-languages">
          {LOCALES.map((info) => (
            <li key={info.code}>
              <button
                type="button"
                className="mobile-language"
                lang={info.code}
                aria-pressed={info.code === locale}
                onClick={() => {
                  changeLanguage(info.code);
                  onClose();
                }}
              >
                <span aria-hidden="true">{info.flag}</span> {info.nativeName}
              </button>
            </li>
          ))}
        </ul>
      </nav>
    </div>
  );
}
