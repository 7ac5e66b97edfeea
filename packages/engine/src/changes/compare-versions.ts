import {
  CHANGE_REPORT_LIMITS,
  type ChangeReport,
  type ChangedAsset,
  type ChangedPage,
  type HeadChange,
} from '@mirror/contract';
import type { Manifest, ManifestEntry } from '../types.js';
import { maskVolatile, normalizePath, tokenize } from './noise.js';
import { digestPage, type PageDigest } from './page-digest.js';
import { diffWords, hunksOf } from './word-diff.js';

/** One side of a comparison: a version's manifest and a way to read its files. */
export interface VersionFiles {
  manifest: Manifest;
  /** The bytes of a blob (an entry's `sourceHash` or `hash`). */
  read(hash: string): Promise<Uint8Array>;
}

export interface CompareOptions {
  /**
   * The page as the origin answers it now, fetched once more: the parts of a page that differ
   * between two fetches moments apart (a banner picked at random, a quote of the day) are noise.
   * Asked only for pages whose text differs from the old version's; `null` when it cannot be had.
   */
  refetch?(entry: ManifestEntry): Promise<string | null>;
}

const isPage = (e: ManifestEntry) => e.kind === 'page' && e.status >= 200 && e.status < 300;
const isAsset = (e: ManifestEntry) => e.kind !== 'page' && e.status >= 200 && e.status < 300;
/** The body as the origin sent it: its text and links as the site has them, not as rewritten. */
export const bodyHash = (e: ManifestEntry) => e.sourceHash ?? e.hash;

function byPath(entries: ManifestEntry[]): Map<string, ManifestEntry> {
  const map = new Map<string, ManifestEntry>();
  for (const e of entries) {
    const key = normalizePath(e.path);
    if (!map.has(key)) map.set(key, e);
  }
  return map;
}

/** A version's pages (answered 2xx) by their normalized path, the first of each path. */
export function pagesByPath(manifest: Manifest): Map<string, ManifestEntry> {
  return byPath(manifest.entries.filter(isPage));
}

const decoder = new TextDecoder();

/**
 * The change report of `after` against `before`: pages and files added, removed and changed, with
 * each changed page's text diff, head changes and links, noise left out (docs/changes.md).
 */
export async function compareVersions(
  before: VersionFiles,
  after: VersionFiles,
  options: CompareOptions = {},
): Promise<ChangeReport> {
  const oldPages = pagesByPath(before.manifest);
  const newPages = pagesByPath(after.manifest);
  const report: ChangeReport = {
    summary: '',
    unchanged: true,
    pages: { added: [], removed: [], changed: [] },
    assets: { added: [], removed: [], changed: [] },
    noiseOnly: 0,
  };
  const digests = new Map<string, PageDigest>();
  const digestOf = async (side: VersionFiles, entry: ManifestEntry) => {
    const hash = bodyHash(entry);
    let digest = digests.get(hash + entry.url);
    if (!digest) {
      digest = digestPage(decoder.decode(await side.read(hash)), entry.url);
      digests.set(hash + entry.url, digest);
    }
    return digest;
  };

  for (const [key, entry] of newPages) {
    const old = oldPages.get(key);
    if (!old) {
      report.pages.added.push({ path: entry.path, title: (await digestOf(after, entry)).title });
      continue;
    }
    if (bodyHash(old) === bodyHash(entry)) continue;
    const changed = await comparePage(
      await digestOf(before, old),
      await digestOf(after, entry),
      entry,
      options,
    );
    if (changed) report.pages.changed.push(changed);
    else report.noiseOnly++;
  }
  for (const [key, entry] of oldPages) {
    if (!newPages.has(key))
      report.pages.removed.push({ path: entry.path, title: (await digestOf(before, entry)).title });
  }

  // A report stays small: beyond the first pages, a changed page keeps its counts, not its diff.
  for (const page of report.pages.changed.slice(CHANGE_REPORT_LIMITS.pagesDetailed)) {
    page.moreHunks ||= page.hunks.length > 0;
    page.hunks = [];
  }
  compareAssets(before.manifest, after.manifest, report);
  report.unchanged =
    report.pages.added.length +
      report.pages.removed.length +
      report.pages.changed.length +
      report.assets.added.length +
      report.assets.removed.length +
      report.assets.changed.length ===
    0;
  report.summary = summarize(report);
  return report;
}

