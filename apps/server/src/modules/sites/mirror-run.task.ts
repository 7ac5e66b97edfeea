/**
 * One mirror run, as a sandboxed task (`platform/sandbox`): the engine crawls, renders and rewrites
 * in a process of its own, stores the copy's files and its manifest in the blob store, and answers
 * with the manifest's hash and a summary. The job that started it decides what the run means for
 * the site.
 */
import type { MirrorLimits } from '@mirror/contract';
import {
  failedCount,
  mirror,
  MirrorError,
  readBlob,
  type MirrorFailure,
  type Manifest,
  type MirrorStats,
  type ProgressEvent,
  type RenderMode,
} from '@mirror/engine';
import { safeLookupOptions, type NetSettings } from '../../platform/sandbox/net-settings.js';
import { sandboxTask, type SandboxContext } from '../../platform/sandbox/sandbox.js';
import { saveManifest } from './manifests.js';

export interface MirrorRunInput {
  url: string;
  limits: MirrorLimits;
  render: RenderMode;
  chromiumPath: string;
  /** The sandbox's memory: the engine renders as many pages at once as it allows. */
  renderMemoryMb: number;
  net: NetSettings;
  /** The live version's manifest: unchanged files are revalidated, not downloaded again. */
  previousManifestHash?: string;
}

/**
 * The engine's own verdict on a site it could not copy (nothing fetched, a refused or invalid
 * address): final, with its English sentence and, for a person, a category and the detail.
 */
export interface MirrorRunFailure extends MirrorFailure {
  message: string;
}

export type MirrorRunOutput = MirrorRunCopy | { failure: MirrorRunFailure };

export interface MirrorRunCopy {
  manifestHash: string;
  /** The home page's title (the site's name); absent when it has none. */
  title?: string;
  stats: MirrorStats;
  failed: number;
  /** Pages and bytes of the copy (metrics). */
  pages: number;
  bytes: number;
}

/** The engine's verdicts answered as a failure (a storage failure or a cancel is thrown). */
const FINAL_CODES: ReadonlySet<MirrorError['code']> = new Set([
  'nothing-fetched',
  'refused-address',
  'invalid-url',
]);

/** Progress goes to the parent at most this often. */
const PROGRESS_EVERY_MS = 250;

export async function run(
  input: MirrorRunInput,
  context: SandboxContext,
): Promise<MirrorRunOutput> {
  const previous = input.previousManifestHash
    ? (JSON.parse(
        (await readBlob(context.blobs, input.previousManifestHash)).toString('utf8'),
      ) as Manifest)
    : undefined;
  let lastProgress = 0;
  let manifest: Manifest;
  try {
    manifest = await mirror({
      url: input.url,
      store: context.blobs,
      ...safeLookupOptions(input.net),
      render: input.render,
      chromiumPath: input.chromiumPath,
      renderMemoryMb: input.renderMemoryMb,
      maxPages: input.limits.maxPages,
      maxFiles: input.limits.maxFiles,
      maxBytes: input.limits.maxBytes,
      maxTimeMs: input.limits.maxTimeMs,
      maxFileBytes: input.limits.maxFileBytes,
      signal: context.signal,
      onProgress: (event: ProgressEvent) => {
        const now = Date.now();
        if (now - lastProgress < PROGRESS_EVERY_MS && event.phase !== 'done') return;
        lastProgress = now;
        context.progress(event);
      },
      ...(previous ? { previous } : {}),
    });
  } catch (err) {
    if (err instanceof MirrorError && err.failure && FINAL_CODES.has(err.code))
      return { failure: { message: err.message, ...err.failure } };
    throw err;
  }
  return { manifestHash: await saveManifest(context.blobs, manifest), ...copySummary(manifest) };
}

/** What a version row and the metrics keep of a copy's manifest. */
export function copySummary(manifest: Manifest): Omit<MirrorRunCopy, 'manifestHash'> {
  let pages = 0;
  let bytes = 0;
  for (const entry of manifest.entries) {
    if (entry.kind === 'page') pages += 1;
    bytes += entry.size;
  }
  return {
    ...(manifest.title ? { title: manifest.title } : {}),
    stats: manifest.stats,
    failed: failedCount(manifest),
    pages,
    bytes,
  };
}

export const mirrorRunTask = sandboxTask(import.meta.url, run);
