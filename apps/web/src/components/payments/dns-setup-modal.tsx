import { useQuery } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import {
  DOMAIN_MESSAGES,
  getPlan,
  normalizeDomainName,
  type CloneRecord,
  type CustomDomain,
} from '@mirror/contract';
import { deployDomain, getDomainsOverview } from '../../api/domains';
import { queryKeys } from '../../api/query-keys';
import { useCustomDomainUpdates } from '../../hooks/use-custom-domain-updates';
import { customizeSite, getSites, updateSite } from '../../api/sites';
import { DomainStatusBadge } from '../domains/domain-status-badge';
import { DomainVerification } from '../domains/domain-verification';
import { FormField } from '../ui/form-field';
import { Modal } from '../ui/modal';
import { Spinner } from '../ui/spinner';
import { paths } from '../../config/paths';
import { getErrorMessage } from '../../lib/api-client';
import { useAuth } from '../../lib/auth-context';
import { EXAMPLE_DOMAIN, validateDomainName } from '../../lib/domain-name';
import { useI18n } from '../../lib/i18n';
import { notify } from '../../lib/toast';
import { newestSite, sitesHostOf } from './dns-setup';
import './payments.css';

/**
 * SPEC §2 "DNS setup modal", shown after a successful subscription payment: where the newest site
 * lives, connecting a custom domain with the records the site page shows for it (issue 31, item
 * 2: the same component, so `www`/label CNAME, ALIAS or A/AAAA at an apex, the TXT proof, never a
 * CNAME at `@` for a subdomain) and a real domain check, and optional AI customization.
 */
export function DnsSetupModal({ onClose }: { onClose: () => void }) {
  const { t } = useI18n();
  const navigate = useNavigate();
  const query = useQuery({
    queryKey: queryKeys.sites.list(),
    queryFn: ({ signal }) => getSites(signal),
    select: newestSite,
  });
  const site = query.data ?? null;

  return (
    <Modal
      title={t('payments.dns.title')}
      description={t('payments.dns.description')}
      onClose={onClose}
      footer={
        <div className="confirm-actions">
          <button type="button" className="button button-outline" onClick={onClose}>
            {t('common.close')}
          </button>
          <button
            type="button"
            className="button button-primary"
            onClick={() => {
              onClose();
              void navigate(paths.dashboard.getHref());
            }}
          >
            {t('payments.dns.goToDashboard')}
          </button>
        </div>
      }
    >
      <div className="dns-setup">
        {query.isPending && (
          <p className="checkout-loading" role="status">
            <Spinner /> {t('common.loading')}
          </p>
        )}
        {query.isError && (
          <p className="alert alert-error" role="alert">
            {t('payments.dns.loadFailed')}
          </p>
        )}
        {query.isSuccess && !site && <p>{t('payments.dns.noSite')}</p>}
        {site && <SiteSetup site={site} />}
      </div>
    </Modal>
  );
}

function SiteSetup({ site: newest }: { site: CloneRecord }) {
  const { t } = useI18n();
  const { user } = useAuth();
  // A subdomain change moves the site: from then on the modal shows the address it answers on.
  const [site, setSite] = useState(newest);
  const sitesHost = sitesHostOf(site.previewUrl) ?? sitesHostOf(newest.previewUrl);
  const domainsIncluded = getPlan(user?.plan ?? 'free').limits.customDomains > 0;
  const domains = useQuery({
    queryKey: queryKeys.domains.overview(),
    queryFn: ({ signal }) => getDomainsOverview(signal),
    select: (overview) => overview.customDomains.filter((domain) => domain.siteId === site.id),
    enabled: domainsIncluded,
  });
  const attached = domains.data?.[0] ?? null;

  // What this screen connects or checks goes into the shared overview (dashboard, site page).
  const { update, handleChecked } = useCustomDomainUpdates();

  return (
    <>
      {/* One address until a custom domain is connected; then it, and the temporary one. */}
      <dl className="dns-urls">
        <div>
          <dt>{t('payments.dns.siteUrl')}</dt>
          <dd dir="ltr" data-testid="dns-site-url">
            {attached ? (
              <>
                {attached.url} <DomainStatusBadge status={attached.status} />
              </>
            ) : site.previewUrl ? (
              <a href={site.previewUrl} target="_blank" rel="noopener noreferrer">
                {site.previewUrl}
              </a>
            ) : (
              '–'
            )}
          </dd>
        </div>
        {attached && site.previewUrl && (
          <div>
            <dt>{t('payments.dns.temporaryUrl')}</dt>
            <dd dir="ltr">
              <a href={site.previewUrl} target="_blank" rel="noopener noreferrer">
                {site.previewUrl}
              </a>
            </dd>
          </div>
        )}
      </dl>
      {sitesHost && (
        <>
          {!domainsIncluded ? (
            <p className="dns-upgrade" data-testid="dns-upgrade">
              {t('payments.dns.domainsNeedUpgrade')}{' '}
              <Link to={paths.billing.getHref()}>{t('site.sync.upgradeLink')}</Link>
            </p>
          ) : attached ? (
            <section className="dns-record" aria-labelledby={`dns-records-${attached.id}`}>
              <h3 id={`dns-records-${attached.id}`} className="dns-record-title">
                {t('payments.dns.recordsFor', { domain: attached.domain })}
              </h3>
              <DomainVerification
                domain={attached.domain}
                verification={attached}
                onChecked={handleChecked}
              />
            </section>
          ) : domains.isSuccess ? (
            <ConnectDomainForm
              siteId={site.id}
              onConnected={(domain) => update((all) => [...all, domain])}
            />
          ) : domains.isError ? (
            <p className="alert alert-error" role="alert">
              {getErrorMessage(domains.error, DOMAIN_MESSAGES.fetchFailed)}
            </p>
          ) : (
            <p className="checkout-loading" role="status">
              <Spinner /> {t('common.loading')}
            </p>
          )}
          <CustomizeForm site={site} sitesHost={sitesHost} onMoved={setSite} />
        </>
      )}
    </>
  );
}

