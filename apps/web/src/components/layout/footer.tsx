import { Link } from 'react-router';
import { paths } from '../../config/paths';
import { getLocaleInfo, useI18n } from '../../lib/i18n';
import { LogoMark } from './logo';

const SOCIAL_ICONS: Record<string, string> = {
  twitter:
    'M17.8 3h3.1l-6.8 7.8L22 21h-6.2l-4.9-6.4L5.3 21H2.2l7.3-8.3L2 3h6.4l4.4 5.8L17.8 3zm-1.1 16.2h1.7L7.4 4.7H5.6l11.1 14.5z',
  github:
    'M12 2a10 10 0 00-3.2 19.5c.5.1.7-.2.7-.5v-1.7c-2.8.6-3.4-1.3-3.4-1.3-.5-1.2-1.1-1.5-1.1-1.5-.9-.6.1-.6.1-.6 1 .1 1.5 1 1.5 1 .9 1.5 2.4 1.1 2.9.8.1-.7.4-1.1.6-1.3-2.2-.3-4.6-1.1-4.6-5 0-1.1.4-2 1-2.7-.1-.3-.4-1.3.1-2.7 0 0 .8-.3 2.8 1a9.6 9.6 0 015 0c1.9-1.3 2.8-1 2.8-1 .5 1.4.2 2.4.1 2.7.6.7 1 1.6 1 2.7 0 3.9-2.3 4.7-4.6 5 .4.3.7.9.7 1.9V21c0 .3.2.6.7.5A10 10 0 0012 2z',
  linkedin:
    'M4.98 3.5a2.5 2.5 0 11-.02 5 2.5 2.5 0 01.02-5zM3 9.5h4V21H3V9.5zm6.5 0h3.8v1.6h.1c.5-1 1.8-2 3.7-2 4 0 4.7 2.6 4.7 6V21h-4v-5.1c0-1.2 0-2.8-1.7-2.8s-2 1.3-2 2.7V21h-4V9.5z',
  youtube:
    'M21.6 7.2a2.5 2.5 0 00-1.8-1.8C18.2 5 12 5 12 5s-6.2 0-7.8.4A2.5 2.5 0 002.4 7.2 26 26 0 002 12a26 26 0 00.4 4.8 2.5 2.5 0 001.8 1.8C5.8 19 12 19 12 19s6.2 0 7.8-.4a2.5 2.5 0 001.8-1.8A26 26 0 0022 12a26 26 0 00-.4-4.8zM10 15V9l5.2 3-5.2 3z',
};

export function Footer() {
  const { locale, t } = useI18n();
  const home = getLocaleInfo(locale).homePath;
  const columns = [
    {
      title: t('footer.product'),
      links: [
        { to: `${home}#features`, label: t('footer.features') },
        { to: `${home}#pricing`, label: t('footer.pricing') },
        { to: paths.liveDemo.getHref(), label: t('footer.liveDemo') },
        { to: paths.parkDomain.getHref(), label: t('footer.parkDomain') },
        { to: paths.roadmap.getHref(), label: t('footer.roadmap') },
      ],
    },
    {
      title: t('footer.company'),
      links: [
        { to: paths.about.getHref(), label: t('footer.about') },
        { to: paths.blog.getHref(), label: t('footer.blog') },
        { to: null, label: t('footer.careers') },
        { to: paths.contact.getHref(), label: t('footer.contact') },
      ],
    },
    {
      title: t('footer.legal'),
      links: [
        { to: paths.terms.getHref(), label: t('footer.terms') },
        { to: paths.privacy.getHref(), label: t('footer.privacy') },
        { to: paths.cookies.getHref(), label: t('footer.cookies') },
      ],
    },
  ];

  return (
    <footer className="site-footer">
      <div className="container footer-grid">
        <div className="footer-brand">
          <div className="footer-logo">
            <LogoMark />
            <span>Mirror</span>
          </div>
          <p className="footer-tagline">{t('footer.tagline')}</p>
          <ul className="social-links" aria-label={t('footer.social')}>
            {Object.entries(SOCIAL_ICONS).map(([name, icon]) => (
              <li key={name}>
                {/* Placeholders until the accounts exist. */}
                <a href="#" className="social-link" aria-label={t(`footer.${name}`)}>
                  <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true">
                    <path d={icon} fill="currentColor" />
                  </svg>
                </a>
              </li>
            ))}
          </ul>
        </div>
        <nav className="footer-nav" aria-label={t('footer.label')}>
          {columns.map((column) => (
            <div key={column.title} className="footer-column">
              <h2 className="footer-heading">{column.title}</h2>
              <ul>
                {column.links.map((link) => (
                  <li key={link.label}>
                    {link.to ? (
                      <Link to={link.to}>{link.label}</Link>
                    ) : (
                      <a href="#">{link.label}</a>
                    )}
                  </li>
                ))}
              </ul>
            </div>
          ))}
        </nav>
      </div>
      <div className="container footer-bottom">
        <p>{t('footer.copyright', { year: new Date().getFullYear() })}</p>
      </div>
    </footer>
  );
}
