import { useId, useState } from 'react';
import { type FidelityViewport, type VisualDiff, type VisualDiffPage } from '@mirror/contract';
import { formatPercent } from '../../../lib/format';
import { useI18n } from '../../../lib/i18n';
import { isFidelityActive } from '../hooks/use-fidelity';
import { useChangeShot } from '../hooks/use-change-shot';
import { ShotComparison, ViewportPicker, type ShotComparisonTexts } from './shot-comparison';

/** Where the report's visual diff stands, said once above its changed pages (none: nothing). */
export function VisualDiffStatus({ visual }: { visual: VisualDiff | null | undefined }) {
  const { t } = useI18n();
  if (!visual) return null;
  if (isFidelityActive(visual.state))
    return (
      <p className="site-muted change-visual-status" role="status">
        {t('site.changes.visual.pending')}
      </p>
    );
  if (visual.state === 'failed')
    return (
      <p className="site-hint change-visual-status">
        {t('site.changes.visual.failed', { reason: visual.error ?? '' })}
      </p>
    );
  return null;
}

/**
 * How one changed page looks in the previous and the new version (issue 33), at desktop and phone
 * widths: its differing pixels (noise left out), and the two compared as the fidelity check's are.
 */
export function VisualChange({ path, pages }: { path: string; pages: VisualDiffPage[] }) {
  const { t, locale } = useI18n();
  const headingId = useId();
  const [viewport, setViewport] = useState<FidelityViewport>('desktop');
  const page = pages.find((candidate) => candidate.viewport === viewport) ?? null;
  return (
    <section className="change-visual" aria-labelledby={headingId}>
      <h4 id={headingId} className="change-subtitle">
        {t('site.changes.visual.title')}
      </h4>
      <ViewportPicker viewport={viewport} onChange={setViewport} />
      {!page ? (
        <p className="site-muted">{t('fidelity.viewer.notMeasuredHere')}</p>
      ) : page.unmeasured !== null ? (
        <p className="site-hint">
          {t('site.changes.visual.unmeasured', { reason: page.unmeasured })}
        </p>
      ) : (
        <>
          <dl className="fidelity-metrics" data-testid="visual-metrics">
            <div>
              <dt>{t('fidelity.viewer.diff')}</dt>
              <dd>{formatPercent(locale, page.diffPercent)}</dd>
            </div>
            <div>
              <dt>{t('fidelity.viewer.noise')}</dt>
              <dd>{formatPercent(locale, page.noisePercent)}</dd>
            </div>
          </dl>
          {page.diffPercent === 0 && (
            <p className="site-muted">{t('site.changes.visual.sameLook')}</p>
          )}
          <Comparison key={viewport} path={path} page={page} />
        </>
      )}
    </section>
  );
}

/** The page's three screenshots, fetched with the session, then compared. */
function Comparison({ path, page }: { path: string; page: VisualDiffPage }) {
  const { t } = useI18n();
  const before = useChangeShot(page.beforeShot);
  const after = useChangeShot(page.afterShot);
  const difference = useChangeShot(page.diffShot);
  if (before === undefined || after === undefined || difference === undefined)
    return <p className="site-muted">{t('common.loading')}</p>;
  const vars = { path, viewport: t(`fidelity.viewports.${page.viewport}`) };
  const texts: ShotComparisonTexts = {
    modes: {
      slider: t('fidelity.viewer.modes.slider'),
      before: t('site.changes.visual.modes.before'),
      after: t('site.changes.visual.modes.after'),
      difference: t('fidelity.viewer.modes.difference'),
    },
    captions: {
      slider: t('site.changes.visual.captions.slider'),
      before: t('site.changes.visual.captions.before'),
      after: t('site.changes.visual.captions.after'),
      difference: t('site.changes.visual.captions.difference'),
    },
    alts: {
      before: t('site.changes.visual.beforeAlt', vars),
      after: t('site.changes.visual.afterAlt', vars),
      difference: t('site.changes.visual.diffAlt', vars),
    },
    sliderLabel: t('site.changes.visual.sliderLabel'),
    sliderValue: (percent) => t('site.changes.visual.sliderValue', { percent }),
  };
  return (
    <ShotComparison viewport={page.viewport} shots={{ before, after, difference }} texts={texts} />
  );
}
