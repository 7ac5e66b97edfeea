import { useId, useState, type Ref } from 'react';
import {
  FIDELITY_VIEWPORTS,
  type FidelityPage,
  type FidelityReason,
  type FidelityReportResponse,
  type FidelityViewport,
} from '@mirror/contract';
import { Panel } from '../../../components/ui/panel';
import { getErrorMessage } from '../../../lib/api-client';
import { formatNumber, formatPercent } from '../../../lib/format';
import { useI18n } from '../../../lib/i18n';
import { notify } from '../../../lib/toast';
import { isFidelityActive, type useFidelity } from '../hooks/use-fidelity';
import './fidelity-panel.css';

export const FIDELITY_PANEL_ID = 'site-fidelity';

/** Failed files the original has too are no fault of the copy: at most this many others are named. */
const MISSING_FILES_SHOWN = 3;

interface FidelityPanelProps {
  fidelity: ReturnType<typeof useFidelity>;
  /** The panel's box, focusable, for the summary line in the header to bring it into view. */
  ref?: Ref<HTMLDivElement>;
}

/** One page of the check, at each width it was measured at. */
interface PageGroup {
  path: string;
  url: string;
  pages: FidelityPage[];
}

function groupPages(pages: readonly FidelityPage[]): PageGroup[] {
  const groups = new Map<string, PageGroup>();
  for (const page of pages) {
    const group = groups.get(page.path);
    if (group) group.pages.push(page);
    else groups.set(page.path, { path: page.path, url: page.url, pages: [page] });
  }
  for (const group of groups.values()) {
    group.pages.sort(
      (a, b) => FIDELITY_VIEWPORTS.indexOf(a.viewport) - FIDELITY_VIEWPORTS.indexOf(b.viewport),
    );
  }
  return [...groups.values()];
}

const fellShort = (group: PageGroup) =>
  group.pages.some((page) => page.belowThreshold || page.repaired !== null);

/**
 * How faithful the live version is (issue 21): its score, the pages that fell short and why, in
 * plain words, each to capture again, and a viewer of the original, the copy and their difference
 * at desktop and mobile widths.
 */
export function FidelityPanel({ fidelity, ref }: FidelityPanelProps) {
  const { t } = useI18n();
  const { load, watching, requesting, check } = fidelity;
  const report = load.state === 'ready' ? load.report : null;
  const busy = requesting !== null || watching || (report ? isFidelityActive(report.state) : false);

  const runCheck = async (paths?: string[]) => {
    try {
      await check(paths);
      notify.info(
        paths ? t('fidelity.recaptureStarted', { path: paths.join(', ') }) : t('fidelity.started'),
      );
    } catch (error) {
      notify.error(getErrorMessage(error, t('fidelity.requestFailed')));
    }
  };

  return (
    <div ref={ref} id={FIDELITY_PANEL_ID} className="fidelity-anchor" tabIndex={-1}>
      <Panel title={t('fidelity.title')} description={t('fidelity.description')}>
        {load.state === 'loading' && <p className="site-muted">{t('common.loading')}</p>}
        {load.state === 'error' && (
          <p className="alert alert-error" role="alert">
            {load.message}
          </p>
        )}
        {load.state === 'none' && <p className="site-muted">{t('fidelity.notChecked')}</p>}
        {report && <ReportSummary report={report} />}
        {report && report.state === 'completed' && (
          <ShortPages
            report={report}
            busy={busy}
            requesting={requesting}
            onRecapture={(path) => void runCheck([path])}
          />
        )}
        {(load.state === 'none' || report) && (
          <div className="panel-actions fidelity-actions">
            <button
              type="button"
              className="button button-outline"
              disabled={busy}
              onClick={() => void runCheck()}
            >
              {requesting?.length === 0
                ? t('fidelity.starting')
                : report
                  ? t('fidelity.checkAgain')
                  : t('fidelity.checkNow')}
            </button>
          </div>
        )}
        {report && report.pages.length > 0 && (
          <FidelityViewer key={report.versionId} report={report} />
        )}
      </Panel>
    </div>
  );
}

