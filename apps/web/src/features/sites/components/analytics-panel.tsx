import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useState } from 'react';
import { ANALYTICS_PERIODS, type AnalyticsPeriod, type AnalyticsResponse } from '@mirror/contract';
import { queryKeys } from '../../../api/query-keys';
import { Panel } from '../../../components/ui/panel';
import { getErrorMessage } from '../../../lib/api-client';
import { formatBytes, formatNumber } from '../../../lib/format';
import { useI18n } from '../../../lib/i18n';
import { getAnalytics } from '../api/site-api';

// uPlot and its styles load with the chart only.
const VisitsChart = lazy(async () => ({ default: (await import('./visits-chart')).VisitsChart }));

type Load =
  | { state: 'loading' }
  | { state: 'error'; message: string }
  | { state: 'ready'; data: AnalyticsResponse };

/**
 * The site's audience over 7, 30 or 90 days: visitors, visits, page views and data served, per
 * day, with the most viewed pages and the sites that sent visits. Bots and the owner's previews
 * are not counted (the server leaves them out).
 */
export function AnalyticsPanel({ siteId }: { siteId: string }) {
  const { t, locale } = useI18n();
  const [period, setPeriod] = useState<AnalyticsPeriod>('7d');
  // Each period is its own query: while another period loads, the panel says so.
  const query = useQuery({
    queryKey: queryKeys.sites.analytics(siteId, period),
    queryFn: ({ signal }) => getAnalytics(siteId, period, signal),
  });
  const load: Load = query.isSuccess
    ? { state: 'ready', data: query.data }
    : query.isError
      ? { state: 'error', message: getErrorMessage(query.error, t('site.analytics.failed')) }
      : { state: 'loading' };

  return (
    <Panel title={t('site.analytics.title')} description={t('site.analytics.description')}>
      <div className="analytics-head">
        <div className="segmented" role="group" aria-label={t('site.analytics.periodLabel')}>
          {ANALYTICS_PERIODS.map((option) => (
            <button
              key={option}
              type="button"
              className="segmented-option"
              aria-pressed={period === option}
              onClick={() => setPeriod(option)}
            >
              {t(`site.analytics.periods.${option}`)}
            </button>
          ))}
        </div>
        {load.state === 'ready' && (
          <dl className="analytics-totals">
            <div>
              <dt>{t('site.analytics.visitors')}</dt>
              <dd data-testid="analytics-visitors">
                {formatNumber(locale, load.data.totals.uniqueVisitors)}
              </dd>
            </div>
            <div>
              <dt>{t('site.analytics.visits')}</dt>
              <dd data-testid="analytics-visits">
                {formatNumber(locale, load.data.totals.visits)}
              </dd>
            </div>
            <div>
              <dt>{t('site.analytics.pageViews')}</dt>
              <dd data-testid="analytics-page-views">
                {formatNumber(locale, load.data.totals.pageViews)}
              </dd>
            </div>
            <div>
              <dt>{t('site.analytics.bytes')}</dt>
              <dd data-testid="analytics-bytes">{formatBytes(locale, load.data.totals.bytes)}</dd>
            </div>
          </dl>
        )}
      </div>
      {load.state === 'error' && (
        <p className="alert alert-error" role="alert">
          {load.message}
        </p>
      )}
      <div className="chart-box" aria-busy={load.state === 'loading'}>
        {load.state === 'ready' && (
          <Suspense fallback={null}>
            <VisitsChart data={load.data} />
          </Suspense>
        )}
      </div>
      {load.state === 'ready' && (
        <>
          <div className="analytics-tops">
            <TopList
              title={t('site.analytics.topPages')}
              empty={t('site.analytics.noPages')}
              rows={load.data.topPages.map((p) => ({ key: p.path, count: p.views }))}
              testId="analytics-top-pages"
            />
            <TopList
              title={t('site.analytics.topReferrers')}
              empty={t('site.analytics.noReferrers')}
              rows={load.data.topReferrers.map((r) => ({ key: r.host, count: r.visits }))}
              testId="analytics-top-referrers"
            />
          </div>
          {/* What the figures count: a visit is a session; data served includes bots' files. */}
          <p className="site-hint" data-testid="analytics-note">
            {t('site.analytics.countsNote')}
          </p>
          {load.data.totals.botViews > 0 && (
            <p className="site-hint">
              {t('site.analytics.botViews', {
                count: formatNumber(locale, load.data.totals.botViews),
              })}
            </p>
          )}
        </>
      )}
    </Panel>
  );
}

/** A short ranking (path or host, and its count), most first as the server sends it. */
function TopList({
  title,
  empty,
  rows,
  testId,
}: {
  title: string;
  empty: string;
  rows: { key: string; count: number }[];
  testId: string;
}) {
  const { locale } = useI18n();
  return (
    <section className="analytics-top" data-testid={testId}>
      <h3 className="analytics-top-title">{title}</h3>
      {rows.length === 0 ? (
        <p className="site-muted">{empty}</p>
      ) : (
        <ol className="analytics-top-list">
          {rows.map((row) => (
            <li key={row.key}>
              <span className="analytics-top-key" dir="ltr" title={row.key}>
                {row.key}
              </span>
              <span className="analytics-top-count">{formatNumber(locale, row.count)}</span>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
