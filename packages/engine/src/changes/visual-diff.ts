/**
 * The visual diff of a change report (issue 33): the pages whose text changed, rendered as they
 * were (the previous version) and as they are (the new one), both served on local origins, at the
 * fidelity check's widths and with its renderer, pixel comparison, noise and heatmaps. Where the
 * two differ, the new version is rendered a second time: what differs between its own two renders
 * (a banner picked at random, a live counter) is its noise and is left out of the score.
 */
import type { Browser } from 'playwright-core';
import { FIDELITY_DEFAULTS, messageOf, round } from '../fidelity/check.js';
import {
  blankPng,
  decodePng,
  differingPixels,
  encodePng,
  heatmap,
  measureDifference,
  noiseMask,
  noNoise,
  sameEverywhere,
  scaleToWidth,
} from '../fidelity/compare.js';
import {
  createRenderLanes,
  frozenMinute,
  type PageCapture,
  type RenderLanes,
  type RenderSide,
} from '../fidelity/render-page.js';
import {
  FIDELITY_VIEWPORTS,
  type FidelityLimits,
  type FidelityViewportName,
} from '../fidelity/types.js';
import { forEachLimit } from '../for-each-limit.js';
import { createHttpClient } from '../net/http-client.js';
import type { Resolve } from '../net/safe-lookup.js';
import { launchChromium } from '../render/chromium.js';

export interface VisualDiffOptions {
  /** The origin serving the previous version, its pages at their paths (`http://127.0.0.1:PORT`). */
  before: { url: string };
  /** The origin serving the new version. */
  after: { url: string };
  /** Paths (and queries) of the pages to compare, as in the manifests. */
  paths: string[];
  /** Default both. */
  viewports?: FidelityViewportName[];
  /** How the origins' host names resolve (Node does not resolve `*.localhost`); default system. */
  resolve?: Resolve;
  /** A browser from `launchChromium`, shared with the caller; default: launched and closed here. */
  browser?: Browser;
  /** For the browser launched here; default /usr/bin/chromium. */
  chromiumPath?: string;
  limits?: Omit<FidelityLimits, 'maxRepairs'>;
  now?: () => number;
  onProgress?: (event: { done: number; total: number; path: string }) => void;
  signal?: AbortSignal;
}

export interface VisualDiffShots {
  before: Buffer;
  after: Buffer;
  /** The new version in grey; differing pixels red, noise (left out of the score) blue. */
  diff: Buffer;
}

export interface VisualDiffPage {
  path: string;
  viewport: FidelityViewportName;
  /** Pixels that differ, in per cent of the pixels that are not noise (0: looks the same). */
  diffPercent: number;
  /** Pixels that differ between two renders of the new version, in per cent: not counted. */
  noisePercent: number;
  /** A side could not be rendered (its message): nothing was measured. */
  unmeasured?: string;
  /** PNGs scaled to `shotWidth` (320 px) wide. */
  shots: VisualDiffShots;
}

export interface VisualDiffReport {
  checkedAt: string;
  durationMs: number;
  /** Page by page, each page's viewports together (desktop first). */
  pages: VisualDiffPage[];
}

