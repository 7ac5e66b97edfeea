/**
 * The fidelity check: renders each sampled page of the original and of the copy at each viewport,
 * and where they differ the original a second time (its noise, left out of the score); compares
 * pixels and text, accounts for the copy's failed and external requests, and, when the caller can
 * repair, has the pages below the threshold captured again and checks them once more. See
 * docs/engine.md, "Fidelity check".
 */
import type { Browser } from 'playwright-core';
import { forEachLimit } from '../for-each-limit.js';
import { createHttpClient } from '../net/http-client.js';
import { launchChromium } from '../render/chromium.js';
import { createUrlMapper } from '../url-map.js';
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
  textSimilarity,
  type Differing,
  type NoiseMask,
  type Picture,
} from './compare.js';
import {
  createRenderLanes,
  frozenMinute,
  type PageCapture,
  type RenderLanes,
  type RenderSide,
} from './render-page.js';
import {
  FIDELITY_VIEWPORTS,
  type CheckFidelityOptions,
  type FailedRequest,
  type FidelityMeasurement,
  type FidelityPageResult,
  type FidelityReason,
  type FidelityReport,
  type FidelityViewportName,
} from './types.js';
import { belowThreshold, FIDELITY_SCRIPT_ERRORS, summarizeFidelity } from './verdict.js';

export const FIDELITY_DEFAULTS = {
  concurrency: 4,
  pageTimeoutMs: 20_000,
  maxHeight: 4_000,
  maxRepairs: 10,
  shotWidth: 320,
  chromiumPath: '/usr/bin/chromium',
} as const;

interface Task {
  path: string;
  url: string;
  copyUrl: string;
  viewport: FidelityViewportName;
  /** Place in the report: page by page, each page's viewports together. */
  rank: number;
}

/** What a repair re-check needs of the first pass: the original's render and its noise. */
interface Kept {
  original: Buffer;
  originalText: string[];
  originalFailures: Set<string>;
  /** Uncaught script errors of the original's renders, by message. */
  originalErrors: Set<string>;
  noise: NoiseMask;
  /** Whether the original was rendered a second time for `noise`. */
  noiseLearned: boolean;
  height: number;
}

/** `n` to `digits` decimals, as reports store their percentages. */
export function round(n: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(n * f) / f;
}

