/**
 * The fidelity check's public contracts: what a caller hands in (the original, a way to reach the
 * copy, a sample of pages, a browser, limits, a repair hook) and the report it gets back.
 */
import type { Browser } from 'playwright-core';
import type { HttpClient } from '../net/http-client.js';
import type { Resolve } from '../net/safe-lookup.js';

export type FidelityViewportName = 'desktop' | 'mobile';

/** The two widths every sampled page is compared at. */
export const FIDELITY_VIEWPORTS: Readonly<
  Record<FidelityViewportName, { width: number; height: number }>
> = {
  desktop: { width: 1280, height: 800 },
  mobile: { width: 390, height: 844 },
};

/** One page to check: its path in the copy and its address on the original site. */
export interface FidelityPageRef {
  /** Path (and query) in the copy, as in the manifest: `/about`, `/list?page=2`. */
  path: string;
  /** The original's address of the page; default: `path` resolved against the original's URL. */
  url?: string;
}

/** Requests of one render that failed: HTTP status 400 or more, or no answer at all. */
export interface FailedRequest {
  url: string;
  /** `HTTP 500`, or the network error's code (`ECONNREFUSED`, `ETIMEDOUT`, …). */
  reason: string;
  /** The original's render of the same page failed on the same file too (the copy is no worse). */
  inOriginal: boolean;
}

/** What one comparison of the copy with the original found, for one page at one viewport. */
export interface FidelityMeasurement {
  /**
   * Pixels that differ, in per cent of the pixels that are not noise (the union of both
   * screenshots' areas, up to the height cap; height the other lacks counts as different).
   */
  diffPercent: number;
  /** Pixels that differ between two renders of the original, in per cent: left out of the score. */
  noisePercent: number;
  /** Visible text of the copy against the original's, 0..1 (1: the same words as often). */
  textSimilarity: number;
  /** Requests of the copy that failed. */
  failedRequests: FailedRequest[];
  /** Requests of the copy to any origin but its own (refused: the copy must be self-contained). */
  externalRequests: string[];
  /**
   * Uncaught errors of the copy's scripts that the original's renders of the page did not have
   * (compared by message text, `TypeError: …`): each once, at most `FIDELITY_SCRIPT_ERRORS.maxMessages`,
   * each cut to `maxLength` characters. A script that throws in the copy only lost something it
   * needs (a file loaded at run time the crawl did not find).
   */
  scriptErrors: string[];
  /** Page heights in CSS pixels (before the height cap). */
  height: { original: number; copy: number };
}

/** Why a page is below the threshold (`belowThreshold`). */
export type FidelityReason =
  /** More than `FIDELITY_THRESHOLDS.maxDiffPercent` of the non-noise pixels differ. */
  | 'pixels'
  /** A request of the copy failed that the original's render did not. */
  | 'failed-requests'
  /** The copy still asks the original or another host for something. */
  | 'external-requests'
  /** The copy's scripts throw an uncaught error the original's do not (`scriptErrors`). */
  | 'script-errors'
  /** The copy could not be rendered (timeout, crash, no answer for the page). */
  | 'copy-unavailable';

export interface FidelityPageResult extends FidelityMeasurement {
  path: string;
  /** The original's address that was compared. */
  url: string;
  viewport: FidelityViewportName;
  /** Empty when the page is faithful (after a repair, when there was one). */
  reasons: FidelityReason[];
  belowThreshold: boolean;
  /**
   * Present when the page was below the threshold and the caller's `repair` re-captured it: the
   * measurement before the repair; the page's own fields are the one after ("4.2% → 0.1%").
   */
  repaired?: { before: FidelityMeasurement & { reasons: FidelityReason[] } };
  /**
   * The original could not be rendered (its site is down now, a timeout): nothing was measured,
   * and the page counts neither for nor against the score.
   */
  unmeasured?: string;
  /** PNG screenshots scaled to `shotWidth` (320 px) wide: original, copy, and a heatmap. */
  shots: FidelityShots;
}

export interface FidelityShots {
  original: Buffer;
  copy: Buffer;
  /** The copy in grey; differing pixels red, noise (left out of the score) blue. */
  diff: Buffer;
}

export interface FidelityReport {
  /**
   * 0..100, one decimal: the mean over checked pages and viewports of 100 − diffPercent, capped at
   * 98.9 when any page is below the threshold for more than files it loads from another site. 99
   * or more means every checked page looks like the original.
   */
  score: number;
  checkedAt: string;
  durationMs: number;
  originalUrl: string;
  pages: FidelityPageResult[];
  /** Counts over `pages` (page × viewport); `repaired`: below the threshold, faithful after repair. */
  summary: {
    checked: number;
    belowThreshold: number;
    repaired: number;
    unmeasured: number;
  };
  /** The caller's `repair` threw: its message (the pages keep their first result). */
  repairError?: string;
}

/** A page the checker asks the caller to capture again, with why, per viewport. */
export interface FidelityRepairRequest {
  path: string;
  url: string;
  reasons: FidelityReason[];
  failedRequests: FailedRequest[];
  externalRequests: string[];
  scriptErrors: string[];
}

export interface FidelityLimits {
  /** Chromium pages open at once (the check's memory): default 4. */
  concurrency?: number;
  /** One render of one page, default 20 s. */
  pageTimeoutMs?: number;
  /** Screenshots are cut at this many CSS pixels of height, default 4,000. */
  maxHeight?: number;
  /** Pages handed to `repair`, default 10. */
  maxRepairs?: number;
  /** Width of the stored screenshots, default 320. */
  shotWidth?: number;
}

export interface CheckFidelityOptions {
  original: {
    /** The site's address (after redirects of the start URL): page paths resolve against it. */
    url: string;
    /**
     * Answers every request the original's renders make (each redirect hop on its own): the
     * engine's pinned client, whose address policy decides what may be reached. Chromium itself
     * fetches nothing.
     */
    client: HttpClient;
  };
  copy: {
    /**
     * The origin the copy is served at, its pages at their copy paths: `http://127.0.0.1:PORT`
     * (`serveCopyFolder`), or the sites host (`http://abc.localhost:8080`, with `resolve`).
     * Only requests to this origin are answered; anything else is an external request, refused.
     */
    url: string;
    /** How the copy's host name resolves (Node does not resolve `*.localhost`); default system. */
    resolve?: Resolve;
  };
  pages: FidelityPageRef[];
  /** Default both. */
  viewports?: FidelityViewportName[];
  /** A browser from `launchChromium`, shared with the caller; default: launched and closed here. */
  browser?: Browser;
  /** For the browser launched here; default /usr/bin/chromium. */
  chromiumPath?: string;
  limits?: FidelityLimits;
  /**
   * Captures the listed pages again (with the render tier) and makes `copy.url` serve the new
   * capture; the checker then checks them once more and keeps both results. Called once, with
   * every page below the threshold (up to `maxRepairs`). Resolving `false` means nothing changed.
   */
  repair?: (pages: FidelityRepairRequest[]) => Promise<void | boolean>;
  /** Default Date.now (the report's `checkedAt` and `durationMs`). */
  now?: () => number;
  onProgress?: (event: { done: number; total: number; path: string }) => void;
  signal?: AbortSignal;
}
