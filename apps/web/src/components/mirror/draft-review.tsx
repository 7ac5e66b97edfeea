import { useEffect, useRef, useState, type ReactNode } from 'react';
import type { VersionEdit } from '@mirror/contract';
import { useI18n } from '../../lib/i18n';
import { Spinner } from '../ui/spinner';
import { PREVIEW_SANDBOX } from './site-frame';
import { VersionChanges } from './version-changes';
import './draft-review.css';

/** Widths the comparison shows the pages at: a laptop and a phone. */
export const REVIEW_WIDTHS = { desktop: 1280, mobile: 390 } as const;
const HEIGHTS = { desktop: 800, mobile: 844 } as const;
/** Space between the two columns of the side-by-side view (px, as in the CSS). */
const GAP = 16;
/** Below this the side-by-side columns are stacked (px, as in the CSS). */
const STACK_BELOW = 640;

export type ReviewWidth = keyof typeof REVIEW_WIDTHS;
export type ReviewMode = 'side' | 'slider';
export type ReviewAction = 'publish' | 'discard' | 'undo';

export interface DraftReviewProps {
  /** The site as it is served now. */
  liveUrl: string | null;
  /** The draft's own preview address. */
  draftUrl: string | null;
  /** Each edit of the draft in plain words; with `onUndo`, each can be undone on its own. */
  edits?: readonly VersionEdit[];
  /** Summary lines, shown when the draft has no edit list. */
  changes?: readonly string[];
  unparsed?: readonly string[];
  /** What is being done now: every action waits for it. */
  pending?: ReviewAction | null;
  /** The edit being undone. */
  undoing?: number | null;
  error?: string | null;
  /** Disables every action (another run is going on). */
  disabled?: boolean;
  /** Heading and words above the comparison (each feature says what the draft is). */
  header?: ReactNode;
  onPublish: () => void;
  onDiscard: () => void;
  onUndo?: (index: number) => void;
}

function useWidth<T extends HTMLElement>() {
  const ref = useRef<T>(null);
  const [width, setWidth] = useState(0);
  useEffect(() => {
    const node = ref.current;
    if (!node) return;
    setWidth(node.clientWidth);
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(([entry]) => {
      if (entry) setWidth(entry.contentRect.width);
    });
    observer.observe(node);
    return () => observer.disconnect();
  }, []);
  return { ref, width };
}

/** A page at a device width, scaled down to fit `room` pixels. */
function ScaledFrame({
  url,
  title,
  device,
  room,
  interactive = true,
}: {
  url: string;
  title: string;
  device: ReviewWidth;
  room: number;
  interactive?: boolean;
}) {
  const width = REVIEW_WIDTHS[device];
  const height = HEIGHTS[device];
  // Unmeasured (no layout yet): the page at its size, the box scrolls.
  const scale = room > 0 ? Math.min(1, room / width) : 1;
  return (
    <div
      className="draft-frame"
      style={{ inlineSize: width * scale, blockSize: height * scale }}
      data-scale={scale.toFixed(3)}
    >
      <iframe
        key={url}
        className="draft-frame-iframe"
        src={url}
        title={title}
        sandbox={PREVIEW_SANDBOX}
        referrerPolicy="no-referrer"
        tabIndex={interactive ? undefined : -1}
        style={{
          inlineSize: width,
          blockSize: height,
          transform: scale === 1 ? undefined : `scale(${scale})`,
          pointerEvents: interactive ? undefined : 'none',
        }}
      />
    </div>
  );
}

/**
 * The review of a draft before it goes live (rewrites and customizations alike): the draft beside
 * the live site (side by side, or one over the other with a divider to drag), at desktop or mobile
 * width, what it changes (each edit with its own undo), and publish or discard.
 */
