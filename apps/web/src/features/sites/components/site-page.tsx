import {
  useEffect,
  useRef,
  useState,
  type Dispatch,
  type RefObject,
  type SetStateAction,
} from 'react';
import { Link, useLocation, useParams } from 'react-router';
import type { CloneRecord } from '@mirror/contract';
import { CloneProgress } from '../../../components/mirror/clone-progress';
import { FailureMessage } from '../../../components/mirror/failure-message';
import { SiteFrame } from '../../../components/mirror/site-frame';
import { PageLoader } from '../../../components/ui/page-loader';
import { Panel } from '../../../components/ui/panel';
import { RecordLoadFailed, RecordNotFound } from '../../../components/ui/record-missing';
import { paths } from '../../../config/paths';
import { getErrorMessage } from '../../../lib/api-client';
import { isRunningStatus } from '../../../lib/clone-status';
import { useDocumentMeta } from '../../../lib/document-meta';
import { fidelitySummaryText } from '../../../lib/fidelity';
import { formatDateTime, siteNameOf } from '../../../lib/format';
import { useI18n } from '../../../lib/i18n';
import { scrollBehavior } from '../../../lib/motion';
import { findDraft, type SiteVersionDetail } from '../../../lib/site-versions';
import { notify } from '../../../lib/toast';
import { remirrorSite } from '../../../api/sites';
import { isFidelityActive, useFidelity } from '../hooks/use-fidelity';
import { useSite } from '../hooks/use-site';
import { AnalyticsPanel } from './analytics-panel';
import { CopyAddress } from './copy-address';
import { CustomDomainsPanel } from './custom-domains-panel';
import { CustomizePanel } from './customize-panel';
import { DeleteSite } from './delete-site';
import { ExportButton } from './export-panel';
import { FidelityPanel } from './fidelity-panel';
import { FormsPanel } from './forms-panel';
import { SiteDraftReview } from './site-draft-review';
import { SiteSection, useSiteSections } from './site-sections';
import { SyncSchedulePanel } from './sync-schedule-panel';
import { VersionHistory } from './version-history';
import { WatchesPanel } from './watches-panel';
import './site-page.css';

export function SitePage() {
  const { t } = useI18n();
  const { id = '' } = useParams();
  // A customization run settles with its own words (SPEC §8), a mirror run with the mirror's. A
  // page restored on a change report (issue 33) came here with its run making a draft.
  const draftComing = (useLocation().state as { draftComing?: unknown } | null)?.draftComing;
  const customizingRef = useRef(draftComing === true);
  /** A customization just made a draft: the review comes into view. */
  const [draftMade, setDraftMade] = useState(false);
  const siteState = useSite(id, {
    onRunSettled: (status) => {
      const completed = status.status === 'completed';
      if (customizingRef.current) {
        customizingRef.current = false;
        setDraftMade(completed);
        if (completed) notify.success(t('site.customize.draftReady'));
        else notify.error(t('site.customize.failed'));
      } else if (completed) notify.success(t('toasts.mirrorCreated'));
      else notify.error(t('toasts.mirrorFailed'));
    },
  });
  const { load, site } = siteState;
  const status = site?.status;
  useEffect(() => {
    // Nothing runs: a draft said to be coming (the page loaded again later) is not waited for.
    if (status && !isRunningStatus(status)) customizingRef.current = false;
  }, [status]);

  useDocumentMeta({
    title: site
      ? t('meta.site.title', { id: siteNameOf(site).name })
      : t('meta.site.title', { id }),
    description: t('meta.site.description'),
  });

  if (load.state === 'loading') {
    return (
      <div className="page container">
        <PageLoader />
      </div>
    );
  }
  if (load.state === 'not-found') {
    return <RecordNotFound title={t('site.notFound.title')} body={t('site.notFound.body')} />;
  }
  if (load.state === 'error' || !site) {
    return (
      <RecordLoadFailed
        title={t('site.loadFailed')}
        message={load.state === 'error' ? load.message : null}
        onRetry={siteState.retry}
      />
    );
  }
  return (
    <SiteView
      site={site}
      siteState={siteState}
      customizingRef={customizingRef}
      draftMade={draftMade}
      setDraftMade={setDraftMade}
    />
  );
}

