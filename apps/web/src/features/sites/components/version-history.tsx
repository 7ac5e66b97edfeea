import { useState } from 'react';
import type { CloneRecord, SiteVersion } from '@mirror/contract';
import { CloneStatusBadge } from '../../../components/mirror/clone-status-badge';
import { Panel } from '../../../components/ui/panel';
import { getErrorMessage } from '../../../lib/api-client';
import { formatBytes, formatDateTime, formatNumber } from '../../../lib/format';
import { useI18n } from '../../../lib/i18n';
import { notify } from '../../../lib/toast';
import { publishVersion } from '../api/site-api';

interface VersionHistoryProps {
  siteId: string;
  liveVersionId: string | null;
  versions: SiteVersion[] | null;
  error: string | null;
  onPublished: (record: CloneRecord) => void;
}

/** Every run of the site, newest first; a completed version that is not live can be published. */
export function VersionHistory({
  siteId,
  liveVersionId,
  versions,
  error,
  onPublished,
}: VersionHistoryProps) {
  const { t, locale } = useI18n();
  const [publishing, setPublishing] = useState<string | null>(null);

  const handlePublish = async (version: SiteVersion) => {
    setPublishing(version.id);
    try {
      onPublished(await publishVersion(siteId, version.id));
      notify.success(t('site.versions.published', { number: version.number }));
    } catch (failure) {
      notify.error(getErrorMessage(failure, t('site.versions.publishFailed')));
    } finally {
      setPublishing(null);
    }
  };

  return (
    <Panel title={t('site.versions.title')} description={t('site.versions.description')}>
      {error && (
        <p className="alert alert-error" role="alert">
          {error}
        </p>
      )}
      {versions === null && !error && <p className="site-muted">{t('common.loading')}</p>}
      {versions?.length === 0 && <p className="site-muted">{t('site.versions.empty')}</p>}
      {versions && versions.length > 0 && (
        <ol className="version-list">
          {versions.map((version) => {
            const isLive = version.isLive || version.id === liveVersionId;
            const label = t('site.versions.version', { number: version.number });
            return (
              <li
                key={version.id}
                className={isLive ? 'version-row is-live' : 'version-row'}
                data-testid="version-row"
                aria-label={label}
              >
                <div className="version-main">
                  <div className="version-title">
                    <strong>{label}</strong>
                    {isLive && <span className="live-badge">{t('site.versions.live')}</span>}
                    <CloneStatusBadge status={version.status} />
                  </div>
                  <p className="version-meta">
                    <time dateTime={version.createdAt}>
                      {formatDateTime(locale, version.createdAt)}
                    </time>
                    {version.status === 'completed' && (
                      <>
                        {' · '}
                        {t('site.versions.stats', {
                          pages: formatNumber(locale, version.pages),
                          assets: formatNumber(locale, version.assets),
                          size: formatBytes(locale, version.bytes),
                        })}
                      </>
                    )}
                    {version.failedUrls > 0 && (
                      <>
                        {' · '}
                        {t('site.versions.failedUrls', {
                          count: formatNumber(locale, version.failedUrls),
                        })}
                      </>
                    )}
                  </p>
                  {version.error && <p className="version-error">{version.error}</p>}
                </div>
                {!isLive && version.status === 'completed' && (
                  <button
                    type="button"
                    className="button button-outline"
                    disabled={publishing !== null}
                    aria-label={t('site.versions.publishLabel', { number: version.number })}
                    onClick={() => void handlePublish(version)}
                  >
                    {publishing === version.id
                      ? t('site.versions.publishing')
                      : t('site.versions.publish')}
                  </button>
                )}
              </li>
            );
          })}
        </ol>
      )}
    </Panel>
  );
}
