import { Link } from 'react-router';
import type { ChangeDigest, CloneRecord } from '@mirror/contract';
import { CloneStatusBadge } from '../../../components/mirror/clone-status-badge';
import { paths } from '../../../config/paths';
import { formatAgo, formatDateTime, formatNumber, siteNameOf } from '../../../lib/format';
import { useI18n, type TranslateVars } from '../../../lib/i18n';

/** The user's mirrors, newest first: status, source, preview and manage links. */
export function SiteList({ sites }: { sites: readonly CloneRecord[] }) {
  const { t, locale } = useI18n();
  if (sites.length === 0) {
    return (
      <div className="dash-empty">
        <p>{t('dashboard.sites.empty')}</p>
        <Link className="button button-primary" to={paths.home.getHref()}>
          {t('dashboard.sites.emptyAction')}
        </Link>
      </div>
    );
  }
  const sorted = [...sites].sort((a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt));
  return (
    <ul className="site-list">
      {sorted.map((site) => {
        const { name, host } = siteNameOf(site);
        return (
          <li key={site.id} className="site-row" data-testid="site-row">
            {site.thumbnailUrl ? (
              <img
                className="site-row-thumb"
                src={site.thumbnailUrl}
                alt={t('dashboard.sites.thumbnail', { site: name })}
                width={96}
                height={60}
                loading="lazy"
              />
            ) : (
              <span className="site-row-thumb site-row-thumb-empty" aria-hidden="true" />
            )}
            <div className="site-row-main">
              <Link
                className="site-row-name"
                to={paths.site.getHref(site.id)}
                dir={host ? 'auto' : 'ltr'}
              >
                {name}
              </Link>
              {host && (
                <span className="site-row-host" dir="ltr">
                  {host}
                </span>
              )}
              <span className="site-row-meta">
                <span className="visually-hidden">{t('dashboard.sites.source')}: </span>
                <span dir="ltr">{site.sourceUrl}</span>
                {' · '}
                {t('dashboard.sites.updated', { date: formatDateTime(locale, site.updatedAt) })}
              </span>
              {site.lastChange && (
                <span className="site-row-change">
                  {t('dashboard.sites.changed', {
                    ago: formatAgo(locale, site.lastChange.at),
                    pages: changedWhat(t, locale, site.lastChange.digest),
                  })}
                </span>
              )}
            </div>
            <CloneStatusBadge status={site.status} />
            <div className="site-row-actions">
              {site.previewUrl && site.status === 'completed' ? (
                <a
                  className="button button-outline"
                  href={site.previewUrl}
                  target="_blank"
                  rel="noopener noreferrer"
                >
                  {t('dashboard.sites.preview')}
                  <span className="visually-hidden"> {name}</span>
                </a>
              ) : null}
              <Link className="button button-outline" to={paths.site.getHref(site.id)}>
                {t('dashboard.sites.manage')}
                <span className="visually-hidden"> {name}</span>
              </Link>
            </div>
          </li>
        );
      })}
    </ul>
  );
}

/** The pages a change names ("/pricing, /about, …"), or, when only files changed, how many. */
function changedWhat(
  t: (key: string, vars?: TranslateVars) => string,
  locale: string,
  digest: ChangeDigest,
): string {
  const pages = digest.pagesChanged + digest.pagesAdded + digest.pagesRemoved;
  if (digest.paths.length === 0)
    return t('site.versions.changes.filesChanged', {
      count: formatNumber(locale, digest.filesChanged),
    });
  return digest.paths.join(', ') + (pages > digest.paths.length ? ', …' : '');
}
