/**
 * One mirror run, as a sandboxed task (`platform/sandbox`): the engine crawls, renders and rewrites
 * in a process of its own, stores the copy's files and its manifest in the blob store, and answers
 * with the manifest's hash and a summary. The job that started it decides what the run means for
 * the site.
 */
import type {
  ChangeReport,
  ImportedFrom,
  MirrorLimits,
  WatchHit,
  WatchRule,
} from '@mirror/contract';
import fs from 'node:fs/promises';
import path from 'node:path';
import {
  compareVersions,
  createHttpClient,
  failedCount,
  importArchive,
  isArchiveError,
  mirror,
  openArchive,
  type ImportArchiveOptions,
  MirrorError,
  readBlob,
  type MirrorFailure,
  type Manifest,
  type ManifestEntry,
  type MirrorStats,
  type ProgressEvent,
  type RenderMode,
} from '@mirror/engine';
import { safeLookupOptions, type NetSettings } from '../../platform/sandbox/net-settings.js';
import { sandboxTask, type SandboxContext } from '../../platform/sandbox/sandbox.js';
import { blobToFile } from './archive-check.task.js';
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
  /**
   * The mirror the live version was made from (the live version itself unless it is an edit): the
   * change report compares the new copy with it. Without it, no report.
   */
  changesBaseManifestHash?: string;
  /** The site's watches, met or not by the change report (issue 33). */
  watches?: WatchRule[];
  /**
   * Make the copy from an uploaded web archive instead of the live site (issue 35): its blob and
   * file name, and the most it may hold (decoded payloads too). `url` is then its start page.
   */
  archive?: { hash: string; name: string; maxBytes: number; maxRecords: number };
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
  /** What changed against the live version it was run from (absent for a first mirror). */
  changes?: ChangeReport;
  /** The watches the report met, with why. */
  watchHits?: WatchHit[];
  /** The copy was made from an uploaded web archive: which one (issue 35). */
  importedFrom?: ImportedFrom;
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
    ? await readManifest(context, input.previousManifestHash)
    : undefined;
  let lastProgress = 0;
  const common = {
    store: context.blobs,
    // The sites host takes the copy's forms (modules/forms).
    markForms: true,
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
  };
  let manifest: Manifest;
  try {
    manifest = input.archive
      ? await fromArchive(input.archive, input.url, common, context)
      : await mirror({
          url: input.url,
          ...common,
          ...safeLookupOptions(input.net),
          ...(previous ? { previous } : {}),
        });
  } catch (err) {
    if (err instanceof MirrorError && err.failure && FINAL_CODES.has(err.code))
      return { failure: { message: err.message, ...err.failure } };
    // An archive that cannot be read (checked at upload, so seldom): its own sentence.
    if (isArchiveError(err))
      return {
        failure: {
          message: err.message,
          kind: err.code === 'too-large' ? 'too-large' : 'bad-response',
          detail: `${err.code}: ${err.message}`,
        },
      };
    throw err;
  }
  const manifestHash = await saveManifest(context.blobs, manifest);
  const baseHash = input.changesBaseManifestHash;
  const base =
    baseHash === undefined
      ? undefined
      : baseHash === input.previousManifestHash
        ? previous
        : await readManifest(context, baseHash).catch(() => undefined);
  const changes = base ? await changeReport(base, manifest, input.net, context) : undefined;
  const watchHits =
    base && changes && !changes.unchanged && input.watches?.length
      ? await watchHitsOf(base, manifest, changes, input.watches, context)
      : undefined;
  return {
    manifestHash,
    ...copySummary(manifest),
    ...(changes ? { changes } : {}),
    ...(watchHits ? { watchHits } : {}),
  };
}

/**
 * A copy made from an uploaded web archive: its blob is read to a file of the run's own (the
 * reader needs random access), and the ordinary run crawls its responses, nothing fetched.
 */
async function fromArchive(
  upload: NonNullable<MirrorRunInput['archive']>,
  url: string,
  common: Omit<ImportArchiveOptions, 'archive' | 'name' | 'url'>,
  context: SandboxContext,
): Promise<Manifest> {
  const file = await blobToFile(context.blobs, upload.hash, upload.name);
  try {
    const archive = await openArchive(file, {
      store: context.blobs,
      maxBytes: upload.maxBytes,
      maxRecords: upload.maxRecords,
    });
    return await importArchive({ ...common, archive, name: upload.name, url });
  } finally {
    await fs.rm(path.dirname(file), { recursive: true, force: true });
  }
}

async function readManifest(context: SandboxContext, hash: string): Promise<Manifest> {
  return JSON.parse((await readBlob(context.blobs, hash)).toString('utf8')) as Manifest;
}

/** Pages of a run fetched once more to tell a page's own motion from a change (the first ones). */
const REFETCHES_MAX = 50;
const REFETCH_BYTES_MAX = 5 * 1024 * 1024;
/** All of a run's fetches once more together, however slow the origin: the run has a time limit. */
const REFETCH_TIME_MS = 30_000;

/**
 * The change report of the new copy against the live version (issue 33). It is told apart from
 * noise by fetching a changed page once more, through the same address policy as the run. A
 * report that cannot be made (a broken old file) is left out: the copy is still good.
 */
async function changeReport(
  previous: Manifest,
  manifest: Manifest,
  net: NetSettings,
  context: SandboxContext,
): Promise<ChangeReport | undefined> {
  const client = createHttpClient({ ...safeLookupOptions(net), timeoutMs: 10_000 });
  let refetches = 0;
  const until = Date.now() + REFETCH_TIME_MS;
  const refetch = async (entry: ManifestEntry) => {
    const left = until - Date.now();
    if (++refetches > REFETCHES_MAX || left < 1_000 || context.signal.aborted) return null;
    const response = await client.request(entry.url, {
      maxBytes: REFETCH_BYTES_MAX,
      maxRequestMs: Math.min(15_000, left),
    });
    if (response.status !== 200) {
      await response.discard();
      return null;
    }
    const chunks: Uint8Array[] = [];
    for await (const chunk of response.body) chunks.push(chunk);
    return Buffer.concat(chunks).toString('utf8');
  };
  const read = (hash: string) => readBlob(context.blobs, hash);
  try {
    return await compareVersions({ manifest: previous, read }, { manifest, read }, { refetch });
  } catch (err) {
    context.log('warn', 'the change report could not be made', { error: String(err) });
    return undefined;
  } finally {
    await client.close();
  }
}

/** The watches a report met; a page that cannot be read leaves the hits out, not the copy. */
async function watchHitsOf(
  previous: Manifest,
  manifest: Manifest,
  changes: ChangeReport,
  watches: WatchRule[],
  context: SandboxContext,
): Promise<WatchHit[] | undefined> {
  const read = (hash: string) => readBlob(context.blobs, hash);
  try {
    // Loaded only for a site with watches: selectors and their parser cost every run 0.3 s.
    const { findWatchHits } = await import('../watches/watch-hits.js');
    return await findWatchHits({ manifest: previous, read }, { manifest, read }, changes, watches);
  } catch (err) {
    context.log('warn', 'the watches could not be evaluated', { error: String(err) });
    return undefined;
  }
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
    ...(manifest.importedFrom ? { importedFrom: manifest.importedFrom } : {}),
    stats: manifest.stats,
    failed: failedCount(manifest),
    pages,
    bytes,
  };
}

export const mirrorRunTask = sandboxTask(import.meta.url, run);
