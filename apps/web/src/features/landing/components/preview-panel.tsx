import { useQuery } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState } from 'react';
import { Link } from 'react-router';
import type { FidelitySummary } from '@mirror/contract';
import { getSites } from '../../../api/sites';
import { queryKeys } from '../../../api/query-keys';
import { CloneProgress } from '../../../components/mirror/clone-progress';
import { FailureMessage, retryMayHelp } from '../../../components/mirror/failure-message';
import { SiteFrame } from '../../../components/mirror/site-frame';
import { paths } from '../../../config/paths';
import { fidelitySummaryText } from '../../../lib/fidelity';
import { formatNumber } from '../../../lib/format';
import { useI18n } from '../../../lib/i18n';
import { scrollBehavior } from '../../../lib/motion';
import type { RunClone } from '../hooks/use-mirror-run';
import './preview-panel.css';

interface PreviewPanelProps {
  clone: RunClone;
  isLoggedIn: boolean;
  /** Opens the register dialog for this demo (guests). */
  onRegister: () => void;
  /** Mirrors the same address again, after a failure another try may cure. */
  onTryAgain: () => void;
  /** Clears the run and puts the cursor in the address, after a failure a retry cannot cure. */
  onNewAddress: () => void;
}

/**
 * The live preview of the hero's mirror run (SPEC §2): progress, then the result. Each outcome is
 * said once, by the status label (issue 31, item 7); the address is a link only once there is a
 * copy behind it.
 */
export function PreviewPanel({
  clone,
  isLoggedIn,
  onRegister,
  onTryAgain,
  onNewAddress,
}: PreviewPanelProps) {
  const { t } = useI18n();
  const headingId = useId();
  const [showFrame, setShowFrame] = useState(false);
  const sectionRef = useRef<HTMLElement>(null);
  const frameRef = useRef<HTMLDivElement>(null);

  const completed = clone.status === 'completed';
  const failed = clone.status === 'failed';
  const previewUrl = clone.previewUrl;
  const manage = useManageable(clone, isLoggedIn && completed);

  // The panel appears under the fold of the hero: bring it into view when it appears, and again
  // when the mirror is done, with the preview ready to open.
  useEffect(() => {
    sectionRef.current?.scrollIntoView?.({ behavior: scrollBehavior(), block: 'nearest' });
  }, [completed]);
  // The frame opens under the buttons: on a phone, below the fold. Bring it into view.
  useEffect(() => {
    if (showFrame)
      frameRef.current?.scrollIntoView?.({ behavior: scrollBehavior(), block: 'nearest' });
  }, [showFrame]);

  return (
    <section
      ref={sectionRef}
      className="preview-panel"
      aria-labelledby={headingId}
      data-status={clone.status}
    >
      <div className="preview-panel-head">
        <h2 id={headingId} className="preview-panel-title">
          {t('hero.panel.title')}
        </h2>
        {previewUrl && !failed && (
          <p className="preview-url">
            <span className="preview-url-label">{t('hero.panel.previewUrl')}</span>
            {completed ? (
              <a href={previewUrl} target="_blank" rel="noopener noreferrer" dir="ltr">
                {previewUrl}
              </a>
            ) : (
              <span className="preview-url-pending" dir="ltr">
                {previewUrl}
              </span>
            )}
          </p>
        )}
      </div>

      <CloneProgress
        status={clone.status}
        // The status label says "Completed" or "Failed": no status line repeats it.
        currentStatus={completed || failed ? '' : clone.currentStatus}
        progress={clone.progress}
        estimatedTime={clone.estimatedTime}
        counts={clone.counts}
        currentUrl={clone.currentUrl}
      />

      {completed && <FidelityNote fidelity={clone.fidelity} />}

      {completed && previewUrl && (
        <div className="preview-actions">
          <button
            type="button"
            className="button button-outline"
            aria-expanded={showFrame}
            onClick={() => setShowFrame((open) => !open)}
          >
            {showFrame ? t('hero.panel.closePreview') : t('hero.panel.livePreview')}
          </button>
          <a
            className="button button-outline"
            href={previewUrl}
            target="_blank"
            rel="noopener noreferrer"
          >
            {t('hero.panel.openNewTab')}
          </a>
          {!isLoggedIn && (
            <button type="button" className="button button-primary" onClick={onRegister}>
              {t('hero.panel.registerToCustomize')}
            </button>
          )}
          {manage === 'yours' && (
            <Link className="button button-primary" to={paths.site.getHref(clone.id)}>
              {t('hero.panel.manage')}
            </Link>
          )}
        </div>
      )}
      {completed && !isLoggedIn && <p className="preview-note">{t('hero.panel.guestNote')}</p>}
      {completed && manage === 'not-yours' && (
        <p className="preview-note" data-testid="preview-not-claimed">
          {t('hero.panel.notClaimed')}{' '}
          <Link to={paths.billing.getHref()}>{t('hero.panel.seePlans')}</Link>
        </p>
      )}
      {completed && previewUrl && showFrame && (
        <div ref={frameRef}>
          <SiteFrame url={previewUrl} />
        </div>
      )}

      {failed && (
        <div className="preview-failed">
          <FailureMessage
            error={clone.error}
            errorKind={clone.errorKind}
            errorDetail={clone.errorDetail}
            fallback={t('mirror.messages.creationFailed')}
          />
          {retryMayHelp(clone.errorKind) ? (
            <button type="button" className="button button-primary" onClick={onTryAgain}>
              {t('hero.panel.tryAgain')}
            </button>
          ) : (
            <button type="button" className="button button-outline" onClick={onNewAddress}>
              {t('hero.panel.tryAnotherAddress')}
            </button>
          )}
        </div>
      )}
    </section>
  );
}

