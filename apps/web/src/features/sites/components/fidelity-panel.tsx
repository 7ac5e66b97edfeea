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
import { countText, type Translate } from '../../../lib/fidelity';
import { formatNumber, formatPercent } from '../../../lib/format';
import { useI18n } from '../../../lib/i18n';
import { notify } from '../../../lib/toast';
import { isFidelityActive, type useFidelity } from '../hooks/use-fidelity';
import { ShotComparison, ViewportPicker, type ShotComparisonTexts } from './shot-comparison';
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

/** A reason that changes what the page shows (a file from another site alone does not). */
const showsDifference = (page: FidelityPage) =>
  page.reasons.some((reason) => reason !== 'external-requests');

/** Pages that differ, miss a file, throw, or were repaired: listed as falling short. */
const fellShort = (group: PageGroup) =>
  group.pages.some((page) => showsDifference(page) || page.repaired !== null);

/** Pages that look like the original but still load files from another site (issue 31). */
const loadsExternal = (group: PageGroup) =>
  !fellShort(group) && group.pages.some((page) => page.externalRequests.length > 0);

/** The files a page loads from another site, each once, over its widths. */
const externalFilesOf = (group: PageGroup) => [
  ...new Set(group.pages.flatMap((page) => page.externalRequests)),
];

/** External files named per page; the rest are counted. */
const EXTERNAL_FILES_SHOWN = 5;

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
          <>
            <ShortPages
              report={report}
              busy={busy}
              requesting={requesting}
              onRecapture={(path) => void runCheck([path])}
            />
            <ExternalFiles
              report={report}
              busy={busy}
              requesting={requesting}
              onRecapture={(path) => void runCheck([path])}
            />
          </>
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

/**
 * What the check found, counted in pages (each checked at one or more widths), never in pages ×
 * widths: "3 pages checked at 2 widths · 1 page fell short".
 */