/** A changed page's report, or null when all that differs is noise. */
async function comparePage(
  old: PageDigest,
  now: PageDigest,
  entry: ManifestEntry,
  options: CompareOptions,
): Promise<ChangedPage | null> {
  const masked = (block: { text: string }) => maskVolatile(block.text);
  let oldBlocks = old.blocks;
  let newBlocks = now.blocks;
  const tokens = (blocks: { text: string }[]) => blocks.flatMap((b) => tokenize(b.text));
  let edits = diffWords(tokens(oldBlocks), tokens(newBlocks));
  if (edits.some((e) => e.op !== 'same') && options.refetch) {
    // What changes between two fetches of the page now is the page's own motion, not a change.
    const again = await options.refetch(entry).catch(() => null);
    if (again !== null) {
      const fresh = new Map(digestPage(again, entry.url).blocks.map((b) => [b.path, masked(b)]));
      const moving = new Set(
        newBlocks
          .filter((b) => fresh.has(b.path) && fresh.get(b.path) !== masked(b))
          .map((b) => b.path),
      );
      if (moving.size > 0) {
        oldBlocks = oldBlocks.filter((b) => !moving.has(b.path));
        newBlocks = newBlocks.filter((b) => !moving.has(b.path));
        edits = diffWords(tokens(oldBlocks), tokens(newBlocks));
      }
    }
  }
  const wordsAdded = count(edits, 'added');
  const wordsRemoved = count(edits, 'removed');
  const textChanged = wordsAdded > 0 || wordsRemoved > 0;

  const head: HeadChange[] = [];
  if (maskVolatile(old.title) !== maskVolatile(now.title))
    head.push({ field: 'title', before: old.title || null, after: now.title || null });
  for (const field of new Set([...Object.keys(old.meta), ...Object.keys(now.meta)])) {
    const a = old.meta[field];
    const b = now.meta[field];
    if (maskVolatile(a ?? '') !== maskVolatile(b ?? ''))
      head.push({ field, before: a ?? null, after: b ?? null });
  }
  const limit = CHANGE_REPORT_LIMITS.linksPerPage;
  const linksAdded = minus(now.links, old.links).slice(0, limit);
  const linksRemoved = minus(old.links, now.links).slice(0, limit);
  const mediaAdded = minus(now.media, old.media).slice(0, limit);
  const mediaRemoved = minus(old.media, now.media).slice(0, limit);

  if (
    !textChanged &&
    head.length === 0 &&
    !linksAdded.length &&
    !linksRemoved.length &&
    !mediaAdded.length &&
    !mediaRemoved.length
  )
    return null;
  const hunks = textChanged ? hunksOf(edits, CHANGE_REPORT_LIMITS.contextWords) : [];
  return {
    path: entry.path,
    title: now.title || old.title,
    wordsAdded,
    wordsRemoved,
    hunks: hunks.slice(0, CHANGE_REPORT_LIMITS.hunksPerPage),
    moreHunks: hunks.length > CHANGE_REPORT_LIMITS.hunksPerPage,
    head,
    linksAdded,
    linksRemoved,
    mediaAdded,
    mediaRemoved,
  };
}

const count = (edits: { op: string; words: string[] }[], op: string) =>
  edits.filter((e) => e.op === op).reduce((n, e) => n + e.words.length, 0);

function minus(a: string[], b: string[]): string[] {
  const other = new Set(b);
  return a.filter((x) => !other.has(x));
}

/**
 * Files other than pages, by path. A file renamed with its bytes unchanged (a fingerprinted name
 * of the same build, a reordered query) is neither added nor removed.
 */
function compareAssets(before: Manifest, after: Manifest, report: ChangeReport) {
  const oldAssets = byPath(before.entries.filter(isAsset));
  const newAssets = byPath(after.entries.filter(isAsset));
  const oldHashes = new Set([...oldAssets.values()].map((e) => e.hash));
  const newHashes = new Set([...newAssets.values()].map((e) => e.hash));
  const row = (
    e: ManifestEntry,
    sizeBefore: number | null,
    sizeAfter: number | null,
  ): ChangedAsset => ({
    path: e.path,
    contentType: e.contentType,
    sizeBefore,
    sizeAfter,
  });
  for (const [key, entry] of newAssets) {
    const old = oldAssets.get(key);
    if (!old) {
      if (!oldHashes.has(entry.hash)) report.assets.added.push(row(entry, null, entry.size));
    } else if (bodyHash(old) !== bodyHash(entry) && old.hash !== entry.hash)
      report.assets.changed.push(row(entry, old.size, entry.size));
  }
  for (const [key, entry] of oldAssets) {
    if (!newAssets.has(key) && !newHashes.has(entry.hash))
      report.assets.removed.push(row(entry, entry.size, null));
  }
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/**
 * The new wording of a changed page's first place that gained words, as a hint of what changed:
 * "(now costs $12)" for "costs $7" → "now costs $12".
 */
function gist(page: ChangedPage): string {
  for (const hunk of page.hunks) {
    const changed = hunk.map((part) => part.op !== 'same');
    const first = changed.indexOf(true);
    const last = changed.lastIndexOf(true);
    const parts = hunk.slice(first, last + 1).filter((part) => part.op !== 'removed');
    if (!parts.some((part) => part.op === 'added')) continue;
    const words = parts
      .map((part) => part.text)
      .join(' ')
      .split(' ');
    return ` (${words.slice(0, 6).join(' ')}${words.length > 6 ? ' …' : ''})`;
  }
  return '';
}

/** "3 pages changed, 1 added: /pricing (Pro now $12), /blog/new-post, …" or "No changes". */
export function summarize(report: ChangeReport): string {
  const { pages, assets } = report;
  if (report.unchanged) return 'No changes';
  const counts: string[] = [];
  if (pages.changed.length)
    counts.push(plural(pages.changed.length, 'page changed', 'pages changed'));
  if (pages.added.length)
    counts.push(
      counts.length
        ? `${pages.added.length} added`
        : plural(pages.added.length, 'page added', 'pages added'),
    );
  if (pages.removed.length)
    counts.push(
      counts.length
        ? `${pages.removed.length} removed`
        : plural(pages.removed.length, 'page removed', 'pages removed'),
    );
  const files = assets.added.length + assets.removed.length + assets.changed.length;
  if (files) counts.push(plural(files, 'file changed', 'files changed'));
  const named: string[] = [
    ...pages.changed.map((p) => `${normalizePath(p.path)}${gist(p)}`),
    ...pages.added.map((p) => normalizePath(p.path)),
    ...pages.removed.map((p) => `${normalizePath(p.path)} (removed)`),
  ];
  const shown = named.slice(0, CHANGE_REPORT_LIMITS.summaryPages);
  const list = shown.length
    ? `: ${shown.join(', ')}${named.length > shown.length ? ', …' : ''}`
    : '';
  return `${counts.join(', ')}${list}`;
}
