import { useId } from 'react';
import { LOCALES } from '@mirror/contract';
import { getLocaleInfo, useI18n } from '../../lib/i18n';
import { useChangeLanguage } from './use-change-language';
import { useMenu } from './use-menu';

export function LanguageSwitcher() {
  const { locale, t } = useI18n();
  const changeLanguage = useChangeLanguage();
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
  const current = getLocaleInfo(locale);

  return (
    <div className="menu-container" ref={containerRef}>
      <button
        ref={buttonRef}
        type="button"
        className="nav-button language-button"
        aria-haspopup="menu"
        aria-expanded={isOpen}
        aria-controls={isOpen ? menuId : undefined}
        aria-label={t('nav.languageMenu', { language: current.nativeName })}
        onClick={toggle}
        onKeyDown={handleButtonKeyDown}
      >
        <span aria-hidden="true" className="flag">
          {current.flag}
        </span>
        <span className="language-code" aria-hidden="true">
          {current.code.toUpperCase()}
        </span>
        <svg className="chevron" viewBox="0 0 20 20" width="14" height="14" aria-hidden="true">
          <path d="M5 8l5 5 5-5" fill="none" stroke="currentColor" strokeWidth="2" />
        </svg>
      </button>
      {isOpen && (
        <ul
          ref={menuRef}
          id={menuId}
          role="menu"
          aria-label={t('nav.language')}
          className="menu menu-language"
          onKeyDown={handleMenuKeyDown}
        >
          {LOCALES.map((info) => (
            <li key={info.code} role="none">
              <button
                type="button"
                role="menuitemradio"
                aria-checked={info.code === locale}
                tabIndex={-1}
                lang={info.code}
                className="menu-item"
                onClick={() => {
                  changeLanguage(info.code);
                  close(true);
                }}
              >
                <span aria-hidden="true" className="flag">
                  {info.flag}
                </span>
                <span>{info.nativeName}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
