import type { ChangeReport, WatchHit, WatchReason, WatchRule } from '@mirror/contract';
import { checkSelector, parseHtml, selectAll, SelectorError } from '@mirror/customize';
import {
  bodyHash,
  diffWords,
  digestPage,
  normalizePath,
  pagesByPath,
  tokenize,
  type ManifestEntry,
  type VersionFiles,
} from '@mirror/engine';

/**
 * Which watches a version's change report meets (issue 33), and why: pure, over the two versions'
 * files, run beside the report in the mirror run's sandbox. A watch looks at the whole site, at
 * chosen pages, or at one part of a page (its selector, else the element whose text starts with
 * its text fallback). Without keywords, any change in its scope of at least `minWords` changed
 * words is a hit (a page added or removed always is); with keywords, only a keyword that appears
 * or disappears is. Noise does not count: only pages the report lists as changed, added or
 * removed are read, and a part's text is compared with its dates and counters as placeholders.
 */

/** Keyword look-ups read at most this many pages per watch. */
const KEYWORD_PAGES_MAX = 200;
/** A part's text shown in a reason, at most. */
const EXCERPT_CHARS = 160;
/** Never read as a part's text. */
const HIDDEN = new Set(['script', 'style', 'noscript', 'template', 'head']);

type Side = VersionFiles;

interface Pages {
  before: Map<string, ManifestEntry>;
  after: Map<string, ManifestEntry>;
}

export async function findWatchHits(
  before: Side,
  after: Side,
  report: ChangeReport,
  watches: readonly WatchRule[],
): Promise<WatchHit[]> {
  if (watches.length === 0) return [];
  const pages: Pages = {
    before: pagesByPath(before.manifest),
    after: pagesByPath(after.manifest),
  };
  const decoder = new TextDecoder();
  const html = new Map<string, Promise<string>>();
  const read = (side: Side, entry: ManifestEntry) => {
    const key = bodyHash(entry);
    let text = html.get(key);
    if (!text) {
      text = side.read(key).then((bytes) => decoder.decode(bytes));
      html.set(key, text);
    }
    return text;
  };
  const pageText = async (side: Side, entry: ManifestEntry | undefined) =>
    entry
      ? digestPage(await read(side, entry), entry.url)
          .blocks.map((b) => b.text)
          .join('\n')
      : null;

  const hits: WatchHit[] = [];
  for (const watch of watches) {
    const reasons =
      watch.scope === 'part'
        ? await partReasons(watch, pages, (entry, side) => read(side, entry), before, after)
        : await pageReasons(watch, report, pages, pageText, before, after);
    if (reasons.length > 0) hits.push({ watchId: watch.id, reasons });
  }
  return hits;
}

/** Reasons of a whole-site or chosen-pages watch. */
async function pageReasons(
  watch: WatchRule,
  report: ChangeReport,
  pages: Pages,
  pageText: (side: Side, entry: ManifestEntry | undefined) => Promise<string | null>,
  before: Side,
  after: Side,
): Promise<WatchReason[]> {
  const scope = watch.scope === 'site' ? null : new Set(watch.pages.map(normalizePath));
  const inScope = (path: string) => scope === null || scope.has(normalizePath(path));
  const changed = report.pages.changed.filter((p) => inScope(p.path));
  const added = report.pages.added.filter((p) => inScope(p.path));
  const removed = report.pages.removed.filter((p) => inScope(p.path));

  if (watch.keywords.length > 0) {
    const reasons: WatchReason[] = [];
    const paths = [...changed, ...added, ...removed].map((p) => p.path).slice(0, KEYWORD_PAGES_MAX);
    for (const path of paths) {
      const key = normalizePath(path);
      const was = await pageText(before, pages.before.get(key));
      const is = await pageText(after, pages.after.get(key));
      reasons.push(...keywordReasons(watch, path, was, is));
    }
    return reasons;
  }

  const words = changed.reduce((n, p) => n + p.wordsAdded + p.wordsRemoved, 0);
  const reasons: WatchReason[] = [
    ...added.map((p): WatchReason => ({ kind: 'page-added', path: p.path })),
    ...removed.map((p): WatchReason => ({ kind: 'page-removed', path: p.path })),
  ];
  // A change of the head, the links or the images only has no words: it counts when no minimum.
  if (changed.length > 0 && words >= watch.minWords)
    reasons.push(
      ...changed.map((p): WatchReason => ({
        kind: 'page-changed',
        path: p.path,
        words: p.wordsAdded + p.wordsRemoved,
      })),
    );
  return reasons;
}