export function DraftReview({
  liveUrl,
  draftUrl,
  edits = [],
  changes = [],
  unparsed = [],
  pending = null,
  undoing = null,
  error = null,
  disabled = false,
  header,
  onPublish,
  onDiscard,
  onUndo,
}: DraftReviewProps) {
  const { t } = useI18n();
  const [mode, setMode] = useState<ReviewMode>('side');
  const [device, setDevice] = useState<ReviewWidth>('desktop');
  const [split, setSplit] = useState(50);
  const { ref, width } = useWidth<HTMLDivElement>();
  const busy = disabled || pending !== null;
  const stacked = width > 0 && width < STACK_BELOW;
  const column = mode === 'side' && !stacked ? (width - GAP) / 2 : width;
  const sliderScale = width > 0 ? Math.min(1, width / REVIEW_WIDTHS[device]) : 1;
  const frameTitle = (which: 'live' | 'draft', url: string) =>
    t('mirror.review.frameTitle', { label: t(`mirror.review.${which}`), url });

  const toggle = <V extends string>(value: V, current: V, set: (v: V) => void, label: string) => (
    <button
      type="button"
      className="draft-toggle"
      aria-pressed={value === current}
      onClick={() => set(value)}
    >
      {label}
    </button>
  );

  return (
    <div className="draft-review" data-testid="draft-review">
      {header}
      <div className="draft-toolbar">
        <div className="draft-toggles" role="group" aria-label={t('mirror.review.viewLabel')}>
          {toggle<ReviewMode>('side', mode, setMode, t('mirror.review.sideBySide'))}
          {toggle<ReviewMode>('slider', mode, setMode, t('mirror.review.slider'))}
        </div>
        <div className="draft-toggles" role="group" aria-label={t('mirror.review.widthLabel')}>
          {toggle<ReviewWidth>('desktop', device, setDevice, t('mirror.review.desktop'))}
          {toggle<ReviewWidth>('mobile', device, setDevice, t('mirror.review.mobile'))}
        </div>
      </div>

      <div
        ref={ref}
        className="draft-compare"
        data-mode={mode}
        data-width={REVIEW_WIDTHS[device]}
        data-stacked={stacked || undefined}
        dir="ltr"
      >
        {mode === 'side' ? (
          <>
            <figure className="draft-column">
              <figcaption className="draft-caption">{t('mirror.review.draft')}</figcaption>
              {draftUrl ? (
                <ScaledFrame
                  url={draftUrl}
                  title={frameTitle('draft', draftUrl)}
                  device={device}
                  room={column}
                />
              ) : (
                <p className="draft-missing">{t('mirror.review.noPreview')}</p>
              )}
            </figure>
            <figure className="draft-column">
              <figcaption className="draft-caption">{t('mirror.review.live')}</figcaption>
              {liveUrl ? (
                <ScaledFrame
                  url={liveUrl}
                  title={frameTitle('live', liveUrl)}
                  device={device}
                  room={column}
                />
              ) : (
                <p className="draft-missing">{t('mirror.review.noPreview')}</p>
              )}
            </figure>
          </>
        ) : (
          <div className="draft-slider-wrap">
            {/*
              Above the pages, not over them (issue 31): over a page they hid its navigation.
              As wide as the pages, so each name stands over its side.
            */}
            <div
              className="draft-slider-legend"
              aria-hidden
              data-testid="draft-slider-legend"
              style={{ inlineSize: REVIEW_WIDTHS[device] * sliderScale }}
            >
              <span className="draft-slider-label">← {t('mirror.review.draft')}</span>
              <span className="draft-slider-label">{t('mirror.review.live')} →</span>
            </div>
            <div className="draft-slider" data-testid="draft-slider">
              {liveUrl && (
                <div className="draft-layer">
                  <ScaledFrame
                    url={liveUrl}
                    title={frameTitle('live', liveUrl)}
                    device={device}
                    room={width}
                    interactive={false}
                  />
                </div>
              )}
              {draftUrl && (
                <div
                  className="draft-layer draft-layer-top"
                  style={{ clipPath: `inset(0 ${100 - split}% 0 0)` }}
                >
                  <ScaledFrame
                    url={draftUrl}
                    title={frameTitle('draft', draftUrl)}
                    device={device}
                    room={width}
                    interactive={false}
                  />
                </div>
              )}
              <span
                className="draft-divider"
                style={{ insetInlineStart: `${split}%` }}
                aria-hidden
              />
              <input
                type="range"
                className="draft-range"
                min={0}
                max={100}
                value={split}
                aria-label={t('mirror.review.sliderLabel')}
                aria-valuetext={t('mirror.review.sliderValue', { percent: split })}
                onChange={(event) => setSplit(Number(event.target.value))}
              />
            </div>
          </div>
        )}
      </div>

      {edits.length > 0 ? (
        <div className="draft-edits">
          <h4 className="draft-subtitle">{t('mirror.review.editsTitle')}</h4>
          <ul className="draft-edits-list">
            {edits.map((edit) => (
              <li key={edit.index} className="draft-edit">
                <span className="draft-edit-text">{edit.description}</span>
                {onUndo && (
                  <button
                    type="button"
                    className="button button-outline draft-undo"
                    disabled={busy}
                    aria-label={t('mirror.review.undoLabel', { change: edit.description })}
                    onClick={() => onUndo(edit.index)}
                  >
                    {pending === 'undo' && undoing === edit.index && <Spinner />}
                    {t('mirror.review.undo')}
                  </button>
                )}
              </li>
            ))}
          </ul>
          {unparsed.length > 0 && (
            <p className="version-changes-unparsed" role="note">
              {t('mirror.changes.unparsed', { parts: unparsed.join('; ') })}
            </p>
          )}
        </div>
      ) : (
        <VersionChanges changes={changes} unparsed={unparsed} />
      )}

      {error && (
        <p className="alert alert-error" role="alert">
          {error}
        </p>
      )}
      <div className="draft-actions">
        <button
          type="button"
          className="button button-primary"
          disabled={busy}
          aria-busy={pending === 'publish' || undefined}
          onClick={onPublish}
        >
          {pending === 'publish' && <Spinner />}
          {t('mirror.review.publish')}
        </button>
        <button
          type="button"
          className="button button-outline"
          disabled={busy}
          aria-busy={pending === 'discard' || undefined}
          onClick={onDiscard}
        >
          {pending === 'discard' && <Spinner />}
          {t('mirror.review.discard')}
        </button>
      </div>
    </div>
  );
}