/** Compares each of `paths` as the two origins serve it, at desktop and phone widths. */
export async function compareRenderedPages(options: VisualDiffOptions): Promise<VisualDiffReport> {
  const now = options.now ?? Date.now;
  const started = now();
  const limits = { ...FIDELITY_DEFAULTS, ...options.limits };
  const viewports = options.viewports ?? (['desktop', 'mobile'] as const);
  // Both origins are the caller's own servers: only their addresses are ever asked for.
  const client = createHttpClient({
    allowPrivateNetworks: true,
    ...(options.resolve ? { resolve: options.resolve } : {}),
  });
  const sideOf = (name: 'before' | 'after', url: string): RenderSide => ({
    name,
    client,
    ownOrigin: new URL(url).origin,
  });
  const before = sideOf('before', options.before.url);
  const after = sideOf('after', options.after.url);
  // One viewport after the other (the lanes of one viewport carry on from page to page); `rank`
  // is the place in the report: page by page, each page's viewports together.
  const tasks = viewports.flatMap((viewport, v) =>
    options.paths.map((path, p) => ({ path, viewport, rank: p * viewports.length + v })),
  );
  let browser: Browser | undefined = options.browser;
  const ownBrowser = browser === undefined;
  let lanes: RenderLanes | undefined;

  const render = (side: RenderSide, task: (typeof tasks)[number]): Promise<PageCapture> => {
    options.signal?.throwIfAborted();
    return lanes!.capture({
      url: new URL(task.path, side.ownOrigin).href,
      viewport: FIDELITY_VIEWPORTS[task.viewport],
      mobile: task.viewport === 'mobile',
      side,
      maxHeight: limits.maxHeight,
      timeoutMs: limits.pageTimeoutMs,
      ...(options.signal ? { signal: options.signal } : {}),
    });
  };

  const compareTask = async (task: (typeof tasks)[number]): Promise<VisualDiffPage> => {
    const [a, b] = await Promise.allSettled([render(before, task), render(after, task)]);
    options.signal?.throwIfAborted();
    if (a.status === 'rejected' || b.status === 'rejected') {
      const shrunk = (capture: PromiseSettledResult<PageCapture>) =>
        capture.status === 'fulfilled'
          ? encodePng(scaleToWidth(decodePng(capture.value.png), limits.shotWidth))
          : blankPng();
      return {
        path: task.path,
        viewport: task.viewport,
        diffPercent: 0,
        noisePercent: 0,
        unmeasured: messageOf(
          a.status === 'rejected' ? a.reason : (b as PromiseRejectedResult).reason,
        ),
        shots: { before: shrunk(a), after: shrunk(b), diff: blankPng() },
      };
    }
    const beforePicture = decodePng(a.value.png);
    // Equal pixels make equal PNG bytes: an unchanged look costs one decode and no comparison.
    const identical = a.value.png.equals(b.value.png);
    const afterPicture = identical ? beforePicture : decodePng(b.value.png);
    const differing = identical
      ? sameEverywhere(beforePicture)
      : differingPixels(beforePicture, afterPicture);
    let noise = noNoise();
    if (differing.count > 0) {
      const again = await render(after, task).catch(() => {
        options.signal?.throwIfAborted();
        return undefined;
      });
      if (again) noise = noiseMask(afterPicture, decodePng(again.png));
    }
    const difference = measureDifference(differing, noise);
    return {
      path: task.path,
      viewport: task.viewport,
      diffPercent: round(difference.diffPercent, 3),
      noisePercent: round(difference.noisePercent, 3),
      shots: {
        before: encodePng(scaleToWidth(beforePicture, limits.shotWidth)),
        after: encodePng(scaleToWidth(afterPicture, limits.shotWidth)),
        diff: encodePng(heatmap(afterPicture, difference, limits.shotWidth)),
      },
    };
  };

  const results: VisualDiffPage[] = new Array(tasks.length);
  let done = 0;
  try {
    browser ??= await launchChromium({
      executablePath: options.chromiumPath ?? limits.chromiumPath,
    });
    // Every render starts at the same minute: both versions read one date.
    lanes = createRenderLanes(browser, {
      maxOpen: Math.max(1, limits.concurrency),
      frozenTime: frozenMinute(started),
    });
    await forEachLimit(tasks, Math.max(1, limits.concurrency), async (task, index) => {
      results[index] = await compareTask(task);
      done++;
      options.onProgress?.({ done, total: tasks.length, path: task.path });
    });
    const pages = tasks
      .map((task, index) => ({ rank: task.rank, page: results[index]! }))
      .sort((x, y) => x.rank - y.rank)
      .map(({ page }) => page);
    return { checkedAt: new Date(started).toISOString(), durationMs: now() - started, pages };
  } finally {
    await lanes?.close();
    await client.close().catch(() => undefined);
    if (ownBrowser && browser) await browser.close().catch(() => undefined);
  }
}