function countsOf(
  t: Translate,
  locale: string,
  report: FidelityReportResponse,
): [key: string, count: number, vars?: Record<string, string>][] {
  const groups = groupPages(report.pages);
  const widths = new Set(report.pages.map((page) => page.viewport)).size;
  const short = groups.filter(fellShort);
  const stillShort = short.filter((group) => group.pages.some(showsDifference)).length;
  const counted = (group: PageGroup) => group.pages.some((page) => page.unmeasured !== null);
  const counts: [string, number, Record<string, string>?][] = [
    [
      'checked',
      groups.length || report.pagesChecked,
      { widths: countText(t, locale, 'fidelity.counts.widths', widths) },
    ],
    ['short', stillShort],
    ['repaired', short.length - stillShort],
    ['external', groups.filter(loadsExternal).length],
    ['unmeasured', groups.filter(counted).length],
  ];
  // The pages checked are always said; the rest only when there are some.
  return counts.filter(([key, count]) => key === 'checked' || count > 0);
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
      <p className="fidelity-meaning">{t('fidelity.meaning')}</p>
      <p className="fidelity-stats" data-testid="fidelity-stats">
        {countsOf(t, locale, report)
          .map(([key, count, vars]) => countText(t, locale, `fidelity.counts.${key}`, count, vars))
          .join(' · ')}
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
              <RecaptureButton
                path={group.path}
                busy={busy}
                requesting={requesting}
                onRecapture={onRecapture}
              />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** Why a page fell short, in plain words, with the files missing from the copy or loaded from elsewhere. */
/** Captures one page again (the short pages' list and the external files' list offer it). */
function RecaptureButton({
  path,
  busy,
  requesting,
  onRecapture,
}: {
  path: string;
  busy: boolean;
  requesting: string[] | null;
  onRecapture: (path: string) => void;
}) {
  const { t } = useI18n();
  return (
    <button
      type="button"
      className="button button-outline"
      disabled={busy}
      aria-label={t('fidelity.short.recaptureLabel', { path })}
      onClick={() => onRecapture(path)}
    >
      {requesting?.includes(path) ? t('fidelity.starting') : t('fidelity.short.recapture')}
    </button>
  );
}

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
  const external = externalFilesOf(group).slice(0, MISSING_FILES_SHOWN);
  const files = (reason: FidelityReason) =>
    reason === 'failed-requests' ? missing : reason === 'external-requests' ? external : [];
  return (
    <ul className="fidelity-reasons">
      {[...reasons].map((reason) => (
        <li key={reason}>
          {t(`fidelity.reasons.${reason}`)}
          {files(reason).length > 0 && (
            <ul className="fidelity-files">
              {files(reason).map((url) => (
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
 * Pages that look like the original but still load files from another site (issue 31): not a
 * difference, so apart from the pages that fell short, with the files named and what to do.
 */
function ExternalFiles({
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
  const { t, locale } = useI18n();
  const headingId = useId();
  const groups = groupPages(report.pages).filter(loadsExternal);
  if (groups.length === 0) return null;
  return (
    <section className="fidelity-external" aria-labelledby={headingId}>
      <h3 id={headingId} className="fidelity-subtitle">
        {t('fidelity.external.title')}
      </h3>
      <p className="fidelity-external-lead">{t('fidelity.external.lead')}</p>
      <ul className="fidelity-short-list">
        {groups.map((group) => {
          const files = externalFilesOf(group);
          const more = files.length - EXTERNAL_FILES_SHOWN;
          return (
            <li key={group.path} className="fidelity-short-row" aria-label={group.path}>
              <div className="fidelity-short-main">
                <p className="fidelity-path" dir="ltr">
                  {group.path}
                </p>
                <ul className="fidelity-files" aria-label={t('fidelity.external.filesLabel')}>
                  {files.slice(0, EXTERNAL_FILES_SHOWN).map((url) => (
                    <li key={url} dir="ltr">
                      {url}
                    </li>
                  ))}
                  {more > 0 && (
                    <li>{t('fidelity.external.more', { count: formatNumber(locale, more) })}</li>
                  )}
                </ul>
              </div>
              <RecaptureButton
                path={group.path}
                busy={busy}
                requesting={requesting}
                onRecapture={onRecapture}
              />
            </li>
          );
        })}
      </ul>
      <p className="site-hint">{t('fidelity.external.choices')}</p>
    </section>
  );
}

/**
 * One page at one width, chosen here, its measures, and the original and the copy compared
 * (`ShotComparison`: the original over the copy with a slider, or one of them or their difference).
 */
function FidelityViewer({ report }: { report: FidelityReportResponse }) {
  const { t, locale } = useI18n();
  const headingId = useId();
  const pageSelectId = useId();
  const groups = groupPages(report.pages);
  const firstShort = groups.find(fellShort) ?? groups.find(loadsExternal) ?? groups[0];
  const [path, setPath] = useState(firstShort?.path ?? '');
  const [viewport, setViewport] = useState<FidelityViewport>('desktop');

  const group = groups.find((candidate) => candidate.path === path) ?? groups[0];
  if (!group) return null;
  const page = group.pages.find((candidate) => candidate.viewport === viewport) ?? null;
  const viewportName = t(`fidelity.viewports.${viewport}`);
  const alt = (key: string) => t(key, { path: group.path, viewport: viewportName });
  const texts: ShotComparisonTexts = {
    modes: {
      slider: t('fidelity.viewer.modes.slider'),
      before: t('fidelity.viewer.modes.original'),
      after: t('fidelity.viewer.modes.copy'),
      difference: t('fidelity.viewer.modes.difference'),
    },
    captions: {
      slider: t('fidelity.viewer.captions.slider'),
      before: t('fidelity.viewer.captions.original'),
      after: t('fidelity.viewer.captions.copy'),
      difference: t('fidelity.viewer.captions.difference'),
    },
    alts: {
      before: alt('fidelity.viewer.originalAlt'),
      after: alt('fidelity.viewer.copyAlt'),
      difference: alt('fidelity.viewer.diffAlt'),
    },
    sliderLabel: t('fidelity.viewer.sliderLabel'),
    sliderValue: (percent) => t('fidelity.viewer.sliderValue', { percent }),
  };

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
        <ViewportPicker viewport={viewport} onChange={setViewport} />
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
          <ShotComparison
            viewport={viewport}
            shots={{ before: page.originalShot, after: page.copyShot, difference: page.diffShot }}
            texts={texts}
          />
        </>
      )}
    </section>
  );
}
