/**
 * Pure work on stored fidelity reports: a partial check merged into the last full one, repairs
 * taken back out (a repair that was not published), and the API's answer.
 */
import type { FidelityPage, FidelityReportResponse } from '@mirror/contract';
import { summarizeFidelity } from '@mirror/engine';
import type { StoredFidelityPage, StoredFidelityReport } from './fidelity-check.task.js';
import { pagesChecked, withProgress, type FidelityRow } from './fidelity.repository.js';

/** The report with its score and counts derived again from its pages. */
function recount(report: StoredFidelityReport): StoredFidelityReport {
  return { ...report, ...summarizeFidelity(report.pages) };
}

/** The last report with the pages of a partial check (same path and width) replaced or added. */
export function mergeReports(
  previous: StoredFidelityReport | null,
  partial: StoredFidelityReport,
): StoredFidelityReport {
  if (!previous) return partial;
  const key = (p: StoredFidelityPage) => `${p.viewport} ${p.path}`;
  const fresh = new Map(partial.pages.map((p) => [key(p), p]));
  const pages = previous.pages.map((p) => fresh.get(key(p)) ?? p);
  const known = new Set(previous.pages.map(key));
  pages.push(...partial.pages.filter((p) => !known.has(key(p))));
  return recount({ ...partial, pages });
}

/**
 * The report as the checked copy stands when its repair is not published: each repaired page
 * measured as before the repair (its screenshots are those of the attempt).
 */
export function withoutRepairs(report: StoredFidelityReport): StoredFidelityReport {
  if (!report.pages.some((p) => p.repaired)) return report;
  const pages = report.pages.map((page): StoredFidelityPage => {
    if (!page.repaired) return page;
    const { repaired, ...rest } = page;
    const { before } = repaired;
    return { ...rest, ...before, belowThreshold: before.reasons.length > 0 };
  });
  return recount({ ...report, pages });
}

export function shotUrl(hash: string): string {
  return `/api/domains/fidelity-shots/${hash}.png`;
}

type Measured = Pick<
  StoredFidelityPage,
  | 'diffPercent'
  | 'noisePercent'
  | 'textSimilarity'
  | 'failedRequests'
  | 'externalRequests'
  | 'reasons'
> & { scriptErrors?: string[] };

function measurement(p: Measured) {
  return {
    diffPercent: p.diffPercent,
    noisePercent: p.noisePercent,
    textSimilarity: p.textSimilarity,
    failedRequests: p.failedRequests,
    externalRequests: p.externalRequests,
    scriptErrors: p.scriptErrors ?? [],
    reasons: p.reasons,
  };
}

/** The API's answer for a version's row. */
export function reportResponse(row: FidelityRow): FidelityReportResponse {
  const report = row.report ? (JSON.parse(row.report) as StoredFidelityReport) : null;
  const pages: FidelityPage[] = (report?.pages ?? []).map((p) => ({
    path: p.path,
    url: p.url,
    viewport: p.viewport,
    ...measurement(p),
    belowThreshold: p.belowThreshold,
    repaired: p.repaired ? measurement(p.repaired.before) : null,
    unmeasured: p.unmeasured ?? null,
    originalShot: shotUrl(p.shots.original),
    copyShot: shotUrl(p.shots.copy),
    diffShot: shotUrl(p.shots.diff),
  }));
  return {
    versionId: row.version_id,
    state: row.state,
    score: row.score === null ? null : Number(row.score),
    pagesChecked: report ? pagesChecked(report) : 0,
    ...withProgress(row),
    checkedAt: row.checked_at === null ? null : new Date(row.checked_at).toISOString(),
    belowThreshold: report?.summary.belowThreshold ?? 0,
    repairedCount: report?.summary.repaired ?? 0,
    unmeasured: report?.summary.unmeasured ?? 0,
    repairedVersionId: row.repaired_version_id,
    error: row.error,
    pages,
  };
}
