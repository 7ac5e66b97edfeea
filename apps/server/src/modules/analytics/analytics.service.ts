import {
  ANALYTICS_PERIODS,
  PARKED_VISITS_DAYS,
  type AnalyticsPeriod,
  type AnalyticsResponse,
} from '@mirror/contract';
import type { Db } from '../../platform/db/database.js';
import {
  listSiteDays,
  pruneAnalytics,
  sumOwnerParked,
  sumOwnerSites,
  sumParkedDomains,
  topSiteKeys,
} from './analytics.repository.js';
import { dayBefore, utcDayOf } from './visitor-rules.js';

/** Daily counts of sites and parked domains are kept this long (a year and a bit, for comparisons). */
export const ANALYTICS_RETENTION_DAYS = 400;
/** Top paths and referrers are kept as long as the longest period asks for. */
export const TOP_KEYS_RETENTION_DAYS = Math.max(...ANALYTICS_PERIODS.map((p) => daysOf(p)));
/** Visitor marks and their salts live today and yesterday only (late writes of yesterday). */
export const VISITOR_MARKS_RETENTION_DAYS = 2;
const TOP_LIMIT = 10;

function daysOf(period: AnalyticsPeriod): number {
  return Number(period.replace('d', ''));
}

export interface AccountAudience {
  pageViews: number;
  visitors: number;
  bytes: number;
  parked: { visitors: number; pageViews: number };
}

/** Reading what the sites host counted (`visit-recorder.ts`), and forgetting it in time. */
export function createAnalyticsService(deps: { db: Db }) {
  const { db } = deps;

  return {
    /** A site's audience over the period's UTC days, today included. */
    async siteAnalytics(
      siteId: string,
      period: AnalyticsPeriod,
      now = new Date(),
    ): Promise<AnalyticsResponse> {
      const today = utcDayOf(now.getTime());
      const days = daysOf(period);
      const dates = Array.from({ length: days }, (_, i) => dayBefore(today, days - 1 - i));
      const from = dates[0]!;
      const [rows, pages, referrers] = await Promise.all([
        listSiteDays(db, siteId, from),
        topSiteKeys(db, siteId, 'page', from, TOP_LIMIT),
        topSiteKeys(db, siteId, 'referrer', from, TOP_LIMIT),
      ]);
      const byDay = new Map(rows.map((row) => [row.day, row]));
      const series = dates.map((date) => {
        const row = byDay.get(date);
        return {
          date,
          visits: row?.visits ?? 0,
          pageViews: row?.page_views ?? 0,
          uniqueVisitors: row?.visitors ?? 0,
          bytes: Number(row?.bytes ?? 0),
        };
      });
      const sum = (pick: (d: (typeof series)[number]) => number) =>
        series.reduce((total, d) => total + pick(d), 0);
      return {
        period,
        days: series,
        totals: {
          visits: sum((d) => d.visits),
          pageViews: sum((d) => d.pageViews),
          uniqueVisitors: sum((d) => d.uniqueVisitors),
          bytes: sum((d) => d.bytes),
          botViews: dates.reduce((total, date) => total + (byDay.get(date)?.bot_views ?? 0), 0),
        },
        topPages: pages.map((p) => ({ path: p.key, views: p.hits })),
        topReferrers: referrers.map((r) => ({ host: r.key, visits: r.hits })),
      };
    },

    /** What a user's sites and parked domains were visited between two UTC days (inclusive). */
    async accountAudience(
      userId: string,
      fromDay: string,
      toDay: string,
    ): Promise<AccountAudience> {
      const [sites, parked] = await Promise.all([
        sumOwnerSites(db, userId, fromDay, toDay),
        sumOwnerParked(db, userId, fromDay, toDay),
      ]);
      return { ...sites, parked };
    },

    /** Visitors and page views of parked domains over the last `PARKED_VISITS_DAYS` days. */
    async parkedVisits(
      domainIds: readonly string[],
      now = new Date(),
    ): Promise<Map<string, { visitors: number; pageViews: number }>> {
      const from = dayBefore(utcDayOf(now.getTime()), PARKED_VISITS_DAYS - 1);
      const rows = await sumParkedDomains(db, domainIds, from);
      return new Map(
        rows.map((row) => [row.domainId, { visitors: row.visitors, pageViews: row.pageViews }]),
      );
    },

    /** Periodic: drops counts past retention, and visitor marks and salts older than yesterday. */
    async prune(now = new Date()): Promise<void> {
      const today = utcDayOf(now.getTime());
      await pruneAnalytics(db, {
        counts: dayBefore(today, ANALYTICS_RETENTION_DAYS - 1),
        keys: dayBefore(today, TOP_KEYS_RETENTION_DAYS - 1),
        visitors: dayBefore(today, VISITOR_MARKS_RETENTION_DAYS - 1),
      });
    },
  };
}

export type AnalyticsService = ReturnType<typeof createAnalyticsService>;