function SiteView({
  site,
  siteState,
  customizingRef,
  draftMade,
  setDraftMade,
}: {
  site: CloneRecord;
  siteState: ReturnType<typeof useSite>;
  customizingRef: RefObject<boolean>;
  draftMade: boolean;
  setDraftMade: Dispatch<SetStateAction<boolean>>;
}) {
  const { t, locale } = useI18n();
  const [remirroring, setRemirroring] = useState(false);
  const running = isRunningStatus(site.status);
  const hasLive = site.liveVersionId !== null;
  const previewUrl = site.previewUrl;
  // Draft first (issue 19): the newest draft waits for review above everything else.
  const draft = siteState.versions ? findDraft(siteState.versions) : undefined;
  // The run panel says why the last run failed; the rows of its versions need not say it again.
  const newest = siteState.versions?.reduce<SiteVersionDetail | undefined>(
    (latest, version) => (!latest || version.number > latest.number ? version : latest),
    undefined,
  );
  const failedRunAt = site.status === 'failed' ? (newest?.createdAt ?? null) : null;
  const onPublished = (record: CloneRecord) => {
    siteState.applyRecord(record);
    void siteState.refreshVersions();
  };

  // How faithful the live version is (issue 21): a line in the header, the report in its panel.
  const fidelityRef = useRef<HTMLDivElement>(null);
  const fidelity = useFidelity(site.id, site.liveVersionId, {
    active: isFidelityActive(site.fidelity?.state),
    onChecked: (report) => {
      // Pages the check repaired went live as a newer version.
      if (report.repairedVersionId && report.repairedVersionId !== site.liveVersionId) {
        notify.success(t('fidelity.repairedVersion'));
        void siteState.refreshSite();
      }
      void siteState.refreshVersions();
    },
  });
  const fidelityLine = fidelitySummaryText(t, locale, fidelity.summary ?? site.fidelity);
  const fidelityState = (fidelity.summary ?? site.fidelity)?.state;
  // Sections (issue 31): an idea carried here to customize opens the edits, wherever it is read.
  const carried = (useLocation().state as { instructions?: unknown } | null)?.instructions;
  const sections = useSiteSections(typeof carried === 'string' && carried ? ['edits'] : []);
  const fidelityOpen = sections.isOpen('fidelity');
  /** The header's line asked for the report while its section was closed: shown once it opens. */
  const fidelityAsked = useRef(false);
  const showFidelity = () => {
    if (fidelityOpen) return bringIntoView(fidelityRef.current);
    fidelityAsked.current = true;
    sections.show('fidelity');
  };
  useEffect(() => {
    if (!fidelityAsked.current || !fidelityOpen) return;
    fidelityAsked.current = false;
    bringIntoView(fidelityRef.current);
  }, [fidelityOpen]);

  const handleRemirror = async () => {
    setRemirroring(true);
    try {
      siteState.applyRecord(await remirrorSite(site.id));
      notify.info(t('site.run.started'));
      void siteState.refreshVersions();
    } catch (error) {
      notify.error(getErrorMessage(error, t('site.run.failed')));
    } finally {
      setRemirroring(false);
    }
  };

  const siteName = siteNameOf(site);
  return (
    <div className="page container site-page">
      <Link className="back-link" to={paths.dashboard.getHref()}>
        <span aria-hidden="true">←</span> {t('site.backToDashboard')}
      </Link>
      <header className="site-page-header">
        <h1 className="page-title site-title" dir={siteName.host ? 'auto' : 'ltr'}>
          {siteName.name}
        </h1>
        {siteName.host && (
          <p className="site-page-host" dir="ltr">
            {siteName.host}
          </p>
        )}
        <p className="site-page-header-meta">
          <span>
            {t('site.header.source')}{' '}
            <a href={site.sourceUrl} target="_blank" rel="noopener noreferrer" dir="ltr">
              {site.sourceUrl}
            </a>
          </span>
          <span>{t('site.header.created', { date: formatDateTime(locale, site.createdAt) })}</span>
          {fidelityLine &&
            (hasLive ? (
              <button
                type="button"
                className="fidelity-link"
                data-state={fidelityState}
                onClick={showFidelity}
              >
                {fidelityLine}
              </button>
            ) : (
              <span>{fidelityLine}</span>
            ))}
        </p>
      </header>

      {/* Issue 31: the hosted address, the status and the main actions come first. */}
      <section className="site-controls" aria-label={t('site.controls.label')}>
        <div className="site-controls-address">
          <p className="site-controls-label">{t('site.address.title')}</p>
          <CopyAddress url={previewUrl} />
        </div>
        <div className="site-controls-status" data-testid="site-status">
          <CloneProgress
            status={site.status}
            currentStatus={site.currentStatus}
            progress={site.progress}
            estimatedTime={site.estimatedTime}
            counts={site.counts}
            currentUrl={site.currentUrl}
          />
          {site.status === 'failed' && site.error && (
            <FailureMessage
              className="site-run-error"
              error={site.error}
              errorKind={site.errorKind}
              errorDetail={site.errorDetail}
              fallback={t('mirror.messages.creationFailed')}
            />
          )}
          {siteState.pollError && (
            <p className="alert alert-error site-run-error" role="alert">
              {t('mirror.messages.pollError', { error: siteState.pollError })}
            </p>
          )}
        </div>
        <div className="site-controls-actions">
          {previewUrl && hasLive && (
            <a
              className="button button-outline"
              href={previewUrl}
              target="_blank"
              rel="noopener noreferrer"
            >
              {t('site.header.openPreview')}
            </a>
          )}
          <button
            type="button"
            className="button button-primary"
            disabled={running || remirroring}
            title={t('site.run.hint')}
            onClick={() => void handleRemirror()}
          >
            {remirroring ? t('site.run.remirroring') : t('site.run.remirror')}
          </button>
          <ExportButton siteId={site.id} available={hasLive} />
          <DeleteSite site={site} />
        </div>
      </section>

      {draft && (
        <SiteDraftReview
          key={draft.id}
          site={site}
          draft={draft}
          scrollIntoView={draftMade}
          onPublished={(record) => {
            setDraftMade(false);
            onPublished(record);
          }}
          onDiscarded={() => {
            setDraftMade(false);
            // The status no longer says a draft waits (issue 31).
            void siteState.refreshSite();
            void siteState.refreshVersions();
          }}
          onUndoStarted={(status) => {
            if (isRunningStatus(status.status)) customizingRef.current = true;
            else void siteState.refreshVersions();
            siteState.applyStatus(status);
          }}
        />
      )}

      <div className="site-sections">
        <SiteSection id="overview" sections={sections}>
          <Panel title={t('site.preview.title')}>
            {previewUrl && site.ownerPreviewUrl && hasLive ? (
              <SiteFrame key={site.liveVersionId} url={previewUrl} src={site.ownerPreviewUrl} />
            ) : (
              <p className="site-muted">{t('site.preview.empty')}</p>
            )}
          </Panel>
        </SiteSection>
        {hasLive && (
          <SiteSection id="fidelity" sections={sections}>
            <FidelityPanel ref={fidelityRef} fidelity={fidelity} />
          </SiteSection>
        )}
        <SiteSection id="edits" sections={sections}>
          <CustomizePanel
            site={site}
            versions={siteState.versions}
            onStarted={(status) => {
              customizingRef.current = true;
              siteState.applyStatus(status);
            }}
            onPublished={onPublished}
          />
        </SiteSection>
        <SiteSection id="versions" sections={sections}>
          <VersionHistory
            siteId={site.id}
            liveVersionId={site.liveVersionId}
            failedRunAt={failedRunAt}
            versions={siteState.versions}
            error={siteState.versionsError}
            onPublished={onPublished}
          />
        </SiteSection>
        <SiteSection id="watches" sections={sections}>
          <WatchesPanel siteId={site.id} />
        </SiteSection>
        <SiteSection id="forms" sections={sections}>
          <FormsPanel siteId={site.id} />
        </SiteSection>
        <SiteSection id="domains" sections={sections}>
          <CustomDomainsPanel site={site} />
        </SiteSection>
        <SiteSection id="analytics" sections={sections}>
          <AnalyticsPanel siteId={site.id} />
        </SiteSection>
        <SiteSection id="settings" sections={sections}>
          <SyncSchedulePanel site={site} onSaved={siteState.applyRecord} />
        </SiteSection>
      </div>
    </div>
  );
}

/** Scrolls a panel to the top of the screen and gives it the focus (a link on the page led there). */
function bringIntoView(panel: HTMLElement | null) {
  panel?.scrollIntoView?.({ behavior: scrollBehavior(), block: 'start' });
  panel?.focus({ preventScroll: true });
}
