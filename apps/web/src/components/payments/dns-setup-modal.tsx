import { useQuery } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { isValidDomainName, type CloneRecord } from '@mirror/contract';
import { checkDomain } from '../../api/domains';
import { queryKeys } from '../../api/query-keys';
import { customizeSite, getSites, updateSite } from '../../api/sites';
import { FormField } from '../ui/form-field';
import { Modal } from '../ui/modal';
import { Spinner } from '../ui/spinner';
import { paths } from '../../config/paths';
import { getErrorMessage } from '../../lib/api-client';
import { copyWithToast } from '../../lib/clipboard';
import { useI18n } from '../../lib/i18n';
import { notify } from '../../lib/toast';
import { newestSite, readDnsCheck, sitesHostOf, type DnsCheck } from './dns-setup';
import './payments.css';

/**
 * SPEC §2 "DNS setup modal", shown after a successful subscription payment: where the newest site
 * lives, the CNAME record for a custom domain with a real domain check, and optional AI
 * customization of the live site.
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
  // A subdomain change moves the site: from then on the modal shows the address it answers on.
  const [site, setSite] = useState(newest);
  const sitesHost = sitesHostOf(site.previewUrl) ?? sitesHostOf(newest.previewUrl);
  const initialDomain =
    site.targetDomain && sitesHost && !site.targetDomain.endsWith(sitesHost)
      ? site.targetDomain
      : '';
  const [domain, setDomain] = useState(initialDomain);
  const chosenDomain = isValidDomainName(domain) ? domain.trim().toLowerCase() : null;
  const domainError =
    domain.trim() !== '' && !chosenDomain
      ? t('payments.dns.domainInvalid', { host: 'example.com' })
      : undefined;

  return (
    <>
      <dl className="dns-urls">
        <div>
          <dt>{t('payments.dns.siteUrl')}</dt>
          <dd dir="ltr">{chosenDomain ? `https://${chosenDomain}` : (site.previewUrl ?? '–')}</dd>
        </div>
        {site.previewUrl && (
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
          <FormField
            label={t('payments.dns.domainLabel')}
            hint={t('payments.dns.domainHint')}
            error={domainError}
            value={domain}
            placeholder="example.com"
            dir="ltr"
            autoComplete="off"
            onChange={(event) => setDomain(event.target.value)}
          />
          {chosenDomain && (
            <DnsRecord key={chosenDomain} domain={chosenDomain} sitesHost={sitesHost} />
          )}
          <CustomizeForm site={site} sitesHost={sitesHost} onMoved={setSite} />
        </>
      )}
    </>
  );
}

function DnsRecord({ domain, sitesHost }: { domain: string; sitesHost: string }) {
  const { t } = useI18n();
  const headingId = useId();
  const [checking, setChecking] = useState(false);
  const [check, setCheck] = useState<DnsCheck>({ state: 'pending', reason: null });
  const [checkError, setCheckError] = useState<string | null>(null);

  const handleCopy = () =>
    copyWithToast(sitesHost, {
      copied: t('payments.dns.copied'),
      failed: t('payments.dns.copyFailed'),
    });

  const handleCheck = async () => {
    setChecking(true);
    setCheckError(null);
    try {
      const result = readDnsCheck(await checkDomain(domain));
      setCheck(result);
      if (result.state === 'pending') notify.info(t('payments.dns.propagating'));
    } catch (error) {
      const message = getErrorMessage(error, t('payments.dns.checkFailed'));
      setCheckError(message);
      notify.error(t('payments.dns.checkFailed'));
    } finally {
      setChecking(false);
    }
  };

  return (
    <section className="dns-record" aria-labelledby={headingId}>
      <h3 id={headingId} className="dns-record-title">
        {t('payments.dns.recordTitle', { domain })}
      </h3>
      <table className="dns-record-table stack-table">
        <thead>
          <tr>
            <th scope="col">{t('payments.dns.type')}</th>
            <th scope="col">{t('payments.dns.name')}</th>
            <th scope="col">{t('payments.dns.value')}</th>
          </tr>
        </thead>
        <tbody>
          <tr>
            <td data-label={t('payments.dns.type')}>
              <span dir="ltr">CNAME</span>
            </td>
            <td data-label={t('payments.dns.name')}>
              <span dir="ltr">@</span>
            </td>
            <td data-label={t('payments.dns.value')} data-testid="dns-record-value">
              <span dir="ltr">{sitesHost}</span>
            </td>
          </tr>
        </tbody>
      </table>
      <div className="dns-status-row">
        <button type="button" className="button button-outline" onClick={() => void handleCopy()}>
          {t('payments.dns.copy')}
        </button>
        <p className="dns-status" role="status">
          {t('payments.dns.status', {
            status:
              check.state === 'active' && !checking
                ? t('payments.dns.active')
                : t('payments.dns.checking'),
          })}
        </p>
        <button
          type="button"
          className="button button-outline"
          disabled={checking}
          aria-busy={checking || undefined}
          onClick={() => void handleCheck()}
        >
          {checking && <Spinner />}
          {t('payments.dns.checkNow')}
        </button>
      </div>
      {checkError && <p className="field-error">{checkError}</p>}
      {!checkError && check.state === 'pending' && check.reason && (
        <p className="field-hint">{check.reason}</p>
      )}
      <p className="field-hint">{t('payments.dns.propagation')}</p>
    </section>
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
