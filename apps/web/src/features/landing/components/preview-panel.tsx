import { useEffect, useId, useRef, useState } from 'react';
import { Link } from 'react-router';
import type { CloneRecord } from '@mirror/contract';
import { CloneProgress } from '../../../components/mirror/clone-progress';
import { FailureMessage } from '../../../components/mirror/failure-message';
import { SiteFrame } from '../../../components/mirror/site-frame';
import { paths } from '../../../config/paths';
import { fidelitySummaryText } from '../../../lib/fidelity';
import { useI18n } from '../../../lib/i18n';
import { scrollBehavior } from '../../../lib/motion';
import './preview-panel.css';

interface PreviewPanelProps {
  clone: CloneRecord;
  isLoggedIn: boolean;
  /** Opens the register dialog (guests). */
  onRegister: () => void;
  /** Resets the form after a failure. */
  onTryAgain: () => void;
}

/** The live preview of the hero's mirror run (SPEC §2): progress, then the result. */
export function PreviewPanel({ clone, isLoggedIn, onRegister, onTryAgain }: PreviewPanelProps) {
  const { t, locale } = useI18n();
  const headingId = useId();
  const [showFrame, setShowFrame] = useState(false);
  const sectionRef = useRef<HTMLElement>(null);

  const completed = clone.status === 'completed';
  const failed = clone.status === 'failed';
  const previewUrl = clone.previewUrl;
  // Measured after the mirror completes (issue 21); a failed check is not the visitor's concern.
  const fidelity =
    completed && clone.fidelity?.state !== 'failed'
      ? fidelitySummaryText(t, locale, clone.fidelity)
      : null;

  // The panel appears under the fold of the hero: bring it into view when it appears, and again
  // when the mirror is done, with the preview ready to open.
  useEffect(() => {
    sectionRef.current?.scrollIntoView?.({ behavior: scrollBehavior(), block: 'nearest' });
  }, [completed]);

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
        {previewUrl && (
          <p className="preview-url">
            <span className="preview-url-label">{t('hero.panel.previewUrl')}</span>
            <a href={previewUrl} target="_blank" rel="noopener noreferrer" dir="ltr">
              {previewUrl}
            </a>
          </p>
        )}
      </div>

      <CloneProgress
        status={clone.status}
        currentStatus={clone.currentStatus}
        progress={clone.progress}
        estimatedTime={clone.estimatedTime}
        counts={clone.counts}
        currentUrl={clone.currentUrl}
      />

      {fidelity && (
        <p className="preview-fidelity" role="status" data-testid="preview-fidelity">
          {fidelity}
        </p>
      )}

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
          {isLoggedIn ? (
            <Link className="button button-primary" to={paths.site.getHref(clone.id)}>
              {t('hero.panel.manage')}
            </Link>
          ) : (
            <button type="button" className="button button-primary" onClick={onRegister}>
              {t('hero.panel.registerToCustomize')}
            </button>
          )}
        </div>
      )}
      {completed && !isLoggedIn && <p className="preview-note">{t('hero.panel.guestNote')}</p>}
      {completed && previewUrl && showFrame && <SiteFrame url={previewUrl} />}

      {failed && (
        <div className="preview-failed">
          <FailureMessage
            error={clone.error}
            errorKind={clone.errorKind}
            errorDetail={clone.errorDetail}
            fallback={t('mirror.messages.creationFailed')}
          />
          <button type="button" className="button button-primary" onClick={onTryAgain}>
            {t('hero.panel.tryAgain')}
          </button>
        </div>
      )}
    </section>
  );
}
