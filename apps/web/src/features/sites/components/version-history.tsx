import { useState } from 'react';
import { Link } from 'react-router';
import type { ChangeDigest, CloneRecord } from '@mirror/contract';
import { CloneStatusBadge } from '../../../components/mirror/clone-status-badge';
import { failureText } from '../../../components/mirror/failure-message';
import { Panel } from '../../../components/ui/panel';
import { paths } from '../../../config/paths';
import { getErrorMessage } from '../../../lib/api-client';
import { isRunningStatus } from '../../../lib/clone-status';
import { fidelityScoreText } from '../../../lib/fidelity';
import { formatBytes, formatDateTime, formatNumber } from '../../../lib/format';
import { useI18n } from '../../../lib/i18n';
import type { SiteVersionDetail } from '../../../lib/site-versions';
import { notify } from '../../../lib/toast';
import { publishVersion } from '../../../api/sites';
import { ArchiveDownloads, ImportedFromLine } from './archive-downloads';
import { DRAFT_REVIEW_ID } from './site-draft-review';

interface VersionHistoryProps {
  siteId: string;
  liveVersionId: string | null;
  /**
   * When the run the page reports as failed started: its versions' failure is said there (with
   * its details), not again in their rows.
   */
  failedRunAt?: string | null;
  versions: SiteVersionDetail[] | null;
  error: string | null;
  onPublished: (record: CloneRecord) => void;
}

/**
 * A customization under way is followed in its own panel and in the draft's review: it becomes a
 * row once it has ended (an undo's run then takes the number of the draft it replaces).
 */
const isListed = (version: SiteVersionDetail) =>
  !(version.kind && version.kind !== 'mirror' && isRunningStatus(version.status));

/**
 * Every run of the site, newest first; a completed version that is not live can be published. A
 * draft is reviewed in one place, the review above the sections (issue 31): its row only leads
 * there.
 */
export function VersionHistory({
  siteId,
  liveVersionId,
  failedRunAt = null,
  versions,
  error,
  onPublished,
}: VersionHistoryProps) {
  const { t, locale } = useI18n();
  const [publishing, setPublishing] = useState<string | null>(null);
  const listed = versions?.filter(isListed) ?? null;

  const handlePublish = async (version: SiteVersionDetail) => {
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
      {listed === null && !error && <p className="site-muted">{t('common.loading')}</p>}
      {listed?.length === 0 && <p className="site-muted">{t('site.versions.empty')}</p>}
      {listed && listed.length > 0 && (
        <ol className="version-list">
          {listed.map((version) => {
            // The site record is the newer truth: the list may still be the one fetched before a
            // publish, and two rows must never both say Live.
            const isLive = liveVersionId !== null ? version.id === liveVersionId : version.isLive;
            const label = t('site.versions.version', { number: version.number });
            const fidelity = fidelityScoreText(t, locale, version.fidelity);
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
                    {version.kind && version.kind !== 'mirror' && (
                      <span className="kind-badge">{t(`site.versions.kinds.${version.kind}`)}</span>
                    )}
                    {version.draft && (
                      <span className="draft-badge">{t('site.versions.draft')}</span>
                    )}
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
                    {fidelity && (
                      <>
                        {' · '}
                        <span className="version-fidelity">{fidelity}</span>
                      </>
                    )}
                  </p>
                  {version.importedFrom && <ImportedFromLine origin={version.importedFrom} />}
                  {version.changeDigest && (
                    <ChangeLine
                      digest={version.changeDigest}
                      reportHref={paths.siteChanges.getHref(siteId, version.id)}
                      reportLabel={t('site.versions.changes.reportLabel', {
                        number: version.number,
                      })}
                    />
                  )}
                  {version.checkedUnchangedAt && (
                    <p className="version-changes">
                      {t('site.versions.changes.syncUnchanged', {
                        time: formatDateTime(locale, version.checkedUnchangedAt),
                      })}
                    </p>
                  )}
                  {version.error && version.createdAt !== failedRunAt && (
                    <p className="version-error">{failureText(t, version)}</p>
                  )}
                  {version.draft && (
                    <p className="version-draft-note">
                      {t('site.versions.draftWaiting')}{' '}
                      <a href={`#${DRAFT_REVIEW_ID}`}>{t('site.customize.reviewLink')}</a>
                    </p>
                  )}
                </div>
                {!version.draft && version.status === 'completed' && (
                  <div className="version-actions">
                    <ArchiveDownloads
                      siteId={siteId}
                      versionId={version.id}
                      number={version.number}
                    />
                    {!isLive && version.previewUrl && (
                      <a
                        className="button button-outline"
                        href={version.previewUrl}
                        target="_blank"
                        rel="noopener noreferrer"
                        aria-label={t('site.versions.previewLabel', { number: version.number })}
                      >
                        {t('site.versions.preview')}
                      </a>
                    )}
                    {!isLive && (
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
                  </div>
                )}
              </li>
            );
          })}
        </ol>
      )}
    </Panel>
  );
}

/**
 * What a mirror version changed against the one before it (issue 33), in the app's language: the
 * counts, then the first pages it names, and a link to the whole report.
 */
function ChangeLine({
  digest,
  reportHref,
  reportLabel,
}: {
  digest: ChangeDigest;
  reportHref: string;
  reportLabel: string;
}) {
  const { t, locale } = useI18n();
  if (digest.unchanged)
    return <p className="version-changes">{t('site.versions.changes.noChanges')}</p>;
  const counts = (
    [
      ['pagesChanged', digest.pagesChanged],
      ['pagesAdded', digest.pagesAdded],
      ['pagesRemoved', digest.pagesRemoved],
      ['filesChanged', digest.filesChanged],
    ] as const
  )
    .filter(([, count]) => count > 0)
    .map(([key, count]) =>
      t(`site.versions.changes.${key}`, { count: formatNumber(locale, count) }),
    );
  const named = digest.pagesChanged + digest.pagesAdded + digest.pagesRemoved;
  return (
    <p className="version-changes">
      {counts.join(' · ')}
      {digest.paths.length > 0 && ' — '}
      {digest.paths.map((path, i) => (
        <span key={path}>
          {i > 0 && ', '}
          <bdi className="version-change-path">{path}</bdi>
        </span>
      ))}
      {named > digest.paths.length && ', …'}{' '}
      <Link className="version-report-link" to={reportHref} aria-label={reportLabel}>
        {t('site.versions.changes.viewReport')}
      </Link>
    </p>
  );
}
