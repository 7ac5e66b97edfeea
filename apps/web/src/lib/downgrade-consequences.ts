import { getPlan, type DowngradePreview, type PlanId } from '@mirror/contract';
import { formatNumber, siteNameOf } from './format';
import type { TranslateVars } from './i18n/translate';

type Translate = (key: string, vars?: TranslateVars) => string;

/** A day (ISO time) in the reader's language, as the server's deadlines are sent. */
export function formatDay(locale: string, iso: string): string {
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium' }).format(new Date(iso));
}

/** Custom domains that go on the same day (in the reader's calendar), earliest first. */
function domainsByDay(
  preview: DowngradePreview,
  locale: string,
): { date: string; domains: string[] }[] {
  const groups = new Map<string, string[]>();
  const sorted = [...preview.customDomains.detaching].sort((a, b) =>
    a.detachAt.localeCompare(b.detachAt),
  );
  for (const { domain, detachAt } of sorted) {
    const date = formatDay(locale, detachAt);
    groups.set(date, [...(groups.get(date) ?? []), domain]);
  }
  return [...groups].map(([date, domains]) => ({ date, domains }));
}

/**
 * What moving from `current` to the previewed plan does to the account's sites and domains, as
 * sentences for a confirmation dialog (`billing.downgrade.*`). Empty lines are left out; when
 * nothing changes, one line says so.
 */
export function downgradeConsequences(
  preview: DowngradePreview,
  current: PlanId,
  t: Translate,
  locale: string,
): string[] {
  const n = (value: number) => formatNumber(locale, value);
  const lines: string[] = [];
  if (preview.sites.readOnly.length > 0) {
    lines.push(
      t('billing.downgrade.readOnly', {
        count: n(preview.sites.readOnly.length),
        total: n(preview.sites.count),
      }),
    );
  }
  if (preview.syncsStopping.length > 0) {
    lines.push(t('billing.downgrade.syncs', { count: n(preview.syncsStopping.length) }));
  }
  for (const { date, domains } of domainsByDay(preview, locale)) {
    lines.push(t('billing.downgrade.domains', { domains: domains.join(', '), date }));
  }
  // Only where the owner chose a subdomain: random ones are what every plan gets anyway.
  if (
    !preview.customSubdomain &&
    getPlan(current).limits.customSubdomain &&
    preview.chosenSubdomains > 0
  ) {
    lines.push(t('billing.downgrade.subdomains'));
  }
  if (lines.length === 0) lines.push(t('billing.downgrade.nothing'));
  return lines;
}

/**
 * What is over the current plan today, for the dashboard's notice (`dashboard.overLimit.*`);
 * empty when the account is within its plan.
 */
export function overLimitNotice(preview: DowngradePreview, t: Translate, locale: string): string[] {
  const n = (value: number) => formatNumber(locale, value);
  const lines: string[] = [];
  const { readOnly, count, limit } = preview.sites;
  if (readOnly.length > 0 && limit !== null) {
    lines.push(
      t('dashboard.overLimit.readOnly', {
        count: n(readOnly.length),
        total: n(count),
        limit: n(limit),
        sites: readOnly.map((site) => siteNameOf(site).name).join(', '),
      }),
    );
  }
  for (const { date, domains } of domainsByDay(preview, locale)) {
    lines.push(t('dashboard.overLimit.domains', { domains: domains.join(', '), date }));
  }
  return lines;
}
