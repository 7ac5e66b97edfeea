import type { DomainCheckResponse, DomainVerification as Verification } from '@mirror/contract';
import { apexNote } from '../../lib/apex-note';
import { formatDateTime } from '../../lib/format';
import { useI18n } from '../../lib/i18n';
import { Spinner } from '../ui/spinner';
import { useDomainCheck } from './use-domain-check';
import { DnsRecords } from './dns-records';
import { DomainStatusBadge } from './domain-status-badge';
import './domains.css';

interface DomainVerificationProps {
  domain: string;
  verification: Verification;
  /** A check answered: the caller merges the new state into its record. */
  onChecked: (answer: DomainCheckResponse) => void;
}

/**
 * The DNS side of a custom or parked domain: its status with the reason when it is not active, the
 * records to create with what the last check found, and 'Check Now'.
 */
export function DomainVerification({ domain, verification, onChecked }: DomainVerificationProps) {
  const { t, locale } = useI18n();
  const { checking, error, check } = useDomainCheck(domain, onChecked);
  const { status, problem, reason, records, isApex, checkedAt, verifiedAt, nextCheckAt } =
    verification;

  return (
    <div className="domain-verification" data-testid="domain-verification">
      <div className="dns-status-row">
        <p className="dns-status-line" role="status" aria-live="polite">
          <span>{t('domains.check.label')}</span>{' '}
          {checking ? (
            <span className="dns-checking">{t('domains.check.checking')}</span>
          ) : (
            <DomainStatusBadge status={status} />
          )}
        </p>
        <button
          type="button"
          className="button button-outline"
          disabled={checking}
          aria-busy={checking || undefined}
          onClick={() => void check()}
        >
          {checking && <Spinner />}
          {t('domains.check.now')}
        </button>
      </div>

      {error && (
        <p className="alert alert-error" role="alert">
          {error}
        </p>
      )}

      {status !== 'active' && problem && (
        <div
          className={`domain-problem ${status === 'misconfigured' ? 'domain-problem-error' : ''}`}
          data-testid="domain-problem"
        >
          <p className="domain-problem-title">{t(`domains.problems.${problem}`)}</p>
          {reason && (
            <p className="domain-problem-reason" dir="ltr">
              {reason}
            </p>
          )}
        </div>
      )}

      {status === 'active' ? (
        <p className="domain-note">
          {verifiedAt
            ? t('domains.check.verifiedAt', { date: formatDateTime(locale, verifiedAt) })
            : t('domains.check.verified')}{' '}
          {t('domains.check.ssl')}
        </p>
      ) : (
        <p className="domain-note">{t('domains.records.intro')}</p>
      )}

      <DnsRecords records={records} />

      {isApex && status !== 'active' && <p className="domain-note">{t(apexNote(records))}</p>}
      <p className="domain-note domain-note-muted">
        {status !== 'active' && <>{t('domains.records.propagation')} </>}
        {checkedAt && t('domains.check.lastChecked', { date: formatDateTime(locale, checkedAt) })}
        {status !== 'active' && checkedAt && ' '}
        {status !== 'active' &&
          (nextCheckAt
            ? t('domains.check.nextCheck', { date: formatDateTime(locale, nextCheckAt) })
            : checkedAt && t('domains.check.stopped'))}
      </p>
    </div>
  );
}
