/**
 * When a copy of a page counts as faithful, and the copy's score. A copy that is missing something
 * must not score as faithful: a failed request the original does not have, a file still fetched
 * from elsewhere, or a script error the original does not have puts a page below the threshold
 * however alike its pixels look.
 */
import type {
  FidelityMeasurement,
  FidelityPageResult,
  FidelityReason,
  FidelityReport,
} from './types.js';

/** How much of the copy's new script errors a measurement keeps. */
export const FIDELITY_SCRIPT_ERRORS = {
  /** Messages kept per page and viewport. */
  maxMessages: 10,
  /** Characters kept of each message. */
  maxLength: 300,
} as const;

export const FIDELITY_THRESHOLDS = {
  /** Differing pixels, after noise, in per cent. */
  maxDiffPercent: 1,
  /** A copy with any page below the threshold scores at most this (faithful copies score 99+). */
  cappedScore: 98.9,
} as const;

/** Why a page is below the threshold; empty when it is faithful. */
export function belowThreshold(
  measurement: Pick<
    FidelityMeasurement,
    'diffPercent' | 'failedRequests' | 'externalRequests' | 'scriptErrors'
  >,
): FidelityReason[] {
  const reasons: FidelityReason[] = [];
  if (measurement.diffPercent > FIDELITY_THRESHOLDS.maxDiffPercent) reasons.push('pixels');
  if (measurement.failedRequests.some((f) => !f.inOriginal)) reasons.push('failed-requests');
  if (measurement.externalRequests.length > 0) reasons.push('external-requests');
  if (measurement.scriptErrors.length > 0) reasons.push('script-errors');
  return reasons;
}

/**
 * A page that still asks another host for files but is otherwise faithful: it looks like the
 * original (the check refused those requests), so it does not lower the score; the report names
 * the files apart, and the page is still captured again by a repair.
 */
export function onlyExternal(page: Pick<FidelityPageResult, 'reasons'>): boolean {
  return page.reasons.length > 0 && page.reasons.every((r) => r === 'external-requests');
}

/**
 * The mean of 100 − diffPercent over the measured pages (a page whose copy could not be rendered
 * counts 0), capped at `cappedScore` when any page is below the threshold for what it shows (not
 * only for files it loads from another site), one decimal. A check that measured nothing scores 0.
 */
export function fidelityScore(
  pages: Pick<FidelityPageResult, 'diffPercent' | 'belowThreshold' | 'unmeasured' | 'reasons'>[],
): number {
  const measured = pages.filter((p) => p.unmeasured === undefined);
  if (measured.length === 0) return 0;
  let sum = 0;
  for (const page of measured) {
    sum += page.reasons.includes('copy-unavailable') ? 0 : Math.max(0, 100 - page.diffPercent);
  }
  let score = sum / measured.length;
  if (measured.some((p) => p.belowThreshold && !onlyExternal(p)))
    score = Math.min(score, FIDELITY_THRESHOLDS.cappedScore);
  return Math.floor(score * 10) / 10;
}

/** The score and the counts of a report, derived from its pages (pages × viewports). */
export function summarizeFidelity(
  pages: Pick<
    FidelityPageResult,
    'diffPercent' | 'belowThreshold' | 'unmeasured' | 'reasons' | 'repaired'
  >[],
): Pick<FidelityReport, 'score' | 'summary'> {
  return {
    score: fidelityScore(pages),
    summary: {
      checked: pages.length,
      belowThreshold: pages.filter((p) => p.belowThreshold).length,
      repaired: pages.filter((p) => p.repaired && !p.belowThreshold).length,
      unmeasured: pages.filter((p) => p.unmeasured !== undefined).length,
    },
  };
}
