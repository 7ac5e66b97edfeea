import type { FidelitySummary } from '@mirror/contract';
import { formatNumber, formatPercent } from './format';

export type Translate = (key: string, vars?: Record<string, string | number>) => string;

/**
 * The one line that says how faithful a version is (issue 21), shared by the site page and the
 * demo's completed panel: "Fidelity 99.6% · 12 pages checked", "Checking fidelity…" while the
 * check is queued or running, "Fidelity check failed"; null when there is nothing to say.
 */
export function fidelitySummaryText(
  t: Translate,
  locale: string,
  summary: FidelitySummary | null | undefined,
): string | null {
  if (!summary) return null;
  if (summary.state === 'queued' || summary.state === 'running') return t('fidelity.checking');
  if (summary.state === 'failed') return t('fidelity.failed');
  if (summary.score === null) return null;
  return t(summary.pagesChecked === 1 ? 'fidelity.summaryOne' : 'fidelity.summary', {
    score: formatPercent(locale, summary.score),
    count: formatNumber(locale, summary.pagesChecked),
  });
}

/** "Fidelity 99.6%" for a completed check; null otherwise (a version's row in the history). */
export function fidelityScoreText(
  t: Translate,
  locale: string,
  summary: FidelitySummary | null | undefined,
): string | null {
  if (summary?.state !== 'completed' || summary.score === null) return null;
  return t('fidelity.score', { score: formatPercent(locale, summary.score) });
}

/**
 * A count in words ("1 page", "3 pages"): `{key}.{category}` for the language's plural category
 * (Intl.PluralRules: one, few, many…), falling back to `{key}.other`.
 */
export function countText(
  t: Translate,
  locale: string,
  key: string,
  count: number,
  vars: Record<string, string | number> = {},
): string {
  const category = new Intl.PluralRules(locale).select(count);
  const withCount = { ...vars, count: formatNumber(locale, count) };
  const exact = `${key}.${category}`;
  const text = t(exact, withCount);
  return text === exact ? t(`${key}.other`, withCount) : text;
}
