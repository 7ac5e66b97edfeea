import { useId, useState } from 'react';
import { Link } from 'react-router';
import { failureText } from '../../../components/mirror/failure-message';
import { Spinner } from '../../../components/ui/spinner';
import { paths } from '../../../config/paths';
import { useClonePolling } from '../../../hooks/use-clone-polling';
import { getErrorMessage } from '../../../lib/api-client';
import { translateProgressText } from '../../../lib/clone-status';
import { displayUrl } from '../../../lib/format';
import { useI18n } from '../../../lib/i18n';
import { notify } from '../../../lib/toast';
import { createClone, remirrorSite } from '../../../api/sites';
import { canSelectReference, type ReferenceItem } from '../utils/reference-item';
import { ReferenceThumbnail } from './reference-thumbnail';

interface ReferenceCardProps {
  item: ReferenceItem;
  /** The idea searched for: without rewrites it is carried into the site's instructions. */
  idea?: string;
  /**
   * Paid plans rewrite for free ('AI Rewrite'), as does a site whose rewrite was paid for; others
   * pay the price ('$2 AI Rewrite').
   */
  paid: boolean;
  /** Signed-in users can pay the one-off price with a card. */
  canPay: boolean;
  /** The formatted one-off rewrite price, e.g. `$2`. */
  price: string;
  /** Another rewrite is running. */
  rewriteDisabled: boolean;
  /**
   * The server can rewrite (an AI model is connected). When it cannot, no price or rewrite button
   * is shown: customizing the copy with instructions is offered instead.
   */
  rewriteAvailable?: boolean;
  /**
   * Asked before a new mirror is made in the account; resolves false when the user chose not to
   * go on (every mirror slot is in use and they neither replaced a site nor stayed).
   */
  beforeSelect?: () => Promise<boolean>;
  onChange: (patch: Partial<ReferenceItem>) => void;
  onRewrite: () => void;
}

/**
 * One reference website (SPEC §2): thumbnail, title, description, Preview link and 'Select
 * Reference', which mirrors it into the account under a cloning overlay until Ready or Failed.
 */
export function ReferenceCard({
  item,
  idea,
  paid,
  canPay,
  price,
  rewriteDisabled,
  rewriteAvailable = true,
  beforeSelect,
  onChange,
  onRewrite,
}: ReferenceCardProps) {
  const { t } = useI18n();
  const titleId = useId();
  const [starting, setStarting] = useState(false);

  const failClone = (message: string) => {
    onChange({ cloneStatus: 'failed' });
    notify.error(t('ideas.cloneFailed', { error: message }));
  };

  const polling = useClonePolling({
    onSettled: (status) => {
      if (status.status === 'completed') onChange({ cloneStatus: 'completed' });
      // The reason in the reader's words, never an error's raw text (issue 20).
      else failClone(failureText(t, status) || t('ideas.cloneFallback'));
    },
    onError: failClone,
  });

  const handleSelect = async () => {
    if (!canSelectReference(item) || starting) return;
    setStarting(true);
    try {
      // A failed clone is tried again in the same site (no new mirror slot); a new one needs room.
      if (!item.cloneId && beforeSelect && !(await beforeSelect())) return;
      onChange({ cloneStatus: 'cloning' });
      const record = item.cloneId
        ? await remirrorSite(item.cloneId)
        : await createClone({ sourceUrl: item.url, isDemo: false });
      onChange({ cloneId: record.id });
      polling.start(record.id);
    } catch (error) {
      failClone(getErrorMessage(error, t('ideas.cloneFallback')));
    } finally {
      setStarting(false);
    }
  };

  const cloning = item.cloneStatus === 'cloning';
  const progressText = polling.status?.currentStatus
    ? translateProgressText(t, polling.status.currentStatus)
    : t('mirror.progress.cloning');
  const mayRewrite = paid || canPay;

  return (
    <article
      className="reference-card"
      aria-labelledby={titleId}
      aria-busy={cloning || undefined}
      data-testid="reference-card"
      data-clone-status={item.cloneStatus ?? 'none'}
    >
      <div className="reference-media">
        <ReferenceThumbnail item={item} onScreenshot={(screenshot) => onChange({ screenshot })} />
        {cloning && (
          <div className="reference-overlay" role="status">
            <Spinner />
            <span>{progressText}</span>
          </div>
        )}
        {item.cloneStatus === 'completed' && (
          <span className="reference-badge reference-badge-ready">{t('ideas.card.ready')}</span>
        )}
        {item.cloneStatus === 'failed' && (
          <span className="reference-badge reference-badge-failed">{t('ideas.card.failed')}</span>
        )}
      </div>
      <div className="reference-body">
        <h3 id={titleId} className="reference-title">
          {item.title}
        </h3>
        <p className="reference-host" dir="ltr">
          {displayUrl(item.url)}
        </p>
        {item.description && <p className="reference-description">{item.description}</p>}
        <div className="reference-actions">
          <a
            className="button button-ghost"
            href={item.previewUrl}
            target="_blank"
            rel="noopener noreferrer"
          >
            {t('ideas.card.preview')}
          </a>
          {item.cloneStatus !== 'completed' && (
            <button
              type="button"
              className="button button-primary"
              disabled={!canSelectReference(item) || starting}
              onClick={() => void handleSelect()}
            >
              {item.cloneStatus === 'failed' ? t('ideas.card.retry') : t('ideas.card.select')}
            </button>
          )}
          {item.cloneStatus === 'completed' && !rewriteAvailable && item.cloneId && (
            <Link
              className="button button-primary"
              to={paths.site.getHref(item.cloneId)}
              // The site page's instructions field starts with the idea (CustomizePanel).
              state={idea ? { instructions: idea } : undefined}
            >
              {t('ideas.card.customize')}
            </Link>
          )}
          {item.cloneStatus === 'completed' && rewriteAvailable && (
            <button
              type="button"
              className="button button-primary"
              disabled={!mayRewrite || rewriteDisabled}
              aria-describedby={paid ? undefined : `${titleId}-pay`}
              onClick={onRewrite}
            >
              {paid ? t('ideas.card.rewrite') : t('ideas.card.paidRewrite', { price })}
            </button>
          )}
        </div>
        {item.cloneStatus === 'completed' && !rewriteAvailable && (
          <p className="reference-note">{t('ideas.card.rewriteUnavailable')}</p>
        )}
        {item.cloneStatus === 'completed' && rewriteAvailable && !paid && (
          <p id={`${titleId}-pay`} className="reference-note">
            {mayRewrite
              ? t('ideas.card.payNote', { price })
              : t('ideas.card.payUnavailable', { price })}
          </p>
        )}
        {item.cloneStatus === 'completed' && item.cloneId && (
          <Link className="reference-manage" to={paths.site.getHref(item.cloneId)}>
            {t('hero.panel.manage')}
          </Link>
        )}
      </div>
    </article>
  );
}