/**
 * Connects the typed domain to the site (`POST /domains/deploy`, as the site page does): nothing
 * is saved until the button is pressed, and a refusal says that nothing was saved.
 */
function ConnectDomainForm({
  siteId,
  onConnected,
}: {
  siteId: string;
  onConnected: (domain: CustomDomain) => void;
}) {
  const { t } = useI18n();
  const [domain, setDomain] = useState('');
  const [touched, setTouched] = useState(false);
  const [submitting, setSubmitting] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const rule = validateDomainName(domain);
  const error =
    touched && rule && domain.trim() !== ''
      ? t('payments.dns.domainInvalid', { host: EXAMPLE_DOMAIN })
      : undefined;

  const handleSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setTouched(true);
    if (rule || submitting) return;
    setSubmitting(true);
    setFailure(null);
    try {
      const connected = await deployDomain({
        siteId,
        domain: normalizeDomainName(domain),
        setupSSL: true,
      });
      onConnected(connected);
      notify.success(t('site.domains.attached', { domain: connected.domain }));
    } catch (caught) {
      setFailure(
        t('payments.dns.notSaved', {
          error: getErrorMessage(caught, t('site.domains.attachFailed')),
        }),
      );
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <form className="dns-connect" noValidate onSubmit={(event) => void handleSubmit(event)}>
      {failure && (
        <p className="alert alert-error" role="alert">
          {failure}
        </p>
      )}
      <FormField
        label={t('payments.dns.domainLabel')}
        hint={t('payments.dns.domainSaveHint')}
        error={error}
        value={domain}
        placeholder={`shop.${EXAMPLE_DOMAIN}`}
        dir="ltr"
        autoComplete="off"
        autoCapitalize="none"
        spellCheck={false}
        inputMode="url"
        onChange={(event) => {
          setDomain(event.target.value);
          setFailure(null);
        }}
        onBlur={() => setTouched(true)}
      />
      <button
        type="submit"
        className="button button-outline"
        disabled={submitting || domain.trim() === ''}
        aria-busy={submitting || undefined}
      >
        {submitting && <Spinner />}
        {t('site.domains.attach')}
      </button>
    </form>
  );
}

function CustomizeForm({
  site,
  sitesHost,
  onMoved,
}: {
  site: CloneRecord;
  sitesHost: string;
  onMoved: (site: CloneRecord) => void;
}) {
  const { t } = useI18n();
  const subdomainId = useId();
  const instructionsId = useId();
  const [subdomain, setSubdomain] = useState('');
  const [instructions, setInstructions] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [applying, setApplying] = useState(false);

  const handleSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const name = subdomain.trim();
    const text = instructions.trim();
    if (name === '' && text === '') {
      setError(t('payments.dns.needOne'));
      return;
    }
    setError(null);
    setApplying(true);
    try {
      if (name !== '') {
        const moved = await updateSite(site.id, { targetDomain: name });
        onMoved(moved);
        const host = moved.previewUrl ? new URL(moved.previewUrl).host : `${name}.${sitesHost}`;
        notify.success(t('payments.dns.subdomainChanged', { host }));
        setSubdomain('');
      }
      if (text !== '') {
        // A draft, as every edit (issue 19): it goes live when the owner publishes it.
        await customizeSite(site.id, { instructions: text });
        notify.success(t('payments.dns.draftStarted'));
        setInstructions('');
      }
    } catch (failure) {
      notify.error(getErrorMessage(failure, t('payments.dns.applyFailed')));
    } finally {
      setApplying(false);
    }
  };

  return (
    <form className="dns-customize" noValidate onSubmit={(event) => void handleSubmit(event)}>
      <h3 className="dns-record-title">{t('payments.dns.customizeTitle')}</h3>
      <div className="field">
        <label className="field-label" htmlFor={subdomainId}>
          {t('payments.dns.subdomainLabel')}
        </label>
        <div className="input-suffix-row" dir="ltr">
          <input
            id={subdomainId}
            className="input"
            value={subdomain}
            placeholder="my-site"
            autoComplete="off"
            aria-describedby={`${subdomainId}-hint`}
            onChange={(event) => setSubdomain(event.target.value)}
          />
          <span className="input-suffix">.{sitesHost}</span>
        </div>
        <p id={`${subdomainId}-hint`} className="field-hint">
          {t('payments.dns.subdomainHint')}
        </p>
      </div>
      <div className="field">
        <label className="field-label" htmlFor={instructionsId}>
          {t('payments.dns.instructionsLabel')}
        </label>
        <textarea
          id={instructionsId}
          className="input textarea"
          rows={3}
          value={instructions}
          placeholder={t('hero.url.instructionsPlaceholder')}
          onChange={(event) => setInstructions(event.target.value)}
        />
      </div>
      {error && (
        <p className="alert alert-error" role="alert">
          {error}
        </p>
      )}
      <button
        type="submit"
        className="button button-secondary"
        disabled={applying}
        aria-busy={applying || undefined}
      >
        {applying && <Spinner />}
        {t('payments.dns.apply')}
      </button>
    </form>
  );
}
