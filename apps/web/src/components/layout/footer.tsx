import { Link } from 'react-router';
import { paths } from '../../config/paths';
import { getLocaleInfo, useI18n } from '../../lib/i18n';
import { LogoMark } from './logo';

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
        </div>
        <nav className="footer-nav" aria-label={t('footer.label')}>
          {columns.map((column) => (
            <div key={column.title} className="footer-column">
              <h2 className="footer-heading">{column.title}</h2>
              <ul>
                {column.links.map((link) => (
                  <li key={link.label}>
                    <Link to={link.to}>{link.label}</Link>
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
