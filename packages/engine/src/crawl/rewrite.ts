import { forEachLimit } from '../for-each-limit.js';
import { markForms } from '../forms/mark-forms.js';
import {
  cssCharsetRewrite,
  decodeBody,
  processCss,
  processHtml,
  processJs,
  processWebManifest,
  resolvesAgainstDocument,
  spliceUtf8,
  type ImportMap,
  type Ref,
  type RefVisitor,
} from '../references/index.js';
import { runtimeShim } from '../render/index.js';
import { bytesOf, readBlob } from '../storage/blob-utils.js';
import type { BlobStore, ManifestEntry } from '../types.js';
import type { UrlMapper } from '../url-map.js';
import { bodyTypeOf, withoutHash } from './body-type.js';
import type { ScriptReading, StyleReading } from './discover.js';
import { DEFAULTS } from './defaults.js';
import { guessesHold, refInCopy, urlHash, type PageReading } from './page-copy.js';

/** Where copy paths are resolved to compare them; never fetched. */
const COPY_ORIGIN = 'http://copy.invalid';

export interface RewriteInput {
  /** Every captured file by URL; rewritten in place (hash, size, content type, Location). */
  entries: Map<string, ManifestEntry>;
  store: BlobStore;
  mapper: UrlMapper;
  /** The import maps the crawl saw, and the page that loads each script (see `Discovery`). */
  importMaps: ImportMap[];
  /** What the crawl found in each script, by body hash (`Discovery.scripts`). */
  scripts: ReadonlyMap<string, ScriptReading>;
  /** What the crawl found in each UTF-8 style sheet, by body hash (`Discovery.styles`). */
  styles: ReadonlyMap<string, StyleReading>;
  /** The pages' copies the crawl made, by body hash (`PageReading`). */
  pages: ReadonlyMap<string, PageReading>;
  pageOf(scriptUrl: string): string | undefined;
  /** What the documents that named a file say it is (a web manifest served as JSON). */
  hintFor(url: URL): Ref['kind'] | undefined;
  /** Mark the forms the sites host takes (`MirrorOptions.markForms`). */
  markForms: boolean;
  /** Told every 20 entries how many are done. */
  onProgress(done: number, total: number): void;
  /** Told the copy paths each page, style sheet and web manifest references (`MirrorOptions`). */
  onReferences?: ((path: string, copyPaths: ReadonlySet<string>) => void) | undefined;
}

/**
 * Rendered and replayed pages keep their scripts; the shim, first in <head>, sends the URLs those
 * scripts build at run time (API calls to the original site or other hosts the copy holds files
 * of) to the copy's recorded responses.
 */
export function withRuntimeShim(
  html: string,
  siteOrigin: string,
  capturedOrigins: readonly string[],
): string {
  const tag = `<script>${runtimeShim(siteOrigin, capturedOrigins)}</script>`;
  const head = /<head(\s[^>]*)?>/i.exec(html);
  if (head)
    return (
      html.slice(0, head.index + head[0].length) + tag + html.slice(head.index + head[0].length)
    );
  const htmlTag = /<html(\s[^>]*)?>/i.exec(html);
  if (htmlTag)
    return (
      html.slice(0, htmlTag.index + htmlTag[0].length) +
      tag +
      html.slice(htmlTag.index + htmlTag[0].length)
    );
  return tag + html;
}

/**
 * Turns the fetched bodies into the copy's files: pages, style sheets, scripts and web manifests
 * reference only the copy, redirects point into it, and bodies not in UTF-8 are transcoded.
 */
export async function rewriteCopy(input: RewriteInput): Promise<void> {
  const rewriter = new Rewriter(input);
  const entries = [...input.entries.values()];
  let finished = 0;
  // Reading and storing overlap with parsing when a few entries are in flight.
  await forEachLimit(entries, DEFAULTS.rewriters, async (entry) => {
    await rewriter.rewrite(entry);
    if (++finished % 20 === 0) input.onProgress(finished, entries.length);
  });
}

class Rewriter {
  private readonly visit: RefVisitor;
  /** The copy paths the document being parsed references (parsing is synchronous). */
  private referenced: Set<string> | null = null;

  constructor(private readonly input: RewriteInput) {
    this.visit = this.rewriteVisitor();
  }

