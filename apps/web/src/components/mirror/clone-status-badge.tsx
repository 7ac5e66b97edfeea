import type { CloneStatus } from '@mirror/contract';
import { useI18n } from '../../lib/i18n';
import './mirror.css';

/** The status label, coloured by status: pending and processing yellow, completed green, failed red. */
export function CloneStatusBadge({ status }: { status: CloneStatus }) {
  const { t } = useI18n();
  return (
    <span className={`status-badge status-${status}`} data-status={status}>
      <span className="status-dot" aria-hidden="true" />
      {t(`mirror.status.${status}`)}
    </span>
  );
}
