import { useId } from 'react';
import { Link } from 'react-router';
import { paths } from '../../config/paths';
import { useAuth } from '../../lib/auth-context';
import { useI18n } from '../../lib/i18n';
import { Avatar } from './avatar';
import { useLogout } from './use-logout';
import { useMenu } from './use-menu';

export function UserMenu() {
  const { t } = useI18n();
  const { user } = useAuth();
  const {
    isOpen,
    toggle,
    close,
    buttonRef,
    menuRef,
    containerRef,
    handleButtonKeyDown,
    handleMenuKeyDown,
  } = useMenu();
  const menuId = useId();
  const handleLogout = useLogout();
  const name = user?.name || t('nav.guestName');

  const links = [
    { to: paths.dashboard.getHref(), label: t('nav.dashboard') },
    { to: paths.profile.getHref(), label: t('nav.profile') },
    { to: paths.billing.getHref(), label: t('nav.billing') },
    { to: paths.settings.getHref(), label: t('nav.settings') },
  ];

  return (
    <div className="menu-container" ref={containerRef}>
      <button
        ref={buttonRef}
        type="button"
        className="nav-button user-button"
        aria-haspopup="menu"
        aria-expanded={isOpen}
        aria-controls={isOpen ? menuId : undefined}
        aria-label={t('nav.userMenu', { name })}
        onClick={toggle}
        onKeyDown={handleButtonKeyDown}
      >
        <Avatar name={user?.name} />
      </button>
      {isOpen && (
        <div className="menu menu-user">
          <div className="menu-user-header">
            <Avatar name={user?.name} />
            <div className="menu-user-text">
              <span className="menu-user-name">{name}</span>
              {user?.email && <span className="menu-user-email">{user.email}</span>}
            </div>
          </div>
          <ul
            ref={menuRef}
            id={menuId}
            role="menu"
            aria-label={t('nav.userMenu', { name })}
            className="menu-list"
            onKeyDown={handleMenuKeyDown}
          >
            {links.map((link) => (
              <li key={link.to} role="none">
                <Link
                  role="menuitem"
                  tabIndex={-1}
                  className="menu-item"
                  to={link.to}
                  onClick={() => close()}
                >
                  {link.label}
                </Link>
              </li>
            ))}
            <li role="none" className="menu-separator-before">
              <button
                type="button"
                role="menuitem"
                tabIndex={-1}
                className="menu-item"
                onClick={() => {
                  close();
                  void handleLogout();
                }}
              >
                {t('nav.logout')}
              </button>
            </li>
          </ul>
        </div>
      )}
    </div>
  );
}
