/**
 * A fidelity report for people (a table) and for files (JSON without the screenshots' bytes).
 */
import type { FidelityPageResult, FidelityReport, FidelityShots } from './types.js';

const pct = (n: number) => `${n.toFixed(2)}%`;

function resultText(page: FidelityPageResult): string {
  if (page.unmeasured !== undefined) return `not measured: ${page.unmeasured}`;
  const verdict = page.belowThreshold ? `below threshold (${page.reasons.join(', ')})` : 'faithful';
  if (!page.repaired) return verdict;
  return `repaired: ${pct(page.repaired.before.diffPercent)} → ${pct(page.diffPercent)}, ${verdict}`;
}

/**
 * One line per page and viewport (path, viewport, diff, noise, text, failed, external, errors:
 * the copy's new failed requests and script errors), then the score.
 */
export function formatFidelitySummary(report: FidelityReport): string {
  const rows = [
    ['path', 'viewport', 'diff', 'noise', 'text', 'failed', 'external', 'errors', 'result'],
    ...report.pages.map((page) => [
      page.path.length > 48 ? `${page.path.slice(0, 47)}…` : page.path,
      page.viewport,
      page.unmeasured === undefined ? pct(page.diffPercent) : '-',
      page.unmeasured === undefined ? pct(page.noisePercent) : '-',
      page.unmeasured === undefined ? `${Math.round(page.textSimilarity * 100)}%` : '-',
      String(page.failedRequests.filter((f) => !f.inOriginal).length),
      String(page.externalRequests.length),
      String(page.scriptErrors.length),
      resultText(page),
    ]),
  ];
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => r[c]!.length)));
  const lines = rows.map((row) =>
    row
      .map((cell, c) => (c === row.length - 1 ? cell : cell.padEnd(widths[c]!)))
      .join('  ')
      .trimEnd(),
  );
  const s = report.summary;
  lines.push(
    '',
    `Fidelity score ${report.score.toFixed(1)} / 100 — ${s.checked} checked, ` +
      `${s.belowThreshold} below threshold, ${s.repaired} repaired` +
      `${s.unmeasured ? `, ${s.unmeasured} not measured` : ''} ` +
      `(${(report.durationMs / 1000).toFixed(1)} s)`,
  );
  if (report.repairError) lines.push(`Repair failed: ${report.repairError}`);
  return `${lines.join('\n')}\n`;
}

/**
 * The report as JSON data: each page's `shots` replaced by what `shotName` says of it (file names
 * written beside the report, for instance), or left out.
 */
export function fidelityReportData(
  report: FidelityReport,
  shotName?: (page: FidelityPageResult, kind: keyof FidelityShots) => string,
): unknown {
  return {
    ...report,
    pages: report.pages.map((page) => {
      const { shots: _bytes, ...rest } = page;
      if (!shotName) return rest;
      const shots = {
        original: shotName(page, 'original'),
        copy: shotName(page, 'copy'),
        diff: shotName(page, 'diff'),
      };
      return { ...rest, shots };
    }),
  };
}
