import { z } from 'zod';
import type { PlanId } from './plans.js';

/**
 * The fidelity report of a version (issue 21): how faithful the copy is, measured page by page
 * against the live original in Chromium, at two widths.
 */

export const FIDELITY_VIEWPORTS = ['desktop', 'mobile'] as const;
export type FidelityViewport = (typeof FIDELITY_VIEWPORTS)[number];

/**
 * Why a page fell short: its pixels differ beyond the noise (`pixels`: different content), a file
 * the original loads fails in the copy (`failed-requests`: a missing file), the copy still asks
 * another host (`external-requests`), the copy's scripts throw where the original's do not
 * (`script-errors`), or the copy could not be shown at all (`copy-unavailable`).
 */
export const FIDELITY_REASONS = [
  'pixels',
  'failed-requests',
  'external-requests',
  'script-errors',
  'copy-unavailable',
] as const;
export type FidelityReason = (typeof FIDELITY_REASONS)[number];

/** Where a version's check stands. */
export const FIDELITY_STATES = ['queued', 'running', 'completed', 'failed'] as const;
export type FidelityState = (typeof FIDELITY_STATES)[number];

/** Pages checked at most, by plan (`demo`: a visitor's mirror); beyond it, a sample. */
export const FIDELITY_MAX_PAGES: Readonly<Record<PlanId | 'demo', number>> = {
  demo: 3,
  free: 5,
  pro: 10,
  agency: 25,
};

/** Pages one "Re-capture this page" request may name. */
export const FIDELITY_RECAPTURE_MAX = 10;

export const FIDELITY_MESSAGES = {
  notChecked: 'This version has not been checked yet.',
  nothingLive: 'This site has no live version to check yet.',
  rateLimited: 'Too many fidelity checks. Please wait a few minutes and try again.',
  unknownPage: 'That page was not part of the last check.',
  busy: 'This site is being checked already. Please wait for the result.',
  shotNotFound: 'Screenshot not found.',
} as const;

export const FidelityFailedRequest = z.object({
  url: z.string(),
  /** `HTTP 404`, or the network error's code. */
  reason: z.string(),
  /** The original failed on the same file too: the copy is no worse. */
  inOriginal: z.boolean(),
});
export type FidelityFailedRequest = z.infer<typeof FidelityFailedRequest>;

const FidelityMeasurement = z.object({
  /** Differing pixels in per cent, noise left out. */
  diffPercent: z.number(),
  /** Pixels that differ between two renders of the original (animations, rotating content). */
  noisePercent: z.number(),
  /** Visible text of the copy against the original's, 0..1. */
  textSimilarity: z.number(),
  failedRequests: z.array(FidelityFailedRequest),
  /** Addresses on other hosts the copy asked for (refused during the check). */
  externalRequests: z.array(z.string()),
  /** Uncaught script errors of the copy's render that the original's did not have. */
  scriptErrors: z.array(z.string()),
  /** Empty when the page is faithful. */
  reasons: z.array(z.enum(FIDELITY_REASONS)),
});

export const FidelityPage = FidelityMeasurement.extend({
  /** Path in the copy. */
  path: z.string(),
  /** The original's address that was compared. */
  url: z.string(),
  viewport: z.enum(FIDELITY_VIEWPORTS),
  belowThreshold: z.boolean(),
  /** The measurement before a re-capture repaired the page ("4.2% → 0.1%"); null without one. */
  repaired: FidelityMeasurement.nullable(),
  /** Why the original could not be measured (its site was down): counts neither way. */
  unmeasured: z.string().nullable(),
  /** Small PNG screenshots (320 px wide); null when not stored. */
  originalShot: z.string().nullable(),
  copyShot: z.string().nullable(),
  diffShot: z.string().nullable(),
});
export type FidelityPage = z.infer<typeof FidelityPage>;

export const FidelitySummary = z.object({
  state: z.enum(FIDELITY_STATES),
  /** 0–100: the share of pixels that match, averaged over the checked pages; null until checked. */
  score: z.number().nullable(),
  /** Distinct pages checked (each at both widths). */
  pagesChecked: z.number().int(),
  /**
   * While the check runs (issue 31, item 10): page renders compared so far, of those planned
   * (pages × widths); null before it reports. Optional: older servers do not send it.
   */
  progress: z
    .object({ done: z.number().int().min(0), total: z.number().int().min(0) })
    .nullable()
    .optional(),
});
export type FidelitySummary = z.infer<typeof FidelitySummary>;

/** GET/POST /domains/clone/{id}/fidelity: the live version's report. */
export const FidelityReportResponse = FidelitySummary.extend({
  versionId: z.string(),
  checkedAt: z.string().nullable(),
  /** Pages × widths below the threshold, of them repaired, and not measured. */
  belowThreshold: z.number().int(),
  repairedCount: z.number().int(),
  unmeasured: z.number().int(),
  /** The check repaired pages into a newer version (now live): that version's id. */
  repairedVersionId: z.string().nullable(),
  /** Why the check itself failed (state `failed`). */
  error: z.string().nullable(),
  pages: z.array(FidelityPage),
});
export type FidelityReportResponse = z.infer<typeof FidelityReportResponse>;

/** POST /domains/clone/{id}/fidelity: check again; `paths` re-captures and checks only these. */
export const FidelityCheckBody = z
  .object({
    paths: z.array(z.string().min(1).max(2000)).min(1).max(FIDELITY_RECAPTURE_MAX).optional(),
  })
  .default({});
export type FidelityCheckBody = z.input<typeof FidelityCheckBody>;

/** A stored screenshot of a check: `GET /domains/fidelity-shots/{file}` (`<sha256>.png`). */
export const FidelityShotParams = z.object({
  file: z.string().regex(/^[0-9a-f]{64}\.png$/, 'Not a screenshot of a fidelity check.'),
});
