import type { DnsRecord } from '@mirror/contract';
import { useI18n } from '../../lib/i18n';
import { copyWithToast } from '../../lib/clipboard';
import './domains.css';

/**
 * The records to create at the DNS provider, each with copy buttons for its name and value and what
 * the last check found for it.
 */
export function DnsRecords({ records }: { records: readonly DnsRecord[] }) {
  const { t } = useI18n();

  const copy = (value: string, labelKey: 'copyName' | 'copyValue', record: string) => (
    <span className="dns-copy">
      <code dir="ltr" className={labelKey === 'copyName' ? 'dns-name' : 'dns-value'}>
        {value}
      </code>
      <button
        type="button"
        className="button button-ghost dns-copy-button"
        aria-label={t(`domains.records.${labelKey}`, { record })}
        onClick={() =>
          void copyWithToast(value, {
            copied: t('domains.records.copied'),
            failed: t('domains.records.copyFailed'),
          })
        }
      >
        {t('domains.records.copy')}
      </button>
    </span>
  );

  return (
    <div className="dns-table-wrap">
      <table className="dns-table stack-table">
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
                  {copy(record.name, 'copyName', label)}
                </td>
                <td data-label={t('domains.records.value')}>
                  {copy(record.value, 'copyValue', label)}
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
