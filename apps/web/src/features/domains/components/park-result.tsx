import { useEffect, useRef } from 'react';
import { Link } from 'react-router';
import type { ParkedDomain } from '@mirror/contract';
import { paths } from '../../../config/paths';
import { useI18n } from '../../../lib/i18n';
import { DnsRecords } from '../../../components/domains/dns-records';
import { DomainStatusBadge } from '../../../components/domains/domain-status-badge';
import { apexNote } from '../../../lib/apex-note';

/** After parking: what was parked, the DNS records to create next, and the way on. */
export function ParkResult({ record, onReset }: { record: ParkedDomain; onReset: () => void }) {
  const { t } = useI18n();
  const headingRef = useRef<HTMLHeadingElement>(null);

  // The form this card replaces had the focus: move it to the news.
  useEffect(() => headingRef.current?.focus(), []);

  return (
    <section className="panel park-result" aria-labelledby="park-result-title">
      <h2 id="park-result-title" ref={headingRef} tabIndex={-1} className="panel-title">
        {t('domains.result.title')}
      </h2>
      <dl className="park-summary">
        <div>
          <dt>{t('domains.result.domain')}</dt>
          <dd dir="ltr">{record.domain}</dd>
        </div>
        <div>
          <dt>{t('domains.result.status')}</dt>
          <dd>
            <DomainStatusBadge status={record.status} />
          </dd>
        </div>
        <div>
          <dt>{t('domains.result.template')}</dt>
          <dd>{t(`domains.templates.${record.template}.name`)}</dd>
        </div>
      </dl>

      <h3 className="park-subtitle">{t('domains.result.nextSteps')}</h3>
      <ol className="park-steps">
        <li>{t('domains.result.stepRecords')}</li>
        <li>{t('domains.result.stepWait')}</li>
        <li>{t('domains.result.stepCheck')}</li>
      </ol>
      <DnsRecords records={record.records} />
      {record.isApex && <p className="domain-note">{t(apexNote(record.records))}</p>}

      <div className="panel-actions park-result-actions">
        <Link className="button button-primary" to={paths.domain.getHref(record.id)}>
          {t('domains.result.manage')}
        </Link>
        <button type="button" className="button button-outline" onClick={onReset}>
          {t('domains.result.parkAnother')}
        </button>
      </div>
    </section>
  );
}
