import { Link, useNavigate, useParams } from 'react-router';
import { PageLoader } from '../../../components/ui/page-loader';
import { Panel } from '../../../components/ui/panel';
import { RecordLoadFailed, RecordNotFound } from '../../../components/ui/record-missing';
import { paths } from '../../../config/paths';
import { useDocumentMeta } from '../../../lib/document-meta';
import { formatDateTime } from '../../../lib/format';
import { useI18n } from '../../../lib/i18n';
import type { DomainRecord } from '../api/domain-api';
import { useDomain } from '../hooks/use-domain';
import { CustomDomainSettings } from './custom-domain-settings';
import { DeleteDomainButton } from '../../../components/domains/delete-domain';
import { DomainStatusBadge } from '../../../components/domains/domain-status-badge';
import { DomainVerification } from '../../../components/domains/domain-verification';
import { ParkedMessages } from './parked-messages';
import { ParkedVisits } from './parked-visits';
import { ParkingSettings } from './parking-settings';
import './domains.css';

/**
 * `/dashboard/domain/{id}`: a parked domain or a custom domain of a site. Its DNS status and the
 * records to create with 'Check Now', the parking page and its messages (parked), the site and
 * www redirect (custom), and deletion.
 */
export function DomainPage() {
  const { t } = useI18n();
  const { id = '' } = useParams();
  const domainState = useDomain(id);
  const { load, record } = domainState;

  useDocumentMeta({
    title: t('meta.domain.title', { id: record?.domain ?? id }),
    description: t('meta.domain.description'),
  });

  if (load.state === 'loading') {
    return (
      <div className="page container">
        <PageLoader />
      </div>
    );
  }
  if (load.state === 'not-found' || (load.state === 'ready' && !record)) {
    return (
      <RecordNotFound
        title={t('domains.page.notFoundTitle')}
        body={t('domains.page.notFoundBody')}
      />
    );
  }
  if (load.state === 'error' || !record) {
    return (
      <RecordLoadFailed
        title={t('domains.page.loadFailed')}
        message={load.state === 'error' ? load.message : null}
        onRetry={domainState.retry}
      />
    );
  }
  return <DomainView record={record} domainState={domainState} />;
}

function DomainView({
  record,
  domainState,
}: {
  record: DomainRecord;
  domainState: ReturnType<typeof useDomain>;
}) {
  const { t, locale } = useI18n();
  const navigate = useNavigate();
  const { setRecord, applyCheck } = domainState;
  const isParked = record.kind === 'parked';

  return (
    <div className="page container domain-page">
      <Link className="back-link" to={paths.dashboard.getHref()}>
        <span aria-hidden="true">←</span> {t('site.backToDashboard')}
      </Link>
      <header className="domain-page-header">
        <div>
          <h1 className="page-title domain-title" dir="ltr">
            {record.domain}
          </h1>
          <p className="domain-page-meta">
            <DomainStatusBadge status={record.status} />
            <span>{t(`domains.page.kind.${record.kind}`)}</span>
            <span>
              {t('domains.page.added', { date: formatDateTime(locale, record.createdAt) })}
            </span>
          </p>
        </div>
        {record.status === 'active' && (
          <a
            className="button button-outline"
            href={record.url}
            target="_blank"
            rel="noopener noreferrer"
          >
            {t('domains.page.open')}
          </a>
        )}
      </header>

      <div className="domain-grid">
        <div className="domain-main">
          <Panel title={t('domains.page.dnsTitle')} description={t('domains.page.dnsDescription')}>
            <DomainVerification
              domain={record.domain}
              verification={record}
              onChecked={applyCheck}
            />
          </Panel>
          {isParked ? (
            <ParkingSettings record={record} onSaved={setRecord} />
          ) : (
            <CustomDomainSettings record={record} onSaved={setRecord} />
          )}
        </div>
        <aside className="domain-aside" aria-label={t('domains.page.asideLabel')}>
          {isParked && <ParkedVisits visits={record.visits} />}
          {isParked && <ParkedMessages domainId={record.id} count={record.messageCount} />}
          <Panel
            tone="danger"
            title={t('domains.delete.title')}
            description={t(`domains.delete.description.${record.kind}`)}
          >
            <DeleteDomainButton
              kind={record.kind}
              id={record.id}
              domain={record.domain}
              label={t('domains.delete.button')}
              ariaLabel={t('domains.delete.buttonLabel', { domain: record.domain })}
              onDeleted={() => void navigate(paths.dashboard.getHref())}
            />
          </Panel>
        </aside>
      </div>
    </div>
  );
}