function ReportSummary({ report }: { report: FidelityReportResponse }) {
  const { t, locale } = useI18n();
  if (isFidelityActive(report.state)) {
    return (
      <p className="fidelity-state" role="status">
        {t('fidelity.checking')}
      </p>
    );
  }
  if (report.state === 'failed') {
    return (
      <div className="alert alert-error" role="alert">
        <p className="fidelity-failed">{t('fidelity.failed')}</p>
        {report.error && <p className="fidelity-failed-detail">{report.error}</p>}
      </div>
    );
  }
  return (
    <div className="fidelity-summary">
      {report.score !== null && (
        <p className="fidelity-score">
          <span className="fidelity-score-value" data-testid="fidelity-score">
            {formatPercent(locale, report.score)}
          </span>
          <span className="fidelity-score-label">{t('fidelity.scoreLabel')}</span>
        </p>
      )}
      <p className="fidelity-stats">
        {t('fidelity.stats', {
          pages: formatNumber(locale, report.pagesChecked),
          below: formatNumber(locale, report.belowThreshold),
          repaired: formatNumber(locale, report.repairedCount),
        })}
        {report.unmeasured > 0 && (
          <>
            {' · '}
            {t('fidelity.unmeasured', { count: formatNumber(locale, report.unmeasured) })}
          </>
        )}
      </p>
      {report.repairedVersionId && <p className="site-hint">{t('fidelity.repairedVersion')}</p>}
    </div>
  );
}

