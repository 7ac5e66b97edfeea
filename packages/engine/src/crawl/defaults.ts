import { availableParallelism } from 'node:os';
import type { MirrorOptions } from '../types.js';

/** Where the copy keeps the site's answer for unknown addresses (see `Manifest.fallback`). */
export const FALLBACK_PATH = '/_x/~fallback.html';

export const DEFAULTS = {
  maxPages: 5_000,
  maxBytes: 2 * 1024 ** 3,
  maxFileBytes: 100 * 1024 ** 2,
  maxTimeMs: 60 * 60 * 1000,
  pageConcurrency: 6,
  assetConcurrency: 16,
  requestTimeoutMs: 30_000,
  /** Whole requests (headers and body) take at most this long, or longer for large file limits. */
  maxRequestMs: 120_000,
  robotsTimeoutMs: 10_000,
  retries: 2,
  userAgent: 'MirrorBot/1.0 (+https://mirror.dev/bot)',
  /** Bodies parsed for references are held in memory up to this size; larger ones are stored only. */
  maxParsedBytes: 20 * 1024 ** 2,
  maxSitemapUrls: 50_000,
  /** Files (pages, assets, redirects) in one copy; bounds the manifest whatever a site links to. */
  maxFiles: 100_000,
  /** Links to pages followed from one document; the rest are counted and reported. */
  maxPageLinksPerDocument: 5_000,
  /** Assets taken from one document; the rest are counted and reported. */
  maxAssetsPerDocument: 5_000,
  /** Notes kept in the manifest. */
  maxNotes: 50,
  maxSitemapFiles: 20,
  /**
   * Memory a run may give Chromium and itself (the server passes its sandbox's): pages are
   * rendered at once, each in a context of one Chromium, as it allows (`renderConcurrencyFor`).
   */
  renderMemoryMb: 1536,
  /**
   * A template whose copies keep the server's HTML (replay) stops being rendered after this many
   * of its pages in a row fetched nothing new: their responses are all in the copy already.
   */
  renderQuietPages: 2,
  /** Pages of one template tried as its sample in 'auto' mode before its pages go unrendered. */
  renderSamples: 3,
  /** A sample's render waits this long at most for the crawl to read the files it fetched too. */
  renderSettleMs: 10_000,
  /** Entries rewritten at once at the end of a run. */
  rewriters: 8,
};

/**
 * Pages rendered at once within a memory budget: Chromium and the run take about 600 MB, each page
 * in its own context up to 200 MB more; no more than the machine's cores (a render is busy on
 * one), and between 1 and 4.
 */
export function renderConcurrencyFor(memoryMb: number, cores = availableParallelism()): number {
  return Math.max(1, Math.min(4, cores, Math.floor((memoryMb - 600) / 200)));
}

/** A run's limits and choices: its options, or the defaults. */
export interface Settings {
  maxPages: number;
  maxBytes: number;
  maxFileBytes: number;
  maxFiles: number;
  deadline: number;
  pageConcurrency: number;
  assetConcurrency: number;
  retries: number;
  userAgent: string;
  respectRobots: boolean;
  render: 'auto' | 'always' | 'never';
}

export function settingsOf(options: MirrorOptions, started: number): Settings {
  return {
    maxPages: options.maxPages ?? DEFAULTS.maxPages,
    maxBytes: options.maxBytes ?? DEFAULTS.maxBytes,
    maxFileBytes: options.maxFileBytes ?? DEFAULTS.maxFileBytes,
    maxFiles: options.maxFiles ?? DEFAULTS.maxFiles,
    deadline: started + (options.maxTimeMs ?? DEFAULTS.maxTimeMs),
    pageConcurrency: options.concurrency?.pages ?? DEFAULTS.pageConcurrency,
    assetConcurrency: options.concurrency?.assets ?? DEFAULTS.assetConcurrency,
    retries: options.retries ?? DEFAULTS.retries,
    userAgent: options.userAgent ?? DEFAULTS.userAgent,
    respectRobots: options.respectRobots ?? true,
    render: options.render ?? 'auto',
  };
}