  async rewrite(entry: ManifestEntry): Promise<void> {
    const { store } = this.input;
    if (entry.status >= 300 && entry.status < 400) {
      entry.headers = {
        ...entry.headers,
        location: this.locationInCopy(entry.headers['location']!),
      };
      return;
    }
    const url = new URL(entry.url);
    const type = bodyTypeOf(entry.contentType, url, this.input.hintFor(url));
    if (type === 'other' || type === 'search-index' || !entry.sourceHash) return;
    if (type === 'js' && this.scriptKept(entry, entry.sourceHash)) return;
    if (type === 'css' && this.styleKept(entry, entry.sourceHash)) return;
    if (type === 'html' && this.pageMade(entry, entry.sourceHash)) return;
    const raw = await readBlob(store, entry.sourceHash);
    if (raw.length > DEFAULTS.maxParsedBytes) return;
    const [output, referenced] = this.collecting(() => this.rewritten(entry, type, raw));
    if (output === undefined) return;
    if (type !== 'js') this.input.onReferences?.(entry.path, referenced);
    const stored = await store.put(bytesOf(output));
    entry.hash = stored.hash;
    entry.size = stored.size;
  }

  /** The copy's text (or bytes) of a document; undefined for a script that needs no change. */
  private rewritten(
    entry: ManifestEntry,
    type: 'html' | 'css' | 'js' | 'manifest',
    raw: Buffer,
  ): string | Uint8Array | undefined {
    const { importMaps } = this.input;
    const visit = this.visit;
    let output: string;
    if (type === 'html') {
      const { text, charset } = decodeBody(raw, entry.contentType, 'html');
      const utf8 = charset.toLowerCase() === 'utf-8';
      const result = processHtml(text, entry.url, visit, { forceUtf8: !utf8 });
      const marks = this.input.markForms && entry.forms !== undefined;
      // A page that only has its references changed: its bytes, edited in place.
      if (utf8 && !marks && !entry.rendered && !entry.replayed)
        return spliceUtf8(raw, text, result.edits) ?? result.html;
      output = result.html;
      if (marks) output = markForms(output, entry.forms!, this.input.mapper);
      if (entry.rendered || entry.replayed)
        output = withRuntimeShim(output, this.siteOrigin(), this.capturedOrigins());
      if (!utf8) transcoded(entry, 'text/html; charset=utf-8');
    } else if (type === 'css') {
      const { text, charset } = decodeBody(raw, entry.contentType, 'css');
      output = processCss(text, entry.url, this.keepingVisitor(entry.url, entry.url)).css;
      // Its `@charset` rule says UTF-8 too: a static server sends no charset, and a browser
      // would read the bytes by the rule.
      if (charset.toLowerCase() !== 'utf-8') {
        output = cssCharsetRewrite(output);
        transcoded(entry, 'text/css; charset=utf-8');
      }
    } else if (type === 'js') {
      const { text, charset } = decodeBody(raw, entry.contentType, 'js');
      const page = this.input.pageOf(entry.url) ?? entry.url;
      output = processJs(text, entry.url, this.keepingVisitor(entry.url, page), {
        documentUrl: page,
        importMaps,
      }).code;
      // Most modules need no change (the copy keeps their paths): they stay byte for byte.
      if (output === text) return undefined;
      if (charset.toLowerCase() !== 'utf-8') transcoded(entry, 'text/javascript; charset=utf-8');
    } else {
      output = processWebManifest(raw.toString('utf8'), entry.url, visit).json;
    }
    return output;
  }

  /**
   * Whether a script's copy is its fetched bytes, by the references the crawl found in it: none,
   * or none that the copy needs written otherwise when read as the rewrite would read it.
   */
  private scriptKept(entry: ManifestEntry, hash: string): boolean {
    const reading = this.input.scripts.get(hash);
    if (!reading) return false;
    if (reading.refs.length === 0) return true;
    const page = this.input.pageOf(entry.url) ?? entry.url;
    const same =
      reading.url === entry.url &&
      reading.page === page &&
      reading.importMaps === this.input.importMaps.length;
    if (!same) return false;
    const visit = this.keepingVisitor(entry.url, page);
    return reading.refs.every((ref) => visit(ref) === undefined);
  }

