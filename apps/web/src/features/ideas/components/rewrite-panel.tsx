import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { CloneProgress } from '../../../components/mirror/clone-progress';
import { DraftReview } from '../../../components/mirror/draft-review';
import { Spinner } from '../../../components/ui/spinner';
import { paths } from '../../../config/paths';
import { useI18n } from '../../../lib/i18n';
import { notify } from '../../../lib/toast';
import { useRewriteRun } from '../hooks/use-rewrite-run';
import type { ReferenceItem } from '../utils/reference-item';

interface RewritePanelProps {
  reference: Pick<ReferenceItem, 'title' | 'url'>;
  /** The reference's mirror in the account, rewritten in place as a draft version. */
  cloneId: string;
  idea: string;
  /** Start the rewrite at once, without extra instructions (it was just paid for). */
  autoStart?: boolean;
  onBusyChange: (busy: boolean) => void;
}

/**
 * The AI rewrite of a chosen reference for the idea: optional extra instructions, progress, then the
 * draft's changes to publish or discard.
 */
export function RewritePanel({
  reference,
  cloneId,
  idea,
  autoStart = false,
  onBusyChange,
}: RewritePanelProps) {
  const { t } = useI18n();
  const headingId = useId();
  const instructionsId = useId();
  const [instructions, setInstructions] = useState('');
  const sectionRef = useRef<HTMLElement>(null);
  const autoStarted = useRef(false);
  const run = useRewriteRun({
    onFailed: (message) => notify.error(t('ideas.rewrite.failed', { error: message })),
    onPublished: () => notify.success(t('ideas.rewrite.publishedToast')),
    onDiscarded: () => notify.info(t('ideas.rewrite.discardedToast')),
  });

  useEffect(() => {
    sectionRef.current?.scrollIntoView?.({ behavior: 'smooth', block: 'nearest' });
  }, []);
  useEffect(() => onBusyChange(run.busy), [run.busy, onBusyChange]);
  const { start } = run;
  useEffect(() => {
    if (!autoStart || autoStarted.current) return;
    autoStarted.current = true;
    void start({ sourceUrl: reference.url, cloneId, originalIdea: idea, aiInstructions: '' });
  }, [autoStart, start, reference.url, cloneId, idea]);
  useEffect(() => () => onBusyChange(false), [onBusyChange]);

  const handleSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (run.busy) return;
    void run.start({
      sourceUrl: reference.url,
      cloneId,
      originalIdea: idea,
      aiInstructions: instructions.trim(),
    });
  };

  const showForm = run.phase === 'idle' || run.phase === 'starting' || run.phase === 'failed';
  const reviewing =
    run.phase === 'review' || run.phase === 'publishing' || run.phase === 'discarding';
  const siteId = run.siteId ?? cloneId;

  return (
    <section
      ref={sectionRef}
      className="rewrite-panel"
      aria-labelledby={headingId}
      data-phase={run.phase}
    >
      <h3 id={headingId} className="rewrite-title">
        {t('ideas.rewrite.title', { title: reference.title })}
      </h3>
      <p className="rewrite-idea">
        <span className="rewrite-idea-label">{t('ideas.rewrite.ideaLabel')}</span> {idea}
      </p>

      {showForm && (
        <form className="rewrite-form" noValidate onSubmit={handleSubmit}>
          <label className="field-label" htmlFor={instructionsId}>
            {t('ideas.rewrite.instructionsLabel')}
          </label>
          <textarea
            id={instructionsId}
            name="aiInstructions"
            className="input textarea"
            rows={3}
            placeholder={t('ideas.rewrite.instructionsPlaceholder')}
            value={instructions}
            onChange={(event) => setInstructions(event.target.value)}
          />
          {run.phase === 'failed' && run.error && (
            <p className="alert alert-error" role="alert">
              {t('ideas.rewrite.failed', { error: run.error })}
            </p>
          )}
          <button
            type="submit"
            className="button button-primary"
            disabled={run.phase === 'starting'}
            aria-busy={run.phase === 'starting' || undefined}
          >
            {run.phase === 'starting' && <Spinner />}
            {t('ideas.rewrite.start')}
          </button>
        </form>
      )}

      {run.phase === 'rewriting' && (
        <div role="status" className="rewrite-progress">
          <p className="rewrite-progress-text">{t('ideas.rewrite.rewriting')}</p>
          <CloneProgress
            status={run.status?.status ?? 'pending'}
            currentStatus={run.status?.currentStatus ?? ''}
            progress={run.status?.progress ?? 0}
            estimatedTime={run.status?.estimatedTime ?? null}
          />
        </div>
      )}

      {reviewing && run.draft && (
        <div className="rewrite-review" data-testid="rewrite-draft">
          {/* The same review as a customization's: the draft beside the site it rewrites. */}
          <DraftReview
            header={
              <>
                <h4 className="rewrite-subtitle">{t('ideas.rewrite.reviewTitle')}</h4>
                <p className="rewrite-hint">{t('ideas.rewrite.reviewHint')}</p>
              </>
            }
            liveUrl={run.previewUrl}
            draftUrl={run.draft.previewUrl}
            changes={run.draft.changes}
            unparsed={run.draft.unparsed}
            pending={
              run.phase === 'publishing' ? 'publish' : run.phase === 'discarding' ? 'discard' : null
            }
            error={run.error}
            onPublish={() => void run.publish()}
            onDiscard={() => void run.discard()}
          />
        </div>
      )}

      {run.phase === 'published' && (
        <div className="rewrite-done">
          <p className="alert alert-success" role="status">
            {t('ideas.rewrite.published')}
          </p>
          <div className="rewrite-actions">
            {run.previewUrl && (
              <a
                className="button button-outline"
                href={run.previewUrl}
                target="_blank"
                rel="noopener noreferrer"
              >
                {t('hero.panel.openNewTab')}
              </a>
            )}
            <Link className="button button-primary" to={paths.site.getHref(siteId)}>
              {t('hero.panel.manage')}
            </Link>
          </div>
        </div>
      )}

      {run.phase === 'discarded' && (
        <div className="rewrite-done">
          <p className="rewrite-hint" role="status">
            {t('ideas.rewrite.discarded')}
          </p>
          <button type="button" className="button button-outline" onClick={run.reset}>
            {t('ideas.rewrite.again')}
          </button>
        </div>
      )}
    </section>
  );
}
