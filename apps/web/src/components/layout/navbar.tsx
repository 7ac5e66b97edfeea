import { useEffect, useId, useState } from 'react';
import { Link, useLocation } from 'react-router';
import { paths } from '../../config/paths';
import { useAuth } from '../../lib/auth-context';
import { useDialogs } from '../../lib/dialogs';
import { useI18n } from '../../lib/i18n';
import { LanguageSwitcher } from './language-switcher';
import { Logo } from './logo';
import { MobileMenu } from './mobile-menu';
import { useSectionLinks } from './use-section-links';
import { UserMenu } from './user-menu';

export function Navbar() {
  const { t } = useI18n();
  const { isLoggedIn } = useAuth();
  const { openDialog } = useDialogs();
  const sectionLinks = useSectionLinks();
  const location = useLocation();
  const mobileMenuId = useId();
  const [mobileOpen, setMobileOpen] = useState(false);
  const [lastLocationKey, setLastLocationKey] = useState(location.key);

  // Any navigation closes the mobile menu (state adjusted during render, not in an effect).
  if (lastLocationKey !== location.key) {
    setLastLocationKey(location.key);
    setMobileOpen(false);
  }

  useEffect(() => {
    if (!mobileOpen) return;
    const handleKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape') setMobileOpen(false);
    };
    document.addEventListener('keydown', handleKeyDown);
    return () => document.removeEventListener('keydown', handleKeyDown);
  }, [mobileOpen]);

  return (
    <header className="site-header">
      <div className="container header-inner">
        <Logo />
        <nav className="nav-desktop" aria-label={t('nav.mainLabel')}>
          <ul className="nav-links">
            {sectionLinks.map((link) => (
              <li key={link.to}>
                <Link className="nav-link" to={link.to}>
                  {link.label}
                </Link>
              </li>
            ))}
            {isLoggedIn && (
              <>
                <li>
                  <Link className="nav-link" to={paths.dashboard.getHref()}>
                    {t('nav.dashboard')}
                  </Link>
                </li>
                <li>
                  <Link className="nav-link" to={paths.parkDomain.getHref()}>
                    {t('nav.parkDomain')}
                  </Link>
                </li>
              </>
            )}
          </ul>
        </nav>
        <div className="header-actions">
          <LanguageSwitcher />
          {isLoggedIn ? (
            <div className="desktop-only">
              <UserMenu />
            </div>
          ) : (
            <div className="desktop-only auth-buttons">
              <button
                type="button"
                className="button button-ghost"
                onClick={() => openDialog('login')}
              >
                {t('nav.login')}
              </button>
              <button
                type="button"
                className="button button-primary"
                onClick={() => openDialog('register')}
              >
                {t('nav.signup')}
              </button>
            </div>
          )}
          <button
            type="button"
            className="nav-button hamburger"
            aria-expanded={mobileOpen}
            aria-controls={mobileMenuId}
            aria-label={mobileOpen ? t('nav.closeMenu') : t('nav.openMenu')}
            onClick={() => setMobileOpen((open) => !open)}
          >
            <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true">
              {mobileOpen ? (
                <path
                  d="M6 6l12 12M18 6L6 18"
                  stroke="currentColor"
                  strokeWidth="2"
                  strokeLinecap="round"
                />
              ) : (
                <path
                  d="M4 7h16M4 12h16M4 17h16"
                  stroke="currentColor"
                  strokeWidth="2"
                  strokeLinecap="round"
                />
              )}
            </svg>
          </button>
        </div>
      </div>
      <MobileMenu id={mobileMenuId} open={mobileOpen} onClose={() => setMobileOpen(false)} />
    </header>
  );
}
