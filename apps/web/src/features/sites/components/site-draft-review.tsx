import { useEffect, useRef, useState } from 'react';
import type { CloneRecord, CloneStatusResponse } from '@mirror/contract';
import { DraftReview, type ReviewAction } from '../../../components/mirror/draft-review';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { Panel } from '../../../components/ui/panel';
import { getErrorMessage } from '../../../lib/api-client';
import { isRunningStatus } from '../../../lib/clone-status';
import { useI18n } from '../../../lib/i18n';
import type { SiteVersionDetail } from '../../../lib/site-versions';
import { notify } from '../../../lib/toast';
import { discardVersion, publishVersion, undoEdit } from '../../../api/sites';

export const DRAFT_REVIEW_ID = 'draft-review';

interface SiteDraftReviewProps {
  site: CloneRecord;
  draft: SiteVersionDetail;
  /** Bring the review into view when it appears (a customization just finished). */
  scrollIntoView?: boolean;
  onPublished: (record: CloneRecord) => void;
  onDiscarded: () => void;
  /** An undo started a run making the draft without that edit. */
  onUndoStarted: (status: CloneStatusResponse) => void;
}

/**
 * A draft of the site (issue 19: every customization is one) beside the live site, with its edits
 * each undoable, to publish or discard. Full width of the page so both pages can be compared.
 */
export function SiteDraftReview({
  site,
  draft,
  scrollIntoView = false,
  onPublished,
  onDiscarded,
  onUndoStarted,
}: SiteDraftReviewProps) {
  const { t } = useI18n();
  const [pending, setPending] = useState<ReviewAction | null>(null);
  const [undoing, setUndoing] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  /** Discarding cannot be undone: it asks first (issue 31). */
  const [confirmingDiscard, setConfirmingDiscard] = useState(false);
  const ref = useRef<HTMLDivElement>(null);
  const running = isRunningStatus(site.status);

  useEffect(() => {
    if (scrollIntoView) ref.current?.scrollIntoView?.({ behavior: 'smooth', block: 'start' });
  }, [scrollIntoView, draft.id]);

  const act = async (action: ReviewAction, work: () => Promise<void>, fallback: string) => {
    setPending(action);
    setError(null);
    try {
      await work();
    } catch (failure) {
      setError(getErrorMessage(failure, fallback));
    } finally {
      setPending(null);
      setUndoing(null);
    }
  };

  const publish = () =>
    act(
      'publish',
      async () => {
        onPublished(await publishVersion(site.id, draft.id));
        notify.success(t('site.review.published'));
      },
      t('site.versions.publishFailed'),
    );

  const discard = () =>
    act(
      'discard',
      async () => {
        await discardVersion(site.id, draft.id);
        onDiscarded();
        notify.info(t('site.review.discarded'));
      },
      t('site.versions.discardFailed'),
    );

  const undo = (index: number) => {
    setUndoing(index);
    return act(
      'undo',
      async () => {
        const status = await undoEdit(site.id, draft.id, index);
        if (isRunningStatus(status.status)) notify.info(t('site.review.undoStarted'));
        else notify.info(t('site.review.discarded'));
        onUndoStarted(status);
      },
      t('site.review.undoFailed'),
    );
  };

  return (
    <div id={DRAFT_REVIEW_ID} ref={ref} className="site-review">
      <Panel
        title={t('site.review.title', { number: draft.number })}
        description={t('site.review.description')}
      >
        <DraftReview
          liveUrl={site.ownerPreviewUrl}
          draftUrl={draft.previewUrl}
          edits={draft.edits}
          changes={draft.changes}
          unparsed={draft.unparsed}
          pending={pending}
          undoing={undoing}
          error={error}
          disabled={running}
          header={
            running ? (
              <p className="site-muted" role="status">
                {t('site.review.updating')}
              </p>
            ) : undefined
          }
          onPublish={() => void publish()}
          onDiscard={() => setConfirmingDiscard(true)}
          onUndo={(index) => void undo(index)}
        />
      </Panel>
      {confirmingDiscard && (
        <ConfirmDialog
          danger
          title={t('site.review.discardTitle', { number: draft.number })}
          message={t('site.review.discardMessage')}
          confirmLabel={t('site.review.discardConfirm')}
          cancelLabel={t('site.review.discardKeep')}
          onConfirm={() => {
            setConfirmingDiscard(false);
            void discard();
          }}
          onCancel={() => setConfirmingDiscard(false)}
        />
      )}
    </div>
  );
}
