import type { DomainStatus } from '@mirror/contract';
import { useI18n } from '../../lib/i18n';
import './domains.css';

/** Active green, pending yellow, misconfigured red (SPEC §4: domains are active or pending). */
export function DomainStatusBadge({ status }: { status: DomainStatus }) {
  const { t } = useI18n();
  return (
    <span className={`domain-status domain-status-${status}`} data-status={status}>
      <span className="domain-status-dot" aria-hidden="true" />
      {t(`domains.status.${status}`)}
    </span>
  );
}
