import { useEffect, useState } from 'react';
import { Spinner } from '../../../components/ui/spinner';
import { getErrorMessage } from '../../../lib/api-client';
import { displayUrl } from '../../../lib/format';
import { useI18n } from '../../../lib/i18n';
import { notify } from '../../../lib/toast';
import { getScreenshotStatus } from '../api/get-screenshot-status';
import { takeScreenshot } from '../api/take-screenshot';
import type { ReferenceItem } from '../utils/reference-item';

/**
 * A live preview that has not loaded by then counts as failed: frames fire no error event (React
 * does not even listen for one), whatever refused them.
 */
export const PREVIEW_LOAD_TIMEOUT_MS = 15_000;
/** While a card has no screenshot, it asks the server this often whether one was captured… */
export const SCREENSHOT_POLL_MS = 3_000;
/** …for this long, then shows 'No preview available'. */
export const SCREENSHOT_WAIT_MS = 60_000;

/** Sites previewed in the grid may run their scripts, nothing more. */
const THUMBNAIL_SANDBOX = 'allow-scripts';

type ThumbnailItem = Pick<
  ReferenceItem,
  'title' | 'url' | 'previewUrl' | 'screenshot' | 'frameable'
>;

interface ReferenceThumbnailProps {
  item: ThumbnailItem;
  onScreenshot: (screenshot: string) => void;
  /** Tests only: shorter waits than SCREENSHOT_POLL_MS and SCREENSHOT_WAIT_MS. */
  timing?: { pollMs: number; waitMs: number };
}

/** An https page cannot frame an http site (mixed content), whatever the site allows. */
function canFrame(item: ThumbnailItem, frameable: boolean): boolean {
  if (!frameable) return false;
  return !(window.location.protocol === 'https:' && item.previewUrl.startsWith('http:'));
}

function faviconOf(url: string): string | null {
  try {
    return new URL('/favicon.ico', url).href;
  } catch {
    return null;
  }
}

/**
 * The server's screenshot of the reference (SPEC §2); while it has none yet, a placeholder that
 * polls for the background capture and, after SCREENSHOT_WAIT_MS or a failed capture, 'No preview
 * available' with the site's icon and 'Try to Get Screenshot'. A live, interactive frame only
 * when the site allows framing (`frameable`), behind the 'Live preview' toggle.
 */
export function ReferenceThumbnail({ item, onScreenshot, timing }: ReferenceThumbnailProps) {
  const { t } = useI18n();
  const [imageError, setImageError] = useState(false);
  /** What the status call said once the background capture arrived; the search's flag before. */
  const [polledFrameable, setPolledFrameable] = useState<boolean | null>(null);
  const frameable = polledFrameable ?? item.frameable;
  const [live, setLive] = useState(false);
  const [frameLoaded, setFrameLoaded] = useState(false);
  const [frameError, setFrameError] = useState(false);
  const [gaveUp, setGaveUp] = useState(false);
  const [screenshotLoading, setScreenshotLoading] = useState(false);
  const [iconError, setIconError] = useState(false);
  const hasImage = item.screenshot !== null && !imageError;
  const frameAllowed = canFrame(item, frameable) && !frameError;
  // A broken picture of a site that may be framed falls back to the live frame.
  const showFrame = frameAllowed && (live || (item.screenshot !== null && imageError));
  const waiting = item.screenshot === null && !gaveUp;

  // No picture yet: the server is capturing it in the background. Ask until it is there.
  useEffect(() => {
    if (!waiting) return;
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const pollMs = timing?.pollMs ?? SCREENSHOT_POLL_MS;
    const deadline = Date.now() + (timing?.waitMs ?? SCREENSHOT_WAIT_MS);
    const poll = async () => {
      try {
        const answer = await getScreenshotStatus(item.url, controller.signal);
        if (controller.signal.aborted) return;
        if (answer.status === 'ready' && answer.screenshot) {
          setPolledFrameable(answer.frameable);
          setImageError(false);
          onScreenshot(answer.screenshot);
          return;
        }
        if (answer.status === 'failed') {
          setGaveUp(true);
          return;
        }
      } catch {
        // A failed poll is like a 'pending' one: the next may succeed.
        if (controller.signal.aborted) return;
      }
      if (Date.now() + pollMs > deadline) setGaveUp(true);
      else timer = setTimeout(() => void poll(), pollMs);
    };
    void poll();
    return () => {
      controller.abort();
      clearTimeout(timer);
    };
    // onScreenshot is a new function on every render of the card; the URL decides what to ask.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [waiting, item.url]);

  useEffect(() => {
    if (!showFrame || frameLoaded) return;
    const timer = setTimeout(() => {
      setFrameError(true);
      setLive(false);
    }, PREVIEW_LOAD_TIMEOUT_MS);
    return () => clearTimeout(timer);
  }, [showFrame, frameLoaded]);

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

  const liveToggle = frameAllowed && hasImage && (
    <button
      type="button"
      className="reference-live-toggle"
      aria-pressed={live}
      onClick={() => setLive((on) => !on)}
    >
      {t('ideas.card.livePreview')}
    </button>
  );

  if (showFrame) {
    return (
      <>
        <div className="reference-frame-wrap reference-frame-wrap-live">
          <iframe
            className="reference-frame"
            src={item.previewUrl}
            title={t('ideas.card.frameTitle', { title: item.title })}
            sandbox={THUMBNAIL_SANDBOX}
            loading="lazy"
            referrerPolicy="no-referrer"
            onLoad={() => setFrameLoaded(true)}
          />
        </div>
        {liveToggle}
      </>
    );
  }
  if (hasImage) {
    return (
      <>
        <img
          className="reference-thumbnail"
          src={item.screenshot ?? undefined}
          alt={t('ideas.card.screenshotAlt', { title: item.title })}
          loading="lazy"
          onError={() => setImageError(true)}
        />
        {liveToggle}
      </>
    );
  }
  const icon = iconError ? null : faviconOf(item.url);
  return (
    <div className="reference-placeholder" aria-busy={waiting || undefined}>
      {icon && (
        <img
          className="reference-placeholder-icon"
          src={icon}
          alt=""
          width={32}
          height={32}
          referrerPolicy="no-referrer"
          onError={() => setIconError(true)}
        />
      )}
      <span className="reference-placeholder-host" dir="ltr">
        {displayUrl(item.url)}
      </span>
      {waiting ? (
        <span className="reference-placeholder-note">
          <Spinner />
          {t('ideas.card.preparingPreview')}
        </span>
      ) : (
        <>
          <span className="reference-placeholder-note">{t('ideas.card.noPreview')}</span>
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
        </>
      )}
    </div>
  );
}
