import type { CloneStatus } from '@mirror/contract';
import { isRunningStatus, translateProgressText } from '../../lib/clone-status';
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
  /** Seconds left, or null when unknown. */
  estimatedTime: number | null;
}

/** Status label, progress bar, status line and, while running, a spinner with the time left. */
export function CloneProgress({
  status,
  currentStatus,
  progress,
  estimatedTime,
}: CloneProgressProps) {
  const { t } = useI18n();
  const percent = Math.round(Math.min(1, Math.max(0, progress)) * 100);
  const running = isRunningStatus(status);
  const statusText = currentStatus ? translateProgressText(t, currentStatus) : '';
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
          <p className="clone-eta">
            <Spinner />
            {estimatedTime != null
              ? t('mirror.estimatedTime', { seconds: estimatedTime })
              : t('mirror.estimating')}
          </p>
        )}
      </div>
    </div>
  );
}