  /** The same for a style sheet; one kept tells `onReferences` what it references. */
  private styleKept(entry: ManifestEntry, hash: string): boolean {
    const reading = this.input.styles.get(hash);
    if (!reading || (reading.refs.length > 0 && reading.url !== entry.url)) return false;
    const visit = this.keepingVisitor(entry.url, entry.url);
    const [kept, referenced] = this.collecting(() =>
      reading.refs.every((ref) => visit(ref) === undefined),
    );
    if (kept) this.input.onReferences?.(entry.path, referenced);
    return kept;
  }

  /** The `urlHash` of each captured URL, for the guesses of the pages' copies. */
  private entryHashes: Set<number> | undefined;

  /**
   * Whether the copy the crawl made of a page stands (`PageReading`): made from the same body at
   * the same URL, with the same forms marked, and its guesses of other hosts' files borne out. A
   * page rendered or replayed since has a copy of its own.
   */
  private pageMade(entry: ManifestEntry, hash: string): boolean {
    const reading = this.input.pages.get(hash);
    if (!reading || reading.url !== entry.url || entry.rendered || entry.replayed) return false;
    const marks = this.input.markForms ? entry.forms : undefined;
    if (reading.forms !== marks) return false;
    this.entryHashes ??= new Set(Array.from(this.input.entries.keys(), urlHash));
    if (!guessesHold(reading, this.input.entries, this.entryHashes)) return false;
    if (this.input.onReferences) {
      if (!reading.referenced) return false;
      this.input.onReferences(entry.path, reading.referenced);
    }
    entry.hash = reading.hash;
    entry.size = reading.size;
    return true;
  }

  /** Runs `read` (synchronous) and collects the copy paths the visitor maps meanwhile. */
  private collecting<T>(read: () => T): [T, Set<string>] {
    const referenced = new Set<string>();
    this.referenced = referenced;
    try {
      return [read(), referenced];
    } finally {
      this.referenced = null;
    }
  }

  /**
   * For scripts and style sheets: the copy keeps the original paths, so a reference that already
   * lands on the right file there (relative, or root-relative on the site) stays as written; the
   * rest take the copy path. `pageUrl`: the base of what resolves against the page (workers).
   */
  private keepingVisitor(fileUrl: string, pageUrl: string): RefVisitor {
    const visit = this.visit;
    const { mapper } = this.input;
    const inCopy = (url: string) => new URL(mapper.toCopyPath(new URL(url)), COPY_ORIGIN);
    const file = inCopy(fileUrl);
    const page = inCopy(pageUrl);
    return (ref, url) => {
      const next = visit(ref, url);
      if (next === undefined) return undefined;
      const base = resolvesAgainstDocument(ref) ? page : file;
      try {
        const lands = new URL(ref.raw, base);
        const wanted = new URL(next, base);
        lands.hash = '';
        wanted.hash = '';
        return lands.href === wanted.href ? undefined : next;
      } catch {
        return next;
      }
    };
  }

  private siteOrigin(): string {
    return new URL(this.input.mapper.toOriginalUrl('/')).origin;
  }

  private otherOrigins: string[] | undefined;

  /** The origins of other hosts the copy holds files of (computed once, for the shim). */
  private capturedOrigins(): string[] {
    if (!this.otherOrigins) {
      const site = this.siteOrigin();
      const origins = new Set<string>();
      for (const url of this.input.entries.keys()) {
        const origin = new URL(url).origin;
        if (origin !== site) origins.add(origin);
      }
      this.otherOrigins = [...origins].sort();
    }
    return this.otherOrigins;
  }

  /** Every reference to where it points in the copy (`refInCopy`), by what the crawl captured. */
  private rewriteVisitor(): RefVisitor {
    const { entries, mapper } = this.input;
    const held = (_url: URL, href: string) => entries.has(href);
    return (ref, url) => refInCopy(ref, mapper, held, this.referenced, url);
  }

  private locationInCopy(location: string): string {
    const { entries, mapper } = this.input;
    const url = new URL(location);
    return entries.has(withoutHash(url)) || mapper.isOwn(url)
      ? mapper.toCopyPath(url) + url.hash
      : url.href;
  }
}

function transcoded(entry: ManifestEntry, contentType: string): void {
  entry.sourceContentType = entry.contentType;
  entry.contentType = contentType;
}
