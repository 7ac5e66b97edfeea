/**
 * A version's fidelity check, as a sandboxed task (`platform/sandbox`): Chromium renders pages of
 * the live original (through the engine's pinned client, so the address policy of mirror runs
 * holds) and of the stored copy, served here by the sites host's own answering code on 127.0.0.1,
 * exactly as visitors get it. Pages below the threshold are captured again with the render tier
 * and checked once more; the repaired copy's manifest is stored and handed back for the job to
 * publish. Screenshots are stored as blobs; the report carries their hashes.
 */
import {
  checkFidelity,
  createHttpClient,
  createVersionClient,
  fitShotsToBudget,
  readBlob,
  recapturePages,
  sampleManifest,
  type FidelityPageRef,
  type FidelityPageResult,
  type FidelityReport,
  type FidelityShots,
  type Manifest,
} from '@mirror/engine';
import { serveLocalCopy } from '../../hosting/local-copy-server.js';
import { createBrowserLauncher } from '../../platform/browser/browser-launcher.js';
import { safeLookupOptions, type NetSettings } from '../../platform/sandbox/net-settings.js';
import { sandboxTask, type SandboxContext } from '../../platform/sandbox/sandbox.js';
import { copySummary, type MirrorRunCopy } from '../sites/mirror-run.task.js';
import { saveManifest } from '../sites/manifests.js';
import { captureVersionThumbnail } from '../screenshots/version-thumbnail.js';

/**
 * Screenshot bytes one page may keep, its three pictures at both widths together (issue 30, item
 * 1): a page of noise makes PNGs that hardly compress; beyond this they are scaled down.
 */
export const FIDELITY_SHOT_BYTES_PER_PAGE = 1024 * 1024;

export interface FidelityCheckInput {
  manifestHash: string;
  chromiumPath: string;
  net: NetSettings;
  /** Pages checked at most (the plan's); beyond it, a sample. */
  maxPages: number;
  /** Check only these paths of the copy (a re-capture asked for); default: the sample. */
  paths?: string[];
  /** Capture pages below the threshold again and check them once more. */
  repair: boolean;
  /**
   * Also take the checked version's thumbnail, in the check's Chromium: one launch per mirror
   * instead of two (the thumbnail job's own).
   */
  thumbnail?: boolean;
}

/** A page of the report as stored: its screenshots as blob hashes. */
export type StoredFidelityPage = Omit<FidelityPageResult, 'shots'> & {
  shots: Record<keyof FidelityShots, string>;
};

export type StoredFidelityReport = Omit<FidelityReport, 'pages'> & { pages: StoredFidelityPage[] };

export interface FidelityCheckOutput {
  report: StoredFidelityReport;
  /** Bytes of each screenshot the report lists, by hash (they count against the owner's storage). */
  shotSizes: Record<string, number>;
  /** The copy with the repaired pages in, stored: the job publishes it as a new version. */
  repaired?: MirrorRunCopy;
  /** The checked version's thumbnail (a JPEG), when asked for and it could be taken. */
  thumbnail?: Uint8Array;
}

/** Stores a screenshot as a blob; its bytes go into `sizes` by hash. */
export async function pngBlob(
  context: SandboxContext,
  png: Buffer,
  sizes: Record<string, number>,
): Promise<string> {
  async function* once() {
    yield png;
  }
  const { hash, size } = await context.blobs.put(once());
  sizes[hash] = size;
  return hash;
}

export async function run(
  input: FidelityCheckInput,
  context: SandboxContext,
): Promise<FidelityCheckOutput> {
  const checked = JSON.parse(
    (await readBlob(context.blobs, input.manifestHash)).toString('utf8'),
  ) as Manifest;
  let manifest = checked;
  const entry = manifest.entries.find((e) => e.path === manifest.entryPath);
  const originalUrl = entry?.url ?? manifest.startUrl;
  const urls = new Map(manifest.entries.map((e) => [e.path, e.url]));
  const pages: FidelityPageRef[] = input.paths
    ? input.paths.map((path) => ({ path, ...(urls.has(path) ? { url: urls.get(path)! } : {}) }))
    : await sampleManifest(manifest, context.blobs, { maxPages: input.maxPages });

  const manifests = new Map([['checked', manifest]]);
  let current = 'checked';
  let repairedHash: string | undefined;
  const copy = await serveLocalCopy(context, manifests, () => current);
  const net = safeLookupOptions(input.net);
  // A copy made from a web archive is checked against the archive's responses, which it keeps
  // (the site may be gone or changed since): no request leaves the machine, repairs included.
  const archived = manifest.importedFrom
    ? await createVersionClient(manifest, context.blobs)
    : undefined;
  const client = archived ?? createHttpClient(net);
  const browser = createBrowserLauncher({ chromiumPath: input.chromiumPath });
  let report: FidelityReport;
  let thumbnail: Uint8Array | undefined;
  try {
    report = await checkFidelity({
      original: { url: originalUrl, client },
      copy: { url: copy.url },
      pages,
      browser: await browser.browser(),
      signal: context.signal,
      onProgress: (event) => context.progress(event),
      ...(input.repair
        ? {
            repair: async (broken) => {
              const repaired = await recapturePages(
                manifest,
                broken.map((p) => p.url),
                {
                  store: context.blobs,
                  ...net,
                  ...(archived ? { client: archived } : {}),
                  chromiumPath: input.chromiumPath,
                  signal: context.signal,
                  onError: (url, error) =>
                    context.log('warn', 'a page could not be captured again', {
                      url,
                      error: error instanceof Error ? error.message : String(error),
                    }),
                },
              );
              if (repaired === manifest) return false;
              manifest = repaired;
              repairedHash = await saveManifest(context.blobs, manifest);
              manifests.set('repaired', manifest);
              current = 'repaired';
              return true;
            },
          }
        : {}),
    });
    if (input.thumbnail) {
      // Without it the job queues the thumbnail's own run: the check stands either way.
      thumbnail = await captureVersionThumbnail(checked, context.blobs, { browser }).catch(
        (error: unknown) => {
          context.log('warn', 'the thumbnail could not be taken', {
            error: error instanceof Error ? error.message : String(error),
          });
          return undefined;
        },
      );
    }
  } finally {
    await browser.close();
    await copy.close();
    await client.close();
  }

  const stored: StoredFidelityPage[] = [];
  const shotSizes: Record<string, number> = {};
  for (const page of fitShotsToBudget(report.pages, FIDELITY_SHOT_BYTES_PER_PAGE)) {
    const { shots, ...rest } = page;
    stored.push({
      ...rest,
      shots: {
        original: await pngBlob(context, shots.original, shotSizes),
        copy: await pngBlob(context, shots.copy, shotSizes),
        diff: await pngBlob(context, shots.diff, shotSizes),
      },
    });
  }
  // The repaired copy goes live only when it made a page faithful and none worse.
  const repairedPages = report.pages.filter((p) => p.repaired);
  const helped =
    repairedPages.some((p) => !p.belowThreshold) &&
    repairedPages.every(
      (p) =>
        p.reasons.length <= p.repaired!.before.reasons.length &&
        p.diffPercent <= p.repaired!.before.diffPercent + 0.5,
    );
  return {
    report: { ...report, pages: stored },
    shotSizes,
    ...(repairedHash && helped
      ? { repaired: { manifestHash: repairedHash, ...copySummary(manifest) } }
      : {}),
    ...(thumbnail ? { thumbnail } : {}),
  };
}

export const fidelityCheckTask = sandboxTask(import.meta.url, run);
