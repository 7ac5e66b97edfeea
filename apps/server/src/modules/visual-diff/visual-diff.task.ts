/**
 * The visual diff of a change report, as a sandboxed task (`platform/sandbox`): both versions are
 * served on 127.0.0.1 by the sites host's own answering code, as visitors get them, and Chromium
 * renders the changed pages on each (`compareRenderedPages`, the fidelity check's renderer).
 * Screenshots are stored as blobs; the pages carry their hashes.
 */
import {
  compareRenderedPages,
  fitShotsToBudget,
  pagesToCompare,
  readBlob,
  type Manifest,
  type VisualDiffPage,
  type VisualDiffReport,
  type VisualDiffShots,
} from '@mirror/engine';
import { serveLocalCopy } from '../../hosting/local-copy-server.js';
import { sandboxTask, type SandboxContext } from '../../platform/sandbox/sandbox.js';
import { FIDELITY_SHOT_BYTES_PER_PAGE, pngBlob } from '../fidelity/fidelity-check.task.js';

export interface VisualDiffInput {
  /** The version compared with (the report's base) and the new one. */
  beforeManifestHash: string;
  afterManifestHash: string;
  /** The report's changed pages, in its order: compared first. */
  paths: string[];
  /** The report's changed stylesheets, images and fonts: the pages that use them come next. */
  files: string[];
  /** Pages compared at most (the plan's). */
  maxPages: number;
  chromiumPath: string;
}

/** A page at one width as stored: its screenshots as blob hashes. */
export type StoredVisualDiffPage = Omit<VisualDiffPage, 'shots'> & {
  shots: Record<keyof VisualDiffShots, string>;
};

export interface VisualDiffOutput {
  checkedAt: string;
  durationMs: number;
  pages: StoredVisualDiffPage[];
  /** Bytes of each screenshot, by hash (they count against the owner's storage). */
  shotSizes: Record<string, number>;
}

async function manifestOf(context: SandboxContext, hash: string): Promise<Manifest> {
  return JSON.parse((await readBlob(context.blobs, hash)).toString('utf8')) as Manifest;
}

export async function run(
  input: VisualDiffInput,
  context: SandboxContext,
): Promise<VisualDiffOutput> {
  const [beforeManifest, afterManifest] = [
    await manifestOf(context, input.beforeManifestHash),
    await manifestOf(context, input.afterManifestHash),
  ];
  const paths = await pagesToCompare(
    beforeManifest,
    { manifest: afterManifest, read: (hash) => readBlob(context.blobs, hash) },
    { changedPages: input.paths, changedFiles: input.files, maxPages: input.maxPages },
  );
  // No page uses what changed: nothing to render.
  if (paths.length === 0)
    return { checkedAt: new Date().toISOString(), durationMs: 0, pages: [], shotSizes: {} };

  const serve = (name: string, manifest: Manifest) =>
    serveLocalCopy(context, new Map([[name, manifest]]), () => name);
  const before = await serve('before', beforeManifest);
  const after = await serve('after', afterManifest).catch(async (error: unknown) => {
    await before.close();
    throw error;
  });
  let report: VisualDiffReport;
  try {
    report = await compareRenderedPages({
      before: { url: before.url },
      after: { url: after.url },
      paths,
      chromiumPath: input.chromiumPath,
      signal: context.signal,
      onProgress: (event) => context.progress(event),
    });
  } finally {
    await before.close();
    await after.close();
  }

  const pages: StoredVisualDiffPage[] = [];
  const shotSizes: Record<string, number> = {};
  for (const page of fitShotsToBudget(report.pages, FIDELITY_SHOT_BYTES_PER_PAGE)) {
    const { shots, ...rest } = page;
    pages.push({
      ...rest,
      shots: {
        before: await pngBlob(context, shots.before, shotSizes),
        after: await pngBlob(context, shots.after, shotSizes),
        diff: await pngBlob(context, shots.diff, shotSizes),
      },
    });
  }
  return { checkedAt: report.checkedAt, durationMs: report.durationMs, pages, shotSizes };
}

export const visualDiffTask = sandboxTask(import.meta.url, run);
