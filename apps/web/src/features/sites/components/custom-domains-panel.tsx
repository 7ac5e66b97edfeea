import { useQuery } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import {
  DOMAIN_MESSAGES,
  PLANS,
  normalizeDomainName,
  type CloneRecord,
  type CustomDomain,
} from '@mirror/contract';
import { deployDomain, getDomainsOverview } from '../../../api/domains';
import { queryKeys } from '../../../api/query-keys';
import { useCustomDomainUpdates } from '../../../hooks/use-custom-domain-updates';
import { DeleteDomainButton } from '../../../components/domains/delete-domain';
import { DomainStatusBadge } from '../../../components/domains/domain-status-badge';
import { DomainVerification } from '../../../components/domains/domain-verification';
import { FormField } from '../../../components/ui/form-field';
import { Panel } from '../../../components/ui/panel';
import { QueryStatus } from '../../../components/ui/query-status';
import { Spinner } from '../../../components/ui/spinner';
import { paths } from '../../../config/paths';
import { getErrorMessage } from '../../../lib/api-client';
import { useAuth } from '../../../lib/auth-context';
import { EXAMPLE_DOMAIN, validateDomainName } from '../../../lib/domain-name';
import { useI18n } from '../../../lib/i18n';
import { notify } from '../../../lib/toast';
import './custom-domains-panel.css';

/**
 * Custom domains of a site (issue 8): connect one (`POST /domains/deploy`), the records to create
 * with their live status and 'Check Now', and removal. Plan limits are the server's to say.
 */
export function CustomDomainsPanel({ site }: { site: CloneRecord }) {
  const { t } = useI18n();
  const { user } = useAuth();
  const query = useQuery({
    queryKey: queryKeys.domains.overview(),
    queryFn: ({ signal }) => getDomainsOverview(signal),
    select: (overview) => overview.customDomains.filter((domain) => domain.siteId === site.id),
  });

  // What this screen connects or checks goes into the shared overview (dashboard, site page).
  const { update, handleChecked } = useCustomDomainUpdates();

  const limits = PLANS.filter((plan) => plan.limits.customDomains > 0)
    .map((plan) =>
      t('site.domains.planLimit', { plan: plan.name, count: plan.limits.customDomains }),
    )
    .join(' · ');

  return (
    <Panel title={t('site.domains.title')} description={t('site.domains.description')}>
      <QueryStatus
        query={query}
        queryKey={queryKeys.domains.overview()}
        failed={DOMAIN_MESSAGES.fetchFailed}
        className="domains-load-error"
      />
      {query.isSuccess && (
        <>
          {query.data.length > 0 && (
            <ul className="site-domain-list">
              {query.data.map((domain) => (
                <li key={domain.id} className="site-domain" data-testid="site-domain">
                  <div className="site-domain-head">
                    <Link
                      className="site-domain-name"
                      to={paths.domain.getHref(domain.id)}
                      dir="ltr"
                    >
                      {domain.domain}
                    </Link>
                    <DomainStatusBadge status={domain.status} />
                    {domain.status === 'active' && (
                      <a href={domain.url} target="_blank" rel="noopener noreferrer" dir="ltr">
                        {domain.url}
                      </a>
                    )}
                    <span className="site-domain-remove">
                      <DeleteDomainButton
                        kind="custom"
                        id={domain.id}
                        domain={domain.domain}
                        label={t('site.domains.remove')}
                        ariaLabel={t('site.domains.removeLabel', { domain: domain.domain })}
                        onDeleted={() => update((all) => all.filter((d) => d.id !== domain.id))}
                      />
                    </span>
                  </div>
                  <DomainVerification
                    domain={domain.domain}
                    verification={domain}
                    onChecked={handleChecked}
                  />
                </li>
              ))}
            </ul>
          )}
          <AttachDomainForm
            siteId={site.id}
            onAttached={(domain) => update((all) => [...all, domain])}
          />
          {user?.plan === 'free' && (
            <p className="field-hint">
              {limits} <Link to={paths.billing.getHref()}>{t('site.sync.upgradeLink')}</Link>
            </p>
          )}
        </>
      )}
    </Panel>
  );
}

function AttachDomainForm({
  siteId,
  onAttached,
}: {
  siteId: string;
  onAttached: (domain: CustomDomain) => void;
}) {
  const { t } = useI18n();
  const inputId = useId();
  const [domain, setDomain] = useState('');
  const [touched, setTouched] = useState(false);
  const [submitting, setSubmitting] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const rule = validateDomainName(domain);
  const error = touched && rule ? t(rule, { host: EXAMPLE_DOMAIN }) : undefined;

  const handleSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setTouched(true);
    if (rule || submitting) return;
    setSubmitting(true);
    setFailure(null);
    try {
      const attached = await deployDomain({
        siteId,
        domain: normalizeDomainName(domain),
        setupSSL: true,
      });
      onAttached(attached);
      setDomain('');
      setTouched(false);
      notify.success(t('site.domains.attached', { domain: attached.domain }));
    } catch (caught) {
      setFailure(getErrorMessage(caught, t('site.domains.attachFailed')));
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <form className="attach-domain" noValidate onSubmit={(event) => void handleSubmit(event)}>
      {failure && (
        <p className="alert alert-error" role="alert">
          {failure}
        </p>
      )}
      <div className="attach-domain-row">
        <FormField
          id={inputId}
          name="domain"
          label={t('site.domains.label')}
          placeholder={`shop.${EXAMPLE_DOMAIN}`}
          value={domain}
          error={error}
          hint={t('site.domains.hint')}
          autoComplete="off"
          autoCapitalize="none"
          spellCheck={false}
          inputMode="url"
          dir="ltr"
          onChange={(event) => {
            setDomain(event.target.value);
            setFailure(null);
          }}
          onBlur={() => setTouched(true)}
        />
        <button
          type="submit"
          className="button button-primary"
          disabled={submitting}
          aria-busy={submitting || undefined}
        >
          {submitting && <Spinner />}
          {t('site.domains.attach')}
        </button>
      </div>
    </form>
  );
}
