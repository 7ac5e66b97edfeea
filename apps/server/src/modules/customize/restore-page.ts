import type { EditOp, RestorePageOp } from '@mirror/contract';
import {
  normalizePath,
  pagesByPath,
  processCss,
  processHtml,
  readBlob,
  type BlobStore,
  type Manifest,
  type ManifestEntry,
  type Ref,
} from '@mirror/engine';
import type { Db } from '../../platform/db/database.js';
import type { StorageService } from '../storage/storage.service.js';
import { findVersionRow } from './customize.repository.js';

/**
 * "Restore this page from the previous version" (issue 33): a page of an earlier version of the
 * site comes back into a new version with the files it uses that the new version lacks (its
 * images, stylesheets, fonts, scripts), and nothing else of the earlier version: links to other
 * pages are not followed, so pages removed since stay removed.
 */

/** What restoring one page adds to a version. */
export interface RestoredPage {
  /** The page as the earlier version had it (its bytes, headers and validators). */
  page: ManifestEntry;
  /** Files the page uses that the version lacks. */
  files: ManifestEntry[];
  /** Paths of the version's own copy of the page (the same page, maybe spelled otherwise). */
  replaces: string[];
}

/** Stylesheets and pages larger than this are not read for the files they use. */
const MAX_READ_BYTES = 5 * 1024 * 1024;
/** Files one page may bring back (a page with thousands of images is cut here). */
const MAX_FILES = 1_000;
/** References in the copy are root-relative or relative: resolved on a host of no site. */
const COPY_ORIGIN = 'https://copy.invalid';

const isCss = (entry: ManifestEntry) => /^text\/css/i.test(entry.contentType);
const isHtml = (entry: ManifestEntry) => /html/i.test(entry.contentType);

/** The copy path a reference of the copy names, or none for an address outside the copy. */
function copyPathOf(ref: Ref): string | undefined {
  const url = new URL(ref.url);
  return url.origin === COPY_ORIGIN ? `${url.pathname}${url.search}` : undefined;
}

/** The references of a page or stylesheet of the copy. */
async function referencesOf(entry: ManifestEntry, blobs: BlobStore): Promise<Ref[]> {
  if (entry.size > MAX_READ_BYTES || !entry.hash) return [];
  const text = (await readBlob(blobs, entry.hash)).toString('utf8');
  const at = new URL(entry.path, COPY_ORIGIN).href;
  if (isHtml(entry)) return processHtml(text, at, () => undefined).refs;
  if (isCss(entry)) return processCss(text, at, () => undefined).refs;
  return [];
}

/**
 * The page at `path` of `from`, with the files it uses (and their stylesheets use) that `into`
 * lacks; none when `from` has no such page.
 */
export async function restoredPage(
  from: Manifest,
  into: Manifest,
  path: string,
  blobs: BlobStore,
): Promise<RestoredPage | undefined> {
  const key = normalizePath(path);
  const page = pagesByPath(from).get(key);
  if (!page) return undefined;
  const fromByPath = new Map(from.entries.map((e) => [e.path, e]));
  const present = new Set(into.entries.map((e) => e.path));
  const files: ManifestEntry[] = [];
  const seen = new Set([page.path]);
  const queue = [page];
  for (let next = queue.shift(); next; next = queue.shift()) {
    for (const ref of await referencesOf(next, blobs)) {
      const filePath = copyPathOf(ref);
      if (filePath === undefined || seen.has(filePath)) continue;
      seen.add(filePath);
      const file = fromByPath.get(filePath);
      // Other pages are never brought back with it, nor files the version has (its own copy).
      if (!file || file.kind === 'page' || present.has(filePath)) continue;
      if (files.length >= MAX_FILES) break;
      files.push(file);
      if (isCss(file)) queue.push(file);
    }
  }
  const replaces = into.entries
    .filter((e) => e.kind === 'page' && normalizePath(e.path) === key)
    .map((e) => e.path);
  return { page, files, replaces };
}

/** Every blob a restored page's entries name (bodies and the sources of pages). */
export function blobsOf(restored: RestoredPage): string[] {
  return [restored.page, ...restored.files].flatMap((e) =>
    e.sourceHash ? [e.hash, e.sourceHash] : [e.hash],
  );
}

/** A completed version of the site and its manifest; none when it is not (any more). */
export async function versionOfSite(
  db: Db,
  blobs: BlobStore,
  siteId: string,
  versionId: string,
): Promise<{ manifestHash: string; manifest: Manifest } | undefined> {
  const row = await findVersionRow(db, versionId);
  if (!row || row.site_id !== siteId || row.status !== 'completed' || !row.manifest_hash) return;
  if (!(await blobs.has(row.manifest_hash))) return;
  const manifest = JSON.parse(
    (await readBlob(blobs, row.manifest_hash)).toString('utf8'),
  ) as Manifest;
  return { manifestHash: row.manifest_hash, manifest };
}

export interface ResolvedRestores {
  /** The step's ops without the restores that could not be made. */
  ops: EditOp[];
  /** Entries to put into the new version, over everything else. */
  entries: ManifestEntry[];
  /** Paths of the base's own copies of the restored pages, left out of the new version. */
  replaced: Set<string>;
  notes: string[];
}

/**
 * A step's `restorePage` ops against its base: each page (and its files) is read from its version,
 * which must be a completed version of the same site, and held for the step. A page that cannot be
 * had any more is left out with a note, and the rest of the step goes on.
 */
export async function resolveRestores(
  deps: { db: Db; blobs: BlobStore; storage: Pick<StorageService, 'hold'> },
  step: { siteId: string; holder: string; base: Manifest; ops: readonly EditOp[] },
): Promise<ResolvedRestores> {
  const resolved: ResolvedRestores = { ops: [], entries: [], replaced: new Set(), notes: [] };
  for (const op of step.ops) {
    if (op.op !== 'restorePage') {
      resolved.ops.push(op);
      continue;
    }
    const restored = await restoreOne(deps, step, op);
    if (!restored) {
      resolved.notes.push(`The page ${op.path} could not be brought back: its version is gone.`);
      continue;
    }
    resolved.ops.push(op);
    resolved.entries.push(restored.page, ...restored.files);
    for (const path of restored.replaces) resolved.replaced.add(path);
  }
  return resolved;
}

async function restoreOne(
  deps: { db: Db; blobs: BlobStore; storage: Pick<StorageService, 'hold'> },
  step: { siteId: string; holder: string; base: Manifest },
  op: RestorePageOp,
): Promise<RestoredPage | undefined> {
  const from = await versionOfSite(deps.db, deps.blobs, step.siteId, op.fromVersionId);
  if (!from) return undefined;
  const restored = await restoredPage(from.manifest, step.base, op.path, deps.blobs);
  if (!restored) return undefined;
  const missing = await deps.storage.hold(step.holder, blobsOf(restored));
  return missing.size === 0 ? restored : undefined;
}
