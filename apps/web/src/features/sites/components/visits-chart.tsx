import { useEffect, useRef, useState } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import type { AnalyticsResponse } from '@mirror/contract';
import { formatBytes, formatDate, formatNumber } from '../../../lib/format';
import { useI18n } from '../../../lib/i18n';

const HEIGHT = 220;
const DAY = 86_400;

function canDraw(): boolean {
  try {
    return document.createElement('canvas').getContext('2d') !== null;
  } catch {
    return false;
  }
}

/**
 * Visitors and page views per day, drawn by uPlot; a table carries these numbers, visits and data
 * served for screen readers.
 */
export function VisitsChart({ data }: { data: AnalyticsResponse }) {
  const { t, locale } = useI18n();
  const boxRef = useRef<HTMLDivElement>(null);
  const [drawable] = useState(canDraw);

  useEffect(() => {
    const box = boxRef.current;
    if (!box || !drawable) return;
    const xs = data.days.map((day) => Date.parse(`${day.date}T00:00:00Z`) / 1000);
    const visitors = data.days.map((day) => day.uniqueVisitors);
    const views = data.days.map((day) => day.pageViews);
    const dayLabel = (seconds: number) =>
      formatDate(locale, new Date(seconds * 1000).toISOString());
    const chart = new uPlot(
      {
        width: Math.max(240, box.clientWidth),
        height: HEIGHT,
        tzDate: (seconds) => uPlot.tzDate(new Date(seconds * 1000), 'Etc/UTC'),
        cursor: { drag: { x: false, y: false } },
        legend: { show: true, live: false },
        scales: { x: { time: true }, y: { range: (_u, _min, max) => [0, Math.max(4, max)] } },
        axes: [
          {
            stroke: '#64748b',
            grid: { show: false },
            // Whole days only: 1, 2, 7 or 14 days between ticks.
            incrs: [DAY, 2 * DAY, 7 * DAY, 14 * DAY],
            values: (_u, splits) => splits.map(dayLabel),
          },
          {
            stroke: '#64748b',
            grid: { stroke: '#e2e8f0', width: 1 },
            values: (_u, splits) => splits.map((value) => formatNumber(locale, value)),
          },
        ],
        series: [
          { value: (_u, value) => (value == null ? '' : dayLabel(value)) },
          {
            label: t('site.analytics.visitors'),
            stroke: '#4f46e5',
            width: 2,
            fill: 'rgba(79, 70, 229, 0.12)',
            points: { show: data.days.length <= 31 },
          },
          {
            label: t('site.analytics.pageViews'),
            stroke: '#0e7490',
            width: 2,
            dash: [6, 4],
            points: { show: false },
          },
        ],
      },
      [xs, visitors, views],
      box,
    );
    const resize = new ResizeObserver(() =>
      chart.setSize({ width: Math.max(240, box.clientWidth), height: HEIGHT }),
    );
    resize.observe(box);
    return () => {
      resize.disconnect();
      chart.destroy();
    };
  }, [data, locale, t, drawable]);

  return (
    <>
      <div ref={boxRef} className="visits-chart" aria-hidden="true" hidden={!drawable} />
      <table className="visually-hidden">
        <caption>{t('site.analytics.chartLabel')}</caption>
        <thead>
          <tr>
            <th scope="col">{t('site.analytics.date')}</th>
            <th scope="col">{t('site.analytics.visitors')}</th>
            <th scope="col">{t('site.analytics.visits')}</th>
            <th scope="col">{t('site.analytics.pageViews')}</th>
            <th scope="col">{t('site.analytics.bytes')}</th>
          </tr>
        </thead>
        <tbody>
          {data.days.map((day) => (
            <tr key={day.date}>
              <th scope="row">{day.date}</th>
              <td>{formatNumber(locale, day.uniqueVisitors)}</td>
              <td>{formatNumber(locale, day.visits)}</td>
              <td>{formatNumber(locale, day.pageViews)}</td>
              <td>{formatBytes(locale, day.bytes)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}
