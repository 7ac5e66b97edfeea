import type { CloneStatus, RunCounts } from '@mirror/contract';
import { isRunningStatus, translateProgressText } from '../../lib/clone-status';
import { displayUrl, formatNumber } from '../../lib/format';
import { useI18n } from '../../lib/i18n';
import { Spinner } from '../ui/spinner';
import { CloneStatusBadge } from './clone-status-badge';
import './mirror.css';

export interface CloneProgressProps {
  status: CloneStatus;
  /** The server's progress text, e.g. `cloning website`. */
  currentStatus: string;
  /** 0..1 */
  progress: number;
  /** Seconds left; while running, 0 is "almost done" and null "estimating". */
  estimatedTime: number | null;
  /** Pages and files done out of found, while a mirror runs. */
  counts?: RunCounts | null | undefined;
  /** The page being copied, while a mirror runs. */
  currentUrl?: string | null | undefined;
}

/**
 * Status label, progress bar, status line and, while running, a spinner with the time left, the
 * pages and files done out of those found and the page being copied.
 */
export function CloneProgress({
  status,
  currentStatus,
  progress,
  estimatedTime,
  counts,
  currentUrl,
}: CloneProgressProps) {
  const { t, locale } = useI18n();
  const percent = Math.round(Math.min(1, Math.max(0, progress)) * 100);
  const running = isRunningStatus(status);
  const statusText = currentStatus ? translateProgressText(t, currentStatus) : '';
  const showCounts = running && counts && counts.pages.found + counts.files.found > 0;
  return (
    <div className="clone-progress">
      <div className="clone-progress-head">
        <span className="clone-progress-label">{t('mirror.statusLabel')}</span>
        <CloneStatusBadge status={status} />
        <span className="clone-progress-percent" aria-hidden="true">
          {percent}%
        </span>
      </div>
      <div
        className={`progress progress-${status}`}
        role="progressbar"
        aria-label={t('mirror.progressLabel')}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        aria-valuetext={statusText ? `${percent}% (${statusText})` : `${percent}%`}
      >
        <span className="progress-fill" style={{ inlineSize: `${percent}%` }} />
      </div>
      <div className="clone-progress-foot">
        <p className="clone-status-line" data-testid="clone-status-line">
          {statusText}
        </p>
        {running && (
          <p className="clone-eta" data-testid="clone-eta">
            <Spinner />
            {estimatedTime === null
              ? t('mirror.estimating')
              : estimatedTime === 0
                ? t('mirror.almostDone')
                : t('mirror.estimatedTime', { seconds: estimatedTime })}
          </p>
        )}
      </div>
      {showCounts && (
        <p className="clone-counts" data-testid="clone-counts">
          {t('mirror.counts', {
            pagesDone: formatNumber(locale, counts.pages.done),
            pagesFound: formatNumber(locale, counts.pages.found),
            filesDone: formatNumber(locale, counts.files.done),
            filesFound: formatNumber(locale, counts.files.found),
          })}
        </p>
      )}
      {running && currentUrl && <CurrentPage url={currentUrl} />}
    </div>
  );
}

/** "Copying example.com/about", the address kept left-to-right inside any sentence. */
function CurrentPage({ url }: { url: string }) {
  const { t } = useI18n();
  const [before = '', after = ''] = t('mirror.copying', { url: '\u0000' }).split('\u0000');
  const shown = displayUrl(url);
  return (
    <p className="clone-current" data-testid="clone-current" title={url}>
      {before}
      <bdi dir="ltr">{shown}</bdi>
      {after}
    </p>
  );
}
