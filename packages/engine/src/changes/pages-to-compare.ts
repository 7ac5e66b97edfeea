/**
 * Which pages a change report's visual diff renders (docs/changes.md, "Visual diff"): the pages
 * whose text changed, then the pages whose look may have changed with their text the same, because
 * a file they use changed (a stylesheet, an image, a font, or an image or font one of their
 * stylesheets uses), as many as the plan's pages allow.
 */
import type { Manifest, ManifestEntry } from '../types.js';
import { pagesByPath, type VersionFiles } from './compare-versions.js';

/** Files whose change can change how a page looks while its text stays the same. */
const LOOK = /^(text\/css|image\/|font\/|application\/(font-|x-font-|vnd\.ms-fontobject))/i;

/** Whether a changed file of this type can change how the pages that use it look. */
export const changesLook = (contentType: string): boolean => LOOK.test(contentType);

export const PAGES_TO_COMPARE_LIMITS = {
  /** Stylesheets read for the changed images and fonts they use. */
  stylesheets: 200,
  /** Pages read for the changed files they use. */
  pages: 500,
} as const;

export interface PagesToCompareOptions {
  /** The report's changed pages, in its order: always first. */
  changedPages: readonly string[];
  /** The report's changed files (`ChangedAsset.path`). */
  changedFiles: readonly string[];
  maxPages: number;
}

/** A file's name as pages refer to it in any form (`/css/site.css?v=2` → `site.css`). */
function fileName(path: string): string {
  const name = path.split(/[?#]/, 1)[0]!.split('/').pop() ?? '';
  try {
    return decodeURIComponent(name);
  } catch {
    return name;
  }
}

const decoder = new TextDecoder();

/**
 * The paths to render on both versions: `changedPages` first, then pages of both versions that
 * name a changed file, directly or through a stylesheet, in the new version's order.
 */
export async function pagesToCompare(
  before: Manifest,
  after: VersionFiles,
  options: PagesToCompareOptions,
): Promise<string[]> {
  const chosen = options.changedPages.slice(0, options.maxPages);
  if (chosen.length >= options.maxPages) return chosen;
  const ok = (entry: ManifestEntry) => entry.status >= 200 && entry.status < 300;
  const typeOf = new Map(after.manifest.entries.map((entry) => [entry.path, entry.contentType]));
  const names = new Set(
    options.changedFiles
      .filter((path) => changesLook(typeOf.get(path) ?? ''))
      .map(fileName)
      .filter((name) => name.length > 0),
  );
  if (names.size === 0) return chosen;
  const text = async (entry: ManifestEntry) => decoder.decode(await after.read(entry.hash));
  const namesAny = (body: string) => [...names].some((name) => body.includes(name));

  // A stylesheet that uses a changed image or font changes how the pages that use it look.
  const stylesheets = after.manifest.entries
    .filter((entry) => ok(entry) && /^text\/css/i.test(entry.contentType))
    .slice(0, PAGES_TO_COMPARE_LIMITS.stylesheets);
  const usingChanged: string[] = [];
  for (const sheet of stylesheets) {
    const name = fileName(sheet.path);
    if (name && !names.has(name) && namesAny(await text(sheet))) usingChanged.push(name);
  }
  for (const name of usingChanged) names.add(name);

  const oldPages = pagesByPath(before);
  const candidates = [...pagesByPath(after.manifest).entries()]
    .filter(([path, entry]) => oldPages.has(path) && !chosen.includes(entry.path))
    .slice(0, PAGES_TO_COMPARE_LIMITS.pages);
  for (const [, page] of candidates) {
    if (chosen.length >= options.maxPages) break;
    if (namesAny(await text(page))) chosen.push(page.path);
  }
  return chosen;
}
