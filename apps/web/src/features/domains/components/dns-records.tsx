import type { DnsRecord } from '@mirror/contract';
import { useI18n } from '../../../lib/i18n';
import { notify } from '../../../lib/toast';
import './domains.css';

/**
 * The records to create at the DNS provider, each with copy buttons for its name and value and what
 * the last check found for it.
 */
export function DnsRecords({ records }: { records: readonly DnsRecord[] }) {
  const { t } = useI18n();

  const handleCopy = async (value: string) => {
    try {
      await navigator.clipboard.writeText(value);
      notify.success(t('domains.records.copied'));
    } catch {
      notify.error(t('domains.records.copyFailed'));
    }
  };

  return (
    <div className="dns-table-wrap">
      <table className="dns-table">
        <caption className="visually-hidden">{t('domains.records.caption')}</caption>
        <thead>
          <tr>
            <th scope="col">{t('domains.records.type')}</th>
            <th scope="col">{t('domains.records.name')}</th>
            <th scope="col">{t('domains.records.value')}</th>
            <th scope="col">{t('domains.records.status')}</th>
          </tr>
        </thead>
        <tbody>
          {records.map((record) => {
            const label = `${record.type} ${record.host}`;
            return (
              <tr
                key={`${record.type} ${record.host} ${record.value}`}
                data-testid="dns-record"
                data-status={record.status}
              >
                <td data-label={t('domains.records.type')}>
                  <span className="dns-type">{record.type}</span>
                  <span className="dns-purpose">
                    {t(`domains.records.purposes.${record.purpose}`)}
                    {!record.required && ` · ${t('domains.records.optional')}`}
                  </span>
                </td>
                <td data-label={t('domains.records.name')}>
                  <span className="dns-copy">
                    <code dir="ltr" className="dns-name">
                      {record.name}
                    </code>
                    <button
                      type="button"
                      className="button button-ghost dns-copy-button"
                      aria-label={t('domains.records.copyName', { record: label })}
                      onClick={() => void handleCopy(record.name)}
                    >
                      {t('domains.records.copy')}
                    </button>
                  </span>
                </td>
                <td data-label={t('domains.records.value')}>
                  <span className="dns-copy">
                    <code dir="ltr" className="dns-value">
                      {record.value}
                    </code>
                    <button
                      type="button"
                      className="button button-ghost dns-copy-button"
                      aria-label={t('domains.records.copyValue', { record: label })}
                      onClick={() => void handleCopy(record.value)}
                    >
                      {t('domains.records.copy')}
                    </button>
                  </span>
                </td>
                <td data-label={t('domains.records.status')}>
                  <span className={`dns-state dns-state-${record.status}`}>
                    {t(`domains.records.states.${record.status}`)}
                  </span>
                  {record.status === 'wrong' && record.found.length > 0 && (
                    <span className="dns-found">
                      {t('domains.records.found')} <code dir="ltr">{record.found.join(', ')}</code>
                    </span>
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