function ShortPages({
  report,
  busy,
  requesting,
  onRecapture,
}: {
  report: FidelityReportResponse;
  busy: boolean;
  requesting: string[] | null;
  onRecapture: (path: string) => void;
}) {
  const { t } = useI18n();
  const headingId = useId();
  const short = groupPages(report.pages).filter(fellShort);
  return (
    <section className="fidelity-short" aria-labelledby={headingId}>
      <h3 id={headingId} className="fidelity-subtitle">
        {t('fidelity.short.title')}
      </h3>
      {short.length === 0 ? (
        <p className="site-muted">{t('fidelity.short.none')}</p>
      ) : (
        <ul className="fidelity-short-list">
          {short.map((group) => (
            <li key={group.path} className="fidelity-short-row" aria-label={group.path}>
              <div className="fidelity-short-main">
                <p className="fidelity-path" dir="ltr">
                  {group.path}
                </p>
                <Reasons group={group} />
                <ul className="fidelity-measurements">
                  {group.pages.map((page) => (
                    <li key={page.viewport}>
                      <Measurement page={page} />
                    </li>
                  ))}
                </ul>
              </div>
              <button
                type="button"
                className="button button-outline"
                disabled={busy}
                aria-label={t('fidelity.short.recaptureLabel', { path: group.path })}
                onClick={() => onRecapture(group.path)}
              >
                {requesting?.includes(group.path)
                  ? t('fidelity.starting')
                  : t('fidelity.short.recapture')}
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** Why a page fell short, in plain words, with the files missing from the copy. */
function Reasons({ group }: { group: PageGroup }) {
  const { t } = useI18n();
  const reasons = new Set<FidelityReason>(group.pages.flatMap((page) => page.reasons));
  if (reasons.size === 0) return null;
  const missing = [
    ...new Set(
      group.pages.flatMap((page) =>
        page.failedRequests.filter((request) => !request.inOriginal).map((request) => request.url),
      ),
    ),
  ].slice(0, MISSING_FILES_SHOWN);
  return (
    <ul className="fidelity-reasons">
      {[...reasons].map((reason) => (
        <li key={reason}>
          {t(`fidelity.reasons.${reason}`)}
          {reason === 'failed-requests' && missing.length > 0 && (
            <ul className="fidelity-files">
              {missing.map((url) => (
                <li key={url} dir="ltr">
                  {url}
                </li>
              ))}
            </ul>
          )}
        </li>
      ))}
    </ul>
  );
}

/** "Desktop: 4.2% different · noise 0.3%", and "repaired: 4.2% → 0.1%" after a repair. */
function Measurement({ page }: { page: FidelityPage }) {
  const { t, locale } = useI18n();
  return (
    <>
      {t('fidelity.measurement', {
        viewport: t(`fidelity.viewports.${page.viewport}`),
        diff: formatPercent(locale, page.diffPercent),
        noise: formatPercent(locale, page.noisePercent),
      })}
      {page.repaired && (
        <>
          {' · '}
          <span className="fidelity-repaired">
            {t('fidelity.repaired', {
              before: formatPercent(locale, page.repaired.diffPercent),
              after: formatPercent(locale, page.diffPercent),
            })}
          </span>
        </>
      )}
    </>
  );
}

/**
 * One page at one width: the original, the copy and their difference side by side, and a slider
 * that lays the original over the copy up to where it stands.
 */
function FidelityViewer({ report }: { report: FidelityReportResponse }) {
  const { t, locale } = useI18n();
  const headingId = useId();
  const pageSelectId = useId();
  const sliderId = useId();
  const groups = groupPages(report.pages);
  const firstShort = groups.find(fellShort) ?? groups[0];
  const [path, setPath] = useState(firstShort?.path ?? '');
  const [viewport, setViewport] = useState<FidelityViewport>('desktop');
  const [reveal, setReveal] = useState(50);

  const group = groups.find((candidate) => candidate.path === path) ?? groups[0];
  if (!group) return null;
  const page = group.pages.find((candidate) => candidate.viewport === viewport) ?? null;
  const viewportName = t(`fidelity.viewports.${viewport}`);
  const alt = (key: string) => t(key, { path: group.path, viewport: viewportName });
  const percent = new Intl.NumberFormat(locale, { style: 'percent' }).format(reveal / 100);

  return (
    <section className="fidelity-viewer" aria-labelledby={headingId}>
      <h3 id={headingId} className="fidelity-subtitle">
        {t('fidelity.viewer.title')}
      </h3>
      <div className="fidelity-viewer-controls">
        <div className="fidelity-field">
          <label htmlFor={pageSelectId}>{t('fidelity.viewer.page')}</label>
          <select
            id={pageSelectId}
            className="input select"
            value={group.path}
            onChange={(event) => setPath(event.target.value)}
          >
            {groups.map((candidate) => (
              <option key={candidate.path} value={candidate.path}>
                {candidate.path}
              </option>
            ))}
          </select>
        </div>
        <div className="segmented" role="group" aria-label={t('fidelity.viewer.width')}>
          {FIDELITY_VIEWPORTS.map((option) => (
            <button
              key={option}
              type="button"
              className="segmented-option"
              aria-pressed={viewport === option}
              onClick={() => setViewport(option)}
            >
              {t(`fidelity.viewports.${option}`)}
            </button>
          ))}
        </div>
      </div>

      {!page ? (
        <p className="site-muted">{t('fidelity.viewer.notMeasuredHere')}</p>
      ) : (
        <>
          <dl className="fidelity-metrics" data-testid="fidelity-metrics">
            <div>
              <dt>{t('fidelity.viewer.diff')}</dt>
              <dd>{formatPercent(locale, page.diffPercent)}</dd>
            </div>
            <div>
              <dt>{t('fidelity.viewer.noise')}</dt>
              <dd>{formatPercent(locale, page.noisePercent)}</dd>
            </div>
            <div>
              <dt>{t('fidelity.viewer.text')}</dt>
              <dd>{formatPercent(locale, page.textSimilarity * 100)}</dd>
            </div>
            {page.repaired && (
              <div>
                <dt>{t('fidelity.viewer.repaired')}</dt>
                <dd>
                  {t('fidelity.repaired', {
                    before: formatPercent(locale, page.repaired.diffPercent),
                    after: formatPercent(locale, page.diffPercent),
                  })}
                </dd>
              </div>
            )}
          </dl>
          {page.unmeasured && (
            <p className="site-hint">
              {t('fidelity.viewer.unmeasured', { reason: page.unmeasured })}
            </p>
          )}
          <div className="fidelity-shots">
            <Shot
              caption={t('fidelity.viewer.original')}
              src={page.originalShot}
              alt={alt('fidelity.viewer.originalAlt')}
            />
            <Shot
              caption={t('fidelity.viewer.copy')}
              src={page.copyShot}
              alt={alt('fidelity.viewer.copyAlt')}
            />
            <Shot
              caption={t('fidelity.viewer.difference')}
              src={page.diffShot}
              alt={alt('fidelity.viewer.diffAlt')}
            />
          </div>
          {page.originalShot && page.copyShot && (
            <figure className="fidelity-slider" data-viewport={viewport}>
              <figcaption className="fidelity-caption">{t('fidelity.viewer.slider')}</figcaption>
              {/* The screenshots read left to right in every language, and so does the slider. */}
              <div className="fidelity-slider-stage" dir="ltr">
                {/* The same screenshots as above, named there: here they are only laid over. */}
                <img src={page.copyShot} alt="" className="fidelity-slider-copy" />
                <img
                  src={page.originalShot}
                  alt=""
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
              <label className="visually-hidden" htmlFor={sliderId}>
                {t('fidelity.viewer.sliderLabel')}
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
                aria-valuetext={t('fidelity.viewer.sliderValue', { percent })}
                onChange={(event) => setReveal(Number(event.target.value))}
              />
            </figure>
          )}
        </>
      )}
    </section>
  );
}

function Shot({ caption, src, alt }: { caption: string; src: string | null; alt: string }) {
  const { t } = useI18n();
  return (
    <figure className="fidelity-shot">
      <figcaption className="fidelity-caption">{caption}</figcaption>
      {src ? (
        <img src={src} alt={alt} loading="lazy" />
      ) : (
        <p className="fidelity-no-shot">{t('fidelity.viewer.noShot')}</p>
      )}
    </figure>
  );
}