/** Reasons of a watch on one part of one page. */
async function partReasons(
  watch: WatchRule,
  pages: Pages,
  read: (entry: ManifestEntry, side: Side) => Promise<string>,
  before: Side,
  after: Side,
): Promise<WatchReason[]> {
  const path = watch.pages[0];
  if (path === undefined) return [];
  const key = normalizePath(path);
  const old = pages.before.get(key);
  const now = pages.after.get(key);
  if (!old && !now) return [];
  if (old && now && bodyHash(old) === bodyHash(now)) return [];
  const was = old ? partText(await read(old, before), watch) : null;
  const is = now ? partText(await read(now, after), watch) : null;

  if (watch.keywords.length > 0) return keywordReasons(watch, path, was, is);
  if (was === null && is === null) return [];
  if (is === null) return [{ kind: 'part-missing', path, before: excerpt(was ?? '') }];
  if (was === null) return [{ kind: 'part-changed', path, after: excerpt(is) }];
  const edits = diffWords(tokenize(was), tokenize(is));
  const words = edits.filter((e) => e.op !== 'same').reduce((n, e) => n + e.words.length, 0);
  if (words === 0 || words < watch.minWords) return [];
  return [{ kind: 'part-changed', path, words, before: excerpt(was), after: excerpt(is) }];
}

function keywordReasons(
  watch: WatchRule,
  path: string,
  was: string | null,
  is: string | null,
): WatchReason[] {
  const reasons: WatchReason[] = [];
  const before = fold(was ?? '');
  const after = fold(is ?? '');
  for (const { text, when } of watch.keywords) {
    const keyword = fold(text);
    const had = before.includes(keyword);
    const has = after.includes(keyword);
    if (!had && has && when !== 'disappears')
      reasons.push({ kind: 'keyword-appeared', path, keyword: text });
    if (had && !has && when !== 'appears')
      reasons.push({ kind: 'keyword-disappeared', path, keyword: text });
  }
  return reasons;
}

/** Text compared case- and space-insensitively. */
function fold(text: string): string {
  return text.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ');
}

function excerpt(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= EXCERPT_CHARS ? flat : `${flat.slice(0, EXCERPT_CHARS - 1)}…`;
}

type ParsedDoc = ReturnType<typeof parseHtml>;
type DocElement = ParsedDoc['elements'][number];

function textOf(element: DocElement): string {
  const parts: string[] = [];
  const walk = (node: DocElement['childNodes'][number]) => {
    if (node.nodeName === '#text' && 'value' in node) parts.push(node.value);
    else if ('tagName' in node && HIDDEN.has(node.tagName)) return;
    else if ('childNodes' in node) node.childNodes.forEach(walk);
  };
  element.childNodes.forEach(walk);
  return parts.join(' ').replace(/\s+/g, ' ').trim();
}

/**
 * The watched part's text in a page: the elements its selector matches, else the innermost
 * element whose text starts with the fallback; null when neither finds it.
 */
export function partText(
  html: string,
  watch: Pick<WatchRule, 'selector' | 'textFallback'>,
): string | null {
  const doc = parseHtml(html);
  if (watch.selector) {
    try {
      const found = selectAll(doc, watch.selector);
      if (found.length > 0) return found.map(textOf).join('\n');
    } catch (err) {
      if (!(err instanceof SelectorError)) throw err;
    }
  }
  const fallback = watch.textFallback ? fold(watch.textFallback) : '';
  if (!fallback) return null;
  let best: string | null = null;
  for (const element of doc.elements) {
    if (HIDDEN.has(element.tagName)) continue;
    const text = textOf(element);
    // The innermost element holding it has the shortest text (the body may start with it too).
    if (fold(text).startsWith(fallback) && (best === null || text.length < best.length))
      best = text;
  }
  return best;
}

/** A selector a part watch can use, or the reason it cannot (the selector's own message). */
export function selectorProblem(selector: string): string | null {
  try {
    checkSelector(selector);
    return null;
  } catch (err) {
    if (err instanceof SelectorError) return err.message;
    throw err;
  }
}
