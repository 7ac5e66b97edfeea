import { lazy, Suspense, useEffect, useState } from 'react';
import { ANALYTICS_PERIODS, type AnalyticsPeriod, type AnalyticsResponse } from '@mirror/contract';
import { Panel } from '../../../components/ui/panel';
import { getErrorMessage } from '../../../lib/api-client';
import { formatNumber } from '../../../lib/format';
import { useI18n } from '../../../lib/i18n';
import { getAnalytics } from '../api/site-api';

// uPlot and its styles load with the chart only.
const VisitsChart = lazy(async () => ({ default: (await import('./visits-chart')).VisitsChart }));

type Load =
  | { state: 'loading' }
  | { state: 'error'; message: string }
  | { state: 'ready'; data: AnalyticsResponse };

type Answer = { period: AnalyticsPeriod } & (
  { state: 'error'; message: string } | { state: 'ready'; data: AnalyticsResponse }
);

/** Visits per day over 7, 30 or 90 days. */
export function AnalyticsPanel({ siteId }: { siteId: string }) {
  const { t, locale } = useI18n();
  const [period, setPeriod] = useState<AnalyticsPeriod>('7d');
  const [answer, setAnswer] = useState<Answer | null>(null);
  // An answer for another period is stale: the new one is loading.
  const load: Load = answer && answer.period === period ? answer : { state: 'loading' };

  useEffect(() => {
    const controller = new AbortController();
    getAnalytics(siteId, period, controller.signal)
      .then((data) => setAnswer({ period, state: 'ready', data }))
      .catch((error: unknown) => {
        if (controller.signal.aborted) return;
        setAnswer({
          period,
          state: 'error',
          message: getErrorMessage(error, t('site.analytics.failed')),
        });
      });
    return () => controller.abort();
  }, [siteId, period, t]);

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
              <dt>{t('site.analytics.visits')}</dt>
              <dd data-testid="analytics-visits">
                {formatNumber(locale, load.data.totals.visits)}
              </dd>
            </div>
            <div>
              <dt>{t('site.analytics.pageViews')}</dt>
              <dd>{formatNumber(locale, load.data.totals.pageViews)}</dd>
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
    </Panel>
  );
}
