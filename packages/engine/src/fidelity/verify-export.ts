/**
 * `mirror … --verify`: checks an exported copy against the original right after the run. The
 * folder is served by `serveCopyFolder` on 127.0.0.1 for the duration; pages below the threshold
 * are captured again (`recapturePages`), exported again over the folder, and checked once more.
 * Writes `fidelity.json` into the folder (and, with `shots`, the screenshots to `.fidelity/`).
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { exportStatic } from '../export/export-static.js';
import { createHttpClient } from '../net/http-client.js';
import type { BlobStore, Manifest } from '../types.js';
import { checkFidelity } from './check.js';
import { serveCopyFolder } from './copy-server.js';
import { recapturePages, type RecaptureOptions } from './recapture.js';
import { sampleManifest } from './sample.js';
import { fidelityReportData } from './summary.js';
import type { FidelityPageResult, FidelityReport, FidelityShots } from './types.js';

export const FIDELITY_REPORT_FILE = 'fidelity.json';
export const FIDELITY_SHOTS_DIR = '.fidelity';

export interface VerifyExportOptions {
  manifest: Manifest;
  /** The run's store, still holding every blob of the manifest (the export linked or copied). */
  store: BlobStore;
  /** The exported folder. */
  dir: string;
  /** Pages checked at most (all pages of a site up to it, else a sample). */
  maxPages: number;
  /** Write the screenshots as PNG files under `dir/.fidelity/`. */
  shots?: boolean;
  /**
   * How a repair's export places the store's files (`exportStatic`): `link` for a store thrown
   * away afterwards, `copy` (the default) for one that is kept, whose blobs must not share bytes
   * with files someone may edit.
   */
  placeBlobs?: 'copy' | 'link';
  /** The run's options, for the address policy of the check and for captures made to repair. */
  mirror: RecaptureOptions;
  chromiumPath?: string;
  signal?: AbortSignal;
  onProgress?: (event: { done: number; total: number; path: string }) => void;
}

/** Moves every file of `from` into `to`, replacing what is there (a rename never writes into a link). */
async function moveInto(from: string, to: string): Promise<void> {
  for (const item of await fs.readdir(from, { withFileTypes: true })) {
    const source = path.join(from, item.name);
    const target = path.join(to, item.name);
    if (item.isDirectory()) {
      await fs.mkdir(target, { recursive: true });
      await moveInto(source, target);
    } else {
      await fs.rm(target, { force: true, recursive: true });
      await fs.rename(source, target);
    }
  }
}

function shotFile(page: FidelityPageResult, index: number, kind: keyof FidelityShots): string {
  const slug = page.path.replace(/[^\w.-]+/g, '_').replace(/^_+|_+$/g, '') || 'index';
  return `${FIDELITY_SHOTS_DIR}/${String(index).padStart(3, '0')}-${slug.slice(0, 80)}-${page.viewport}-${kind}.png`;
}

export async function verifyExport(
  options: VerifyExportOptions,
): Promise<{ report: FidelityReport; manifest: Manifest }> {
  let manifest = options.manifest;
  const entry = manifest.entries.find((e) => e.path === manifest.entryPath);
  const originalUrl = entry?.url ?? manifest.startUrl;
  const pages = await sampleManifest(manifest, options.store, { maxPages: options.maxPages });
  const server = await serveCopyFolder(options.dir);
  // A copy made from an archive is checked against the archive (its client answers from it).
  const client =
    options.mirror.client ??
    createHttpClient({
      ...(options.mirror.allowPrivateNetworks ? { allowPrivateNetworks: true } : {}),
      ...(options.mirror.allowAddresses ? { allowAddresses: options.mirror.allowAddresses } : {}),
      ...(options.mirror.resolve ? { resolve: options.mirror.resolve } : {}),
      ...(options.mirror.userAgent ? { userAgent: options.mirror.userAgent } : {}),
    });
  let report: FidelityReport;
  try {
    report = await checkFidelity({
      original: { url: originalUrl, client },
      copy: { url: server.url },
      pages,
      ...(options.chromiumPath ? { chromiumPath: options.chromiumPath } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.onProgress ? { onProgress: options.onProgress } : {}),
      repair: async (broken) => {
        const repaired = await recapturePages(
          manifest,
          broken.map((p) => p.url),
          {
            ...options.mirror,
            ...(options.chromiumPath ? { chromiumPath: options.chromiumPath } : {}),
          },
        );
        if (repaired === manifest) return false;
        manifest = repaired;
        // Exported beside the folder and moved in: files of the first export may be hard links
        // to the store's blobs, which writing over them in place would change too.
        const staging = await fs.mkdtemp(`${path.resolve(options.dir)}.repair-`);
        try {
          await exportStatic(manifest, options.store, staging, {
            placeBlobs: options.placeBlobs ?? 'copy',
          });
          await moveInto(staging, options.dir);
        } finally {
          await fs.rm(staging, { recursive: true, force: true });
        }
      },
    });
  } finally {
    await server.close();
    if (!options.mirror.client) await client.close();
  }

  const indexOf = new Map(report.pages.map((p, i) => [p, i]));
  if (options.shots) {
    await fs.mkdir(path.join(options.dir, FIDELITY_SHOTS_DIR), { recursive: true });
    for (const [index, page] of report.pages.entries()) {
      for (const kind of ['original', 'copy', 'diff'] as const) {
        await fs.writeFile(path.join(options.dir, shotFile(page, index, kind)), page.shots[kind]);
      }
    }
  }
  const data = fidelityReportData(
    report,
    options.shots ? (page, kind) => shotFile(page, indexOf.get(page)!, kind) : undefined,
  );
  await fs.writeFile(
    path.join(options.dir, FIDELITY_REPORT_FILE),
    `${JSON.stringify(data, null, 2)}\n`,
  );
  return { report, manifest };
}
