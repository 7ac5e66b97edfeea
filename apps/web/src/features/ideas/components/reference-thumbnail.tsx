import { useEffect, useState } from 'react';
import { Spinner } from '../../../components/ui/spinner';
import { getErrorMessage } from '../../../lib/api-client';
import { displayUrl } from '../../../lib/format';
import { useI18n } from '../../../lib/i18n';
import { notify } from '../../../lib/toast';
import { takeScreenshot } from '../api/take-screenshot';
import type { ReferenceItem } from '../utils/reference-item';

/**
 * A live preview that has not loaded by then counts as failed: frames fire no error event (React
 * does not even listen for one), whatever refused them.
 */
export const PREVIEW_LOAD_TIMEOUT_MS = 15_000;

/** Sites previewed in the grid may run their scripts, nothing more. */
const THUMBNAIL_SANDBOX = 'allow-scripts';

interface ReferenceThumbnailProps {
  item: Pick<ReferenceItem, 'title' | 'url' | 'previewUrl' | 'screenshot'>;
  onScreenshot: (screenshot: string) => void;
}

/**
 * The screenshot when there is one, else the live preview; when both fail, a placeholder with
 * 'Try to Get Screenshot' (SPEC §2, the local image error, iframe error and screenshot loading
 * flags of SPEC §3).
 */
export function ReferenceThumbnail({ item, onScreenshot }: ReferenceThumbnailProps) {
  const { t } = useI18n();
  const [imageError, setImageError] = useState(false);
  const [iframeError, setIframeError] = useState(false);
  const [loading, setLoading] = useState(true);
  const [screenshotLoading, setScreenshotLoading] = useState(false);
  const showImage = item.screenshot !== null && !imageError;
  const showFrame = !showImage && !iframeError;

  useEffect(() => {
    if (!showFrame || !loading) return;
    const timer = setTimeout(() => setIframeError(true), PREVIEW_LOAD_TIMEOUT_MS);
    return () => clearTimeout(timer);
  }, [showFrame, loading]);

  const handleTryScreenshot = async () => {
    setScreenshotLoading(true);
    try {
      const answer = await takeScreenshot(item.url);
      if (answer.success && answer.screenshot) {
        setImageError(false);
        onScreenshot(answer.screenshot);
      } else {
        notify.error(t('ideas.card.screenshotFailed'));
      }
    } catch (error) {
      notify.error(getErrorMessage(error, t('ideas.card.screenshotFailed')));
    } finally {
      setScreenshotLoading(false);
    }
  };

  if (showImage) {
    return (
      <img
        className="reference-thumbnail"
        src={item.screenshot ?? undefined}
        alt={t('ideas.card.screenshotAlt', { title: item.title })}
        loading="lazy"
        onError={() => setImageError(true)}
      />
    );
  }
  if (showFrame) {
    return (
      <div className="reference-frame-wrap">
        <iframe
          className="reference-frame"
          src={item.previewUrl}
          title={t('ideas.card.frameTitle', { title: item.title })}
          sandbox={THUMBNAIL_SANDBOX}
          loading="lazy"
          referrerPolicy="no-referrer"
          tabIndex={-1}
          onLoad={() => setLoading(false)}
        />
      </div>
    );
  }
  return (
    <div className="reference-placeholder">
      <span className="reference-placeholder-host" dir="ltr">
        {displayUrl(item.url)}
      </span>
      <button
        type="button"
        className="button button-outline"
        disabled={screenshotLoading}
        aria-busy={screenshotLoading || undefined}
        onClick={() => void handleTryScreenshot()}
      >
        {screenshotLoading && <Spinner />}
        {t('ideas.card.tryScreenshot')}
      </button>
    </div>
  );
}