/** An error's first line, as a report shows why a render failed. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message.split('\n')[0]! : String(error);
}

export async function checkFidelity(options: CheckFidelityOptions): Promise<FidelityReport> {
  const now = options.now ?? Date.now;
  const started = now();
  // Every render of this check starts at the same minute: the copy and the original read one date.
  const frozenTime = frozenMinute(started);
  const limits = { ...FIDELITY_DEFAULTS, ...options.limits };
  const viewports = options.viewports ?? (['desktop', 'mobile'] as const);
  const mapper = createUrlMapper(options.original.url);
  const copyOrigin = new URL(options.copy.url).origin;
  // Only ever asked for addresses on the copy's origin, which the caller names (its own server).
  const copyClient = createHttpClient({
    allowPrivateNetworks: true,
    ...(options.copy.resolve ? { resolve: options.copy.resolve } : {}),
  });
  const originalSide: RenderSide = { name: 'original', client: options.original.client };
  const copySide: RenderSide = { name: 'copy', client: copyClient, ownOrigin: copyOrigin };
  let browser: Browser | undefined = options.browser;
  let lanes: RenderLanes | undefined;
  const ownBrowser = browser === undefined;

  // One viewport after the other: the lanes of one viewport carry on from page to page.
  const tasks: Task[] = viewports.flatMap((viewport, v) =>
    options.pages.map((page, p) => ({
      path: page.path,
      url: page.url ?? new URL(page.path, options.original.url).href,
      copyUrl: new URL(page.path, copyOrigin).href,
      viewport,
      rank: p * viewports.length + v,
    })),
  );

  const render = (task: Task, side: RenderSide, url: string): Promise<PageCapture> => {
    options.signal?.throwIfAborted();
    return lanes!.capture({
      url,
      viewport: FIDELITY_VIEWPORTS[task.viewport],
      mobile: task.viewport === 'mobile',
      side,
      maxHeight: limits.maxHeight,
      timeoutMs: limits.pageTimeoutMs,
      ...(options.signal ? { signal: options.signal } : {}),
    });
  };

  const failureKey = (url: string, own: boolean): string => {
    try {
      const parsed = new URL(url);
      return own ? `${parsed.pathname}${parsed.search}` : mapper.toCopyPath(parsed);
    } catch {
      return url;
    }
  };

  const shrink = (picture: Picture) => encodePng(scaleToWidth(picture, limits.shotWidth));

  /** The copy's render against the kept original's: the measurement and the pictures. */
  const measure = (
    kept: Kept,
    copy: PageCapture,
    decoded?: { original: Picture; copy: Picture; differing: Differing },
  ) => {
    const original = decoded?.original ?? decodePng(kept.original);
    const copyPicture = decoded?.copy ?? decodePng(copy.png);
    const differing = decoded?.differing ?? differingPixels(original, copyPicture);
    const difference = measureDifference(differing, kept.noise);
    const measurement: FidelityMeasurement = {
      diffPercent: round(difference.diffPercent, 3),
      noisePercent: round(difference.noisePercent, 3),
      textSimilarity: round(
        Math.max(...kept.originalText.map((text) => textSimilarity(text, copy.text))),
        4,
      ),
      failedRequests: newFailures(kept, copy),
      externalRequests: [...new Set(copy.external)],
      scriptErrors: newErrors(kept, copy),
      height: { original: kept.height, copy: copy.height },
    };
    return {
      measurement,
      shots: {
        original: shrink(original),
        copy: shrink(copyPicture),
        diff: encodePng(heatmap(copyPicture, difference, limits.shotWidth)),
      },
    };
  };

  const newFailures = (kept: Kept, copy: PageCapture): FailedRequest[] =>
    copy.failed.map((f) => ({
      url: f.url,
      reason: f.reason,
      inOriginal: kept.originalFailures.has(failureKey(f.url, true)),
    }));

  /** The copy's script errors that no render of the original had (by message text). */
  const newErrors = (kept: Kept, copy: PageCapture): string[] =>
    copy.errors
      .filter((message) => !kept.originalErrors.has(message))
      .slice(0, FIDELITY_SCRIPT_ERRORS.maxMessages)
      .map((message) => message.slice(0, FIDELITY_SCRIPT_ERRORS.maxLength));

  const unavailable = (task: Task, kept: Kept, error: unknown): FidelityPageResult => ({
    path: task.path,
    url: task.url,
    viewport: task.viewport,
    diffPercent: 100,
    noisePercent: 0,
    textSimilarity: 0,
    failedRequests: [{ url: task.copyUrl, reason: messageOf(error), inOriginal: false }],
    externalRequests: [],
    scriptErrors: [],
    height: { original: kept.height, copy: 0 },
    reasons: ['copy-unavailable'],
    belowThreshold: true,
    shots: { original: shrink(decodePng(kept.original)), copy: blankPng(), diff: blankPng() },
  });

  /** Renders the original once more: where it differs from the first render is its noise. */
  const learnNoise = async (task: Task, keep: Kept, original: Picture): Promise<void> => {
    keep.noiseLearned = true;
    const b = await render(task, originalSide, task.url).catch(() => {
      options.signal?.throwIfAborted();
      return undefined;
    });
    if (!b) return;
    keep.noise = noiseMask(original, decodePng(b.png));
    keep.originalText.push(b.text);
    for (const f of b.failed) keep.originalFailures.add(failureKey(f.url, false));
    for (const message of b.errors) keep.originalErrors.add(message);
  };

  const results: FidelityPageResult[] = new Array(tasks.length);
  const kept = new Map<number, Kept>();
  let done = 0;

  /** One page at one viewport: the original and the copy, then the original again if they differ. */
  const checkTask = async (task: Task): Promise<{ result: FidelityPageResult; keep?: Kept }> => {
    let originalError: unknown;
    const renderOriginal = () =>
      render(task, originalSide, task.url).catch((error: unknown) => {
        options.signal?.throwIfAborted();
        originalError ??= error;
        return undefined;
      });
    const [first, copy] = await Promise.all([
      renderOriginal(),
      render(task, copySide, task.copyUrl).then(
        (capture) => ({ capture }),
        (error: unknown) => ({ error }),
      ),
    ]);
    // An original that failed once is given one more chance before the page counts as unmeasured.
    const a = first ?? (await renderOriginal());
    options.signal?.throwIfAborted();
    if (!a) {
      const none = blankPng();
      const result: FidelityPageResult = {
        path: task.path,
        url: task.url,
        viewport: task.viewport,
        diffPercent: 0,
        noisePercent: 0,
        textSimilarity: 0,
        failedRequests: [],
        externalRequests: [],
        scriptErrors: [],
        height: { original: 0, copy: 0 },
        reasons: [],
        belowThreshold: false,
        unmeasured: messageOf(originalError),
        shots: { original: none, copy: none, diff: none },
      };
      return { result };
    }
    const keep: Kept = {
      original: a.png,
      originalText: [a.text],
      originalFailures: new Set(a.failed.map((f) => failureKey(f.url, false))),
      originalErrors: new Set(a.errors),
      noise: noNoise(),
      noiseLearned: false,
      height: a.height,
    };
    if ('error' in copy) return { result: unavailable(task, keep, copy.error), keep };
    const original = decodePng(a.png);
    // Equal pixels make equal PNG bytes: a faithful page costs one decode and no comparison.
    const identical = a.png.equals(copy.capture.png);
    const copyPicture = identical ? original : decodePng(copy.capture.png);
    const differing = identical ? sameEverywhere(original) : differingPixels(original, copyPicture);
    // The original's noise matters only where the copy differs from it: a copy equal to the
    // first render needs no second one (nothing is left out of its score, its noise is 0). An
    // error or a failure the first render lacked may be one the original has now and then.
    const differs =
      differing.count > 0 ||
      a.text !== copy.capture.text ||
      newFailures(keep, copy.capture).some((f) => !f.inOriginal) ||
      newErrors(keep, copy.capture).length > 0;
    if (differs) await learnNoise(task, keep, original);
    const { measurement, shots } = measure(keep, copy.capture, {
      original,
      copy: copyPicture,
      differing,
    });
    const reasons = belowThreshold(measurement);
    const result: FidelityPageResult = {
      path: task.path,
      url: task.url,
      viewport: task.viewport,
      ...measurement,
      reasons,
      belowThreshold: reasons.length > 0,
      shots,
    };
    return { result, keep };
  };

  try {
    browser ??= await launchChromium({
      executablePath: options.chromiumPath ?? limits.chromiumPath,
    });
    lanes = createRenderLanes(browser, { maxOpen: Math.max(1, limits.concurrency), frozenTime });
    await forEachLimit(tasks, Math.max(1, limits.concurrency), async (task, index) => {
      options.signal?.throwIfAborted();
      const { result, keep } = await checkTask(task);
      results[index] = result;
      if (result.belowThreshold && keep && options.repair) kept.set(index, keep);
      done++;
      options.onProgress?.({ done, total: tasks.length, path: task.path });
    });

    let repairError: string | undefined;
    if (options.repair && kept.size > 0) {
      const paths = [
        ...new Set([...kept.keys()].sort((x, y) => x - y).map((i) => tasks[i]!.path)),
      ].slice(0, limits.maxRepairs);
      const requests = paths.map((path) => {
        const own = results.filter((r) => r.path === path && r.belowThreshold);
        return {
          path,
          url: own[0]!.url,
          reasons: [...new Set(own.flatMap((r) => r.reasons))],
          failedRequests: own.flatMap((r) => r.failedRequests.filter((f) => !f.inOriginal)),
          externalRequests: [...new Set(own.flatMap((r) => r.externalRequests))],
          scriptErrors: [...new Set(own.flatMap((r) => r.scriptErrors))],
        };
      });
      let changed = true;
      try {
        changed = (await options.repair(requests)) !== false;
      } catch (error) {
        repairError = messageOf(error);
        changed = false;
      }
      if (changed) {
        const again = [...kept.keys()].filter((i) => paths.includes(tasks[i]!.path));
        await forEachLimit(again, Math.max(1, limits.concurrency), async (index) => {
          const task = tasks[index]!;
          const keep = kept.get(index)!;
          const before = results[index]!;
          const previous = {
            diffPercent: before.diffPercent,
            noisePercent: before.noisePercent,
            textSimilarity: before.textSimilarity,
            failedRequests: before.failedRequests,
            externalRequests: before.externalRequests,
            scriptErrors: before.scriptErrors,
            height: before.height,
            reasons: before.reasons,
          };
          let after: FidelityPageResult;
          try {
            const copy = await render(task, copySide, task.copyUrl);
            // The first pass had no copy to compare with, so no second render of the original.
            if (!keep.noiseLearned) await learnNoise(task, keep, decodePng(keep.original));
            const { measurement, shots } = measure(keep, copy);
            const reasons: FidelityReason[] = belowThreshold(measurement);
            after = {
              ...before,
              ...measurement,
              reasons,
              belowThreshold: reasons.length > 0,
              shots,
            };
          } catch (error) {
            after = unavailable(task, keep, error);
          }
          results[index] = { ...after, repaired: { before: previous } };
        });
      }
    }

    const pages = tasks
      .map((task, index) => ({ rank: task.rank, result: results[index]! }))
      .sort((a, b) => a.rank - b.rank)
      .map(({ result }) => result);
    const report: FidelityReport = {
      ...summarizeFidelity(pages),
      checkedAt: new Date(started).toISOString(),
      durationMs: now() - started,
      originalUrl: options.original.url,
      pages,
      ...(repairError ? { repairError } : {}),
    };
    return report;
  } finally {
    await lanes?.close();
    await copyClient.close().catch(() => undefined);
    if (ownBrowser && browser) await browser.close().catch(() => undefined);
  }
}