/**
 * Whether a signed-in user may manage this mirror: their own run, or a demo their sign-up claimed
 * (one it could not claim, for want of room in the plan, is not theirs: issue 31, item 1).
 */
function useManageable(clone: RunClone, signedIn: boolean): 'yours' | 'not-yours' | 'unknown' {
  const demo = clone.isDemo !== false;
  const sites = useQuery({
    queryKey: queryKeys.sites.list(),
    queryFn: ({ signal }) => getSites(signal),
    enabled: signedIn && demo,
  });
  if (!signedIn) return 'unknown';
  if (!demo) return 'yours';
  if (!sites.isSuccess) return 'unknown';
  return sites.data.some((site) => site.id === clone.id) ? 'yours' : 'not-yours';
}

/**
 * The fidelity check that follows a completed mirror (issue 31, item 10): how far it got while it
 * runs, then the score and what it means. A failed check is not the visitor's concern.
 */
function FidelityNote({ fidelity }: { fidelity: FidelitySummary | null | undefined }) {
  const { t, locale } = useI18n();
  if (!fidelity || fidelity.state === 'failed') return null;
  if (fidelity.state === 'completed') {
    const summary = fidelitySummaryText(t, locale, fidelity);
    if (!summary) return null;
    return (
      <div className="preview-fidelity-block">
        <p className="preview-fidelity" role="status" data-testid="preview-fidelity">
          {summary}
        </p>
        <p className="preview-fidelity-meaning">{t('hero.panel.fidelityMeaning')}</p>
      </div>
    );
  }
  const progress = fidelity.state === 'running' ? fidelity.progress : null;
  const counting = progress && progress.total > 0 && progress.done < progress.total;
  const text =
    fidelity.state === 'queued'
      ? t('hero.panel.fidelityQueued')
      : !progress || progress.total === 0
        ? t('hero.panel.fidelityStarting')
        : counting
          ? t('hero.panel.fidelityProgress', {
              done: formatNumber(locale, progress.done),
              total: formatNumber(locale, progress.total),
            })
          : t('hero.panel.fidelityFinishing');
  const percent =
    progress && progress.total > 0 ? Math.round((progress.done / progress.total) * 100) : 0;
  return (
    <div className="preview-fidelity-block">
      <p className="preview-fidelity-progress" role="status" data-testid="preview-fidelity">
        {text}
      </p>
      {progress && progress.total > 0 && (
        <div
          className="progress progress-processing preview-fidelity-bar"
          role="progressbar"
          aria-label={t('hero.panel.fidelityProgressLabel')}
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={percent}
        >
          <span className="progress-fill" style={{ inlineSize: `${percent}%` }} />
        </div>
      )}
    </div>
  );
}
