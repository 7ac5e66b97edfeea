import { useId, useState } from 'react';
import { FIDELITY_VIEWPORTS, type FidelityViewport } from '@mirror/contract';
import { useI18n } from '../../../lib/i18n';
import './shot-comparison.css';

/** The two renders compared and their difference: the fidelity check's original and copy, a change report's previous and new version. */
export type ShotKind = 'before' | 'after' | 'difference';
type ViewMode = 'slider' | ShotKind;
const VIEW_MODES: readonly ViewMode[] = ['slider', 'before', 'after', 'difference'];

export interface ShotComparisonTexts {
  /** The choices' names: "Compare", "Original", "Copy", "Difference". */
  modes: Record<ViewMode, string>;
  /** What each view shows: "The original over the copy", … */
  captions: Record<ViewMode, string>;
  /** Each picture's name for screen readers (its page and width in it). */
  alts: Record<ShotKind, string>;
  /** The slider's name: "Reveal the original over the copy". */
  sliderLabel: string;
  /** The slider's value in words: "50% of the original shown". */
  sliderValue(percent: string): string;
}

/** Desktop | Mobile: the width whose renders are shown (the fidelity panel, the change report). */
export function ViewportPicker({
  viewport,
  onChange,
}: {
  viewport: FidelityViewport;
  onChange(viewport: FidelityViewport): void;
}) {
  const { t } = useI18n();
  return (
    <div className="segmented" role="group" aria-label={t('fidelity.viewer.width')}>
      {FIDELITY_VIEWPORTS.map((option) => (
        <button
          key={option}
          type="button"
          className="segmented-option"
          aria-pressed={viewport === option}
          onClick={() => onChange(option)}
        >
          {t(`fidelity.viewports.${option}`)}
        </button>
      ))}
    </div>
  );
}

interface ShotComparisonProps {
  viewport: FidelityViewport;
  /** Addresses of the pictures (null: none stored, or not loaded yet). */
  shots: Record<ShotKind, string | null>;
  texts: ShotComparisonTexts;
}

/**
 * One page at one width, at a size it can be read at (issue 31): the first render laid over the
 * second with the slider above it, or either render or their difference alone. The picture
 * scrolls in its own box under the slider, so the slider stays in view. The fidelity panel and the
 * change report both show their screenshots with it.
 */
export function ShotComparison({ viewport, shots, texts }: ShotComparisonProps) {
  const { t, locale } = useI18n();
  const sliderId = useId();
  const [mode, setMode] = useState<ViewMode>('slider');
  const [reveal, setReveal] = useState(50);
  const percent = new Intl.NumberFormat(locale, { style: 'percent' }).format(reveal / 100);
  const canSlide = shots.before !== null && shots.after !== null;
  const shown: ViewMode = mode === 'slider' && !canSlide ? 'before' : mode;

  return (
    <>
      <div className="segmented fidelity-modes" role="group" aria-label={t('fidelity.viewer.show')}>
        {VIEW_MODES.map((option) => (
          <button
            key={option}
            type="button"
            className="segmented-option"
            aria-pressed={shown === option}
            disabled={option === 'slider' && !canSlide}
            onClick={() => setMode(option)}
          >
            {texts.modes[option]}
          </button>
        ))}
      </div>
      <figure className="fidelity-figure" data-viewport={viewport} data-mode={shown}>
        <figcaption className="fidelity-caption">{texts.captions[shown]}</figcaption>
        {shown === 'slider' ? (
          <>
            <label className="visually-hidden" htmlFor={sliderId}>
              {texts.sliderLabel}
            </label>
            <input
              id={sliderId}
              className="fidelity-range"
              type="range"
              min={0}
              max={100}
              step={1}
              dir="ltr"
              value={reveal}
              aria-valuetext={texts.sliderValue(percent)}
              onChange={(event) => setReveal(Number(event.target.value))}
            />
            {/* The screenshots read left to right in every language, and so does the slider. */}
            <div className="fidelity-stage" dir="ltr" data-testid="fidelity-stage">
              <div className="fidelity-slider-stage">
                <img src={shots.after!} alt={texts.alts.after} className="fidelity-slider-copy" />
                <img
                  src={shots.before!}
                  alt={texts.alts.before}
                  className="fidelity-slider-original"
                  data-testid="fidelity-slider-original"
                  style={{ clipPath: `inset(0 ${100 - reveal}% 0 0)` }}
                />
                <span
                  className="fidelity-slider-line"
                  aria-hidden="true"
                  style={{ left: `${reveal}%` }}
                />
              </div>
            </div>
          </>
        ) : (
          <div className="fidelity-stage" dir="ltr" data-testid="fidelity-stage">
            {shots[shown] ? (
              <img src={shots[shown]} alt={texts.alts[shown]} />
            ) : (
              <p className="fidelity-no-shot">{t('fidelity.viewer.noShot')}</p>
            )}
          </div>
        )}
      </figure>
    </>
  );
}
