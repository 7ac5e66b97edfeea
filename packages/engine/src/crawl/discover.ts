import { isUtf8 } from 'node:buffer';
import { formReader } from '../forms/forms.js';
import { markForms } from '../forms/mark-forms.js';
import {
  decodeBody,
  processCss,
  processHtml,
  processJs,
  processWebManifest,
  spliceUtf8,
  type ImportMap,
  type Ref,
  type RefVisitor,
  type ProcessHtmlResult,
  type RenderHints,
} from '../references/index.js';
import { collectPathStrings } from '../references/path-strings.js';
import type { PageForm } from '../types.js';
import type { UrlMapper } from '../url-map.js';
import { bodyTypeOf } from './body-type.js';
import { DEFAULTS } from './defaults.js';
import type { Frontier, Task } from './frontier.js';
import { refInCopy, urlHash, type PageCopy } from './page-copy.js';
import type { Scope } from './scope.js';
import {
  MAX_PAGEFIND_FILES,
  isPagefindEntry,
  pagefindEntryFiles,
  pagefindMetaFiles,
  pagefindScriptFiles,
} from './search-indexes.js';

/** What a page's references say about its scripts (read by the render policy), and its forms. */
export interface HtmlInfo {
  hints: RenderHints;
  /** The page's forms (`findForms`), when it has any. */
  forms?: PageForm[];
  /** The page's copy, made on the way (`PageReading`), for the caller to store. */
  copy?: PageCopy;
}

/** What the crawl's copies of pages follow (`MirrorOptions`). */
export interface PageCopyOptions {
  /** Forms are marked (`markForms`). */
  markForms: boolean;
  /** The copy paths each page references are reported (`onDocumentReferences`). */
  references: boolean;
}

/**
 * The references the crawl found in a script, and what they were read under: the rewrite, which
 * reads a script under the same URL, page and import maps, finds the same ones, and leaves the
 * script as fetched when none of them needs another address in the copy (`Discovery.scripts`).
 */
export interface ScriptReading {
  url: string;
  /** The page it was read for (workers and worklets resolve against it). */
  page: string;
  /** How many import maps the crawl knew (they only grow). */
  importMaps: number;
  refs: readonly Ref[];
}

/** The references the crawl found in a UTF-8 style sheet (`Discovery.styles`). */
export type StyleReading = Pick<ScriptReading, 'url' | 'refs'>;

const SCRIPT_KINDS: ReadonlySet<Ref['kind']> = new Set(['script', 'module']);
const MODULE_KIND: ReadonlySet<Ref['kind']> = new Set(['module']);
/** Distinct import maps kept for resolving bare specifiers (every page usually has the same one). */
const MAX_IMPORT_MAPS = 100;
/** Files guessed from path strings in scripts, queued from one document and in a whole run. */
export const MAX_GUESSES_PER_DOCUMENT = 50;
export const MAX_GUESSES_PER_RUN = 2_000;
/** Path strings read from one document (each is resolved against one or two bases). */
const MAX_PATH_STRINGS_PER_DOCUMENT = 200;
/** A VitePress page's chunk as its first load imports it; client navigation loads the full one. */
const LEAN_CHUNK = /\.lean\.js$/;
/** Web manifests remembered by URL, read as manifests whatever JSON type they are served with. */
const MAX_MANIFESTS = 1_000;
/** A script or style sheet with more references is rewritten without its reading kept. */
const MAX_KEPT_REFS = 100;
/**
 * A page that names more files of other hosts it takes the copy to hold, or more it takes it to
 * lack, is copied by the rewrite (its guesses are kept until then).
 */
const MAX_HELD_GUESSES = 200;
const MAX_LACKED_GUESSES = 5_000;
/** Other hosts' URLs kept once for all pages' guesses; past this, each page keeps its own. */
const MAX_HELD_URLS = 10_000;

/**
 * A reference kept past its document's reading, its strings copied out of the document's text: a
 * slice of a long string keeps all of it alive (11 MB over the 1,000 style sheets of
 * bench:mirror's site). Through JSON, which keeps every UTF-16 code unit as it is.
 */
function keptRef(ref: Ref): Ref {
  const own = (text: string): string => JSON.parse(JSON.stringify(text)) as string;
  return { url: own(ref.url), raw: own(ref.raw), kind: ref.kind, context: ref.context };
}

/**
 * Reads fetched bodies for what they reference and queues it: pages in scope, frames, assets,
 * within per-document caps. Remembers what rewriting the scripts needs later: the import maps seen
 * and the page that loads each script.
 */
export class Discovery {
  /**
   * Every import map seen on the site: a module is resolved under each of them, since the crawl
   * does not know which pages load it. A page's map is read before the modules it loads.
   */
  readonly importMaps: ImportMap[] = [];
  private readonly importMapKeys = new Set<string>();
  /** Script URL → the page that loads it (workers and worklets resolve against the page). */
  private readonly scriptPages = new Map<string, string>();
  /** URLs a `<link rel=manifest>` names: `manifest.json` is often served as `application/json`. */
  private readonly manifests = new Set<string>();
  /**
   * Scripts by body hash, and the references the crawl found in each (`ScriptReading`). One with
   * none is kept as fetched whatever it is read under: only a reference the crawl found can be
   * edited (a bare specifier that an import map seen later resolves is not: the map is).
   */
  readonly scripts = new Map<string, ScriptReading>();
  /**
   * Style sheets in UTF-8 without a byte order mark (which the rewrite's decoding and encoding
   * give back unchanged) by body hash, and the references the crawl found in each: one whose
   * references all land on their files as written is kept as fetched.
   */
  readonly styles = new Map<string, StyleReading>();
  /** References beyond the per-document caps, and the documents that had them. */
  private refsDropped = 0;
  private documentsOverCap = 0;
  /** Files queued as guesses, and same-site path strings left out past the caps. */
  private guessed = 0;
  private guessesOverCap = 0;
  /** Files of a search index (Pagefind's chunks, fragments, filters) queued in the run. */
  private searchFiles = 0;
  /** Other hosts' URLs the pages' copies take to be held, each kept once (`guesses`). */
  private readonly heldUrls = new Map<string, string>();

  constructor(
    private readonly frontier: Frontier,
    private readonly scope: Scope,
    private readonly mapper: UrlMapper,
    /** Told each script's text while it is in memory (the render policy scans it). */
    private readonly onScript: ((url: string, text: string) => void) | undefined,
    private readonly copies: PageCopyOptions,
  ) {}

  /** The page that loads the script at `url`, when the crawl saw one. */
  pageOf(url: string): string | undefined {
    return this.scriptPages.get(url);
  }

  /** What the documents that named `url` say it is, when that decides how it is read. */
  hintFor(url: URL): Ref['kind'] | undefined {
    return this.manifests.size > 0 && this.manifests.has(url.href) ? 'manifest' : undefined;
  }

  /** The note about references past the caps, or null when there were none. */
  droppedNote(): string | null {
    if (this.refsDropped === 0) return null;
    const documents = this.documentsOverCap === 1 ? '1 page' : `${this.documentsOverCap} pages`;
    return `${documents} had more than ${DEFAULTS.maxPageLinksPerDocument.toLocaleString('en-US')} links or assets; ${this.refsDropped.toLocaleString('en-US')} of them were not followed.`;
  }

  /**
   * The note about files guessed from path strings in scripts (`missed`: how many answered
   * nothing the copy keeps), or null when there were none.
   */
  guessNote(missed: number): string | null {
    if (this.guessed === 0) return null;
    const files = this.guessed === 1 ? '1 file' : `${this.guessed.toLocaleString('en-US')} files`;
    const over =
      this.guessesOverCap > 0
        ? ` ${this.guessesOverCap.toLocaleString('en-US')} more were past the limits (${MAX_GUESSES_PER_DOCUMENT} a document, ${MAX_GUESSES_PER_RUN.toLocaleString('en-US')} a run).`
        : '';
    return `Guessed ${files} from paths named in the site's scripts (search indexes, workers, data): ${(this.guessed - missed).toLocaleString('en-US')} captured, ${missed.toLocaleString('en-US')} not found (guesses, not failures).${over}`;
  }

  /**
   * Queues what a body references; for a page, also returns what its scripts hint at and its
   * forms (read only when it has a `<form` tag). `hash`: the body's in the store, when it is the
   * file the copy keeps (see `scripts`, `styles`); a page in UTF-8 then also has its copy made.
   */
  discover(
    task: Task,
    contentType: string,
    raw: Buffer,
    documentUrl: string,
    hash?: string,
  ): HtmlInfo | undefined {
    const type = bodyTypeOf(contentType, task.url, this.hintFor(task.url));
    let refs: Ref[] = [];
    let info: HtmlInfo | undefined;
    const guesses = { left: MAX_GUESSES_PER_DOCUMENT };
    /** Script texts whose path strings are guessed once the document's references are queued. */
    let scripts: { texts: readonly string[]; base: string } | undefined;
    /** Each reference's URL as the reading parsed it, in order: `follow` parses none again. */
    const urls: (URL | undefined)[] = [];
    const collectRefs: RefVisitor = (_ref, url) => void urls.push(url);
    try {
      if (type === 'html') {
        const { text, charset } = decodeBody(raw, contentType, 'html');
        const reader = formReader(text, documentUrl);
        // The rewrite leaves a page past the parse limit as fetched (a 304 reads one back).
        const copying =
          hash !== undefined &&
          raw.length <= DEFAULTS.maxParsedBytes &&
          charset.toLowerCase() === 'utf-8'
            ? this.copying(urls)
            : undefined;
        const result = processHtml(
          text,
          documentUrl,
          copying?.visit ?? collectRefs,
          reader ? { observer: reader.observer } : {},
        );
        refs = result.refs;
        const forms = reader?.forms() ?? [];
        info = { hints: result.renderHints, ...(forms.length > 0 ? { forms } : {}) };
        const copy = copying && this.pageCopy(documentUrl, raw, text, result, info.forms, copying);
        if (copy) info.copy = copy;
        for (const map of result.importMaps) this.rememberImportMap(map);
        const base = refs.find((r) => r.context === 'base')?.url ?? documentUrl;
        this.rememberPage(refs, SCRIPT_KINDS, base);
        if (!task.leaf && this.mapper.isOwn(task.url))
          scripts = { texts: result.scriptTexts, base };
      } else if (type === 'css') {
        const { text, charset } = decodeBody(raw, contentType, 'css');
        refs = processCss(text, documentUrl, collectRefs).refs;
        const bom = raw[0] === 0xef && raw[1] === 0xbb && raw[2] === 0xbf;
        const sameBytes = charset.toLowerCase() === 'utf-8' && !bom && isUtf8(raw);
        if (hash !== undefined && refs.length <= MAX_KEPT_REFS && sameBytes)
          this.styles.set(hash, { url: documentUrl, refs: refs.map(keptRef) });
      } else if (type === 'js') {
        const { text } = decodeBody(raw, contentType, 'js');
        const page = this.scriptPages.get(documentUrl);
        refs = processJs(text, documentUrl, collectRefs, {
          documentUrl: page ?? documentUrl,
          importMaps: this.importMaps,
        }).refs;
        if (hash !== undefined && refs.length <= MAX_KEPT_REFS)
          this.scripts.set(hash, {
            url: documentUrl,
            page: page ?? documentUrl,
            importMaps: this.importMaps.length,
            refs: refs.map(keptRef),
          });
        // Imported modules run for the same page; a worker is a page of its own.
        if (page) this.rememberPage(refs, MODULE_KIND, page);
        this.onScript?.(task.url.href, text);
        if (this.mapper.isOwn(task.url)) scripts = { texts: [text], base: page ?? documentUrl };
      } else if (type === 'manifest') {
        refs = processWebManifest(raw.toString('utf8'), documentUrl, collectRefs).refs;
      } else if (type === 'search-index') {
        this.queueSearchFiles(
          task,
          isPagefindEntry(task.url)
            ? pagefindEntryFiles(raw, documentUrl)
            : pagefindMetaFiles(raw, documentUrl),
        );
      }
    } catch {
      return;
    }
    this.follow(task, refs, urls.length === refs.length ? urls : [], guesses);
    if (scripts) this.guessPaths(task, scripts.texts, scripts.base, guesses);
    // Pagefind's script loads its entry file by a template string no path scan sees.
    if (type === 'js')
      for (const file of pagefindScriptFiles(task.url)) this.guess(task, file, file, guesses);
    return info;
  }

  /**
   * The copy of a page read with `copying`'s visitor, unless it guessed too much. The copy only
   * spares the rewrite work: a failure to make it costs the page nothing else.
   */
  private pageCopy(
    url: string,
    raw: Buffer,
    text: string,
    result: ProcessHtmlResult,
    forms: PageForm[] | undefined,
    copying: ReturnType<Discovery['copying']>,
  ): PageCopy | undefined {
    if (copying.held.length > MAX_HELD_GUESSES || copying.lacked.length > MAX_LACKED_GUESSES)
      return undefined;
    try {
      const marked = this.copies.markForms ? forms : undefined;
      const bytes = marked
        ? markForms(result.html, marked, this.mapper)
        : (spliceUtf8(raw, text, result.edits) ?? result.html);
      return {
        bytes: typeof bytes === 'string' ? Buffer.from(bytes, 'utf8') : bytes,
        reading: {
          url,
          held: copying.held,
          lacked: Int32Array.from(copying.lacked),
          forms: marked,
          referenced: copying.referenced ?? undefined,
        },
      };
    } catch {
      return undefined;
    }
  }

  /**
   * The visitor that makes a page's copy as it is read (`PageReading`): a file of another host is
   * taken to be held when the crawl will fetch it (an asset or frame it may fetch, a page already
   * queued), and each such guess is noted for the rewrite to check (the URLs held kept once).
   * `urls`: gets each reference's parsed URL, as `collectRefs` does.
   */
  private copying(urls: (URL | undefined)[]) {
    const held: string[] = [];
    const lacked: number[] = [];
    const referenced = this.copies.references ? new Set<string>() : null;
    const guess = (url: URL, href: string, ref: Ref): boolean => {
      const holds =
        ref.kind === 'page'
          ? this.frontier.has(href)
          : ref.kind === 'frame' || this.scope.assetRefusal(url) === null;
      if (!holds) {
        lacked.push(urlHash(href));
        return false;
      }
      let kept = this.heldUrls.get(href);
      if (kept === undefined && this.heldUrls.size < MAX_HELD_URLS)
        this.heldUrls.set(href, (kept = href));
      held.push(kept ?? href);
      return true;
    };
    const visit: RefVisitor = (ref, url) => {
      urls.push(url);
      return refInCopy(ref, this.mapper, guess, referenced, url);
    };
    return { visit, held, lacked, referenced };
  }

  /**
   * Queues as guesses the same-site files that path strings in `texts` (a page's inline scripts
   * and data blocks, or a script) name: a root-relative or absolute path as written, a relative
   * one against the page and against the site's root, since scripts use both.
   */
  private guessPaths(
    task: Task,
    texts: readonly string[],
    documentUrl: string,
    guesses: { left: number },
  ): void {
    if (this.guessed >= MAX_GUESSES_PER_RUN) return;
    const found = new Set<string>();
    for (const text of texts) {
      collectPathStrings(text, found, MAX_PATH_STRINGS_PER_DOCUMENT);
      if (found.size >= MAX_PATH_STRINGS_PER_DOCUMENT) break;
    }
    if (found.size === 0) return;
    const root = new URL('/', documentUrl).href;
    for (const raw of found) {
      this.guess(task, raw, documentUrl, guesses);
      if (!raw.startsWith('/') && !raw.includes(':') && root !== documentUrl)
        this.guess(task, raw, root, guesses);
    }
  }

  /** Queues `raw` against `base` as a guess when it is a new file of the site, within the caps. */
  private guess(task: Task, raw: string, base: string, guesses: { left: number }): void {
    let url: URL;
    try {
      url = new URL(raw, base);
    } catch {
      return;
    }
    url.hash = '';
    if (!this.mapper.isOwn(url) || this.frontier.has(url.href)) return;
    if (guesses.left <= 0 || this.guessed >= MAX_GUESSES_PER_RUN) {
      this.guessesOverCap++;
      return;
    }
    if (this.scope.assetRefusal(url) !== null) return;
    guesses.left--;
    this.guessed++;
    this.frontier.enqueue(url, task.depth, 'asset', false, true);
  }

  /**
   * Queues the files a search index's entry or metadata file names (every chunk, fragment and
   * filter, not only those a query loads), at most MAX_PAGEFIND_FILES in a run.
   */
  private queueSearchFiles(task: Task, files: readonly string[]): void {
    for (const file of files) {
      if (this.searchFiles >= MAX_PAGEFIND_FILES) return;
      const url = new URL(file);
      if (this.frontier.has(url.href) || this.scope.assetRefusal(url) !== null) continue;
      this.searchFiles++;
      this.frontier.enqueue(url, task.depth, 'asset', false);
    }
  }

  /** A document can hold hundreds of thousands of references; past the caps they are counted. */
  /** `urls`: the references' URLs as parsed, by index, where the reading had them. */
  private follow(
    task: Task,
    refs: Ref[],
    urls: readonly (URL | undefined)[],
    guesses: { left: number },
  ): void {
    let pages = 0;
    let assets = 0;
    let dropped = 0;
    for (let i = 0; i < refs.length; i++) {
      const ref = refs[i]!;
      let url: URL;
      try {
        url = urls[i] ?? new URL(ref.url);
      } catch {
        continue;
      }
      // An import map's prefix (`"ui/": "/vendor/ui/"`) is no file.
      if (ref.context === 'script[type=importmap]' && ref.raw.endsWith('/')) continue;
      const isPage = ref.kind === 'page' || ref.kind === 'frame';
      if (
        isPage ? pages >= DEFAULTS.maxPageLinksPerDocument : assets >= DEFAULTS.maxAssetsPerDocument
      ) {
        dropped++;
        continue;
      }
      if (ref.kind === 'page') {
        if (task.leaf || task.kind !== 'page') continue;
        if (this.scope.pageRefusal(url, task.depth + 1) === null) {
          pages++;
          this.frontier.enqueue(url, task.depth + 1, 'page', false);
        }
      } else if (ref.kind === 'frame') {
        const own = this.mapper.isOwn(url);
        if (own && this.scope.pageRefusal(url, task.depth + 1) !== null) continue;
        pages++;
        this.frontier.enqueue(url, task.depth + 1, 'page', !own || task.leaf);
      } else if (this.scope.assetRefusal(url) === null) {
        assets++;
        if (ref.kind === 'manifest' && this.manifests.size < MAX_MANIFESTS)
          this.manifests.add(url.href);
        this.frontier.enqueue(url, task.depth, 'asset', false);
        // `/assets/guide.md.Bx4p6Wjv.lean.js` → `/assets/guide.md.Bx4p6Wjv.js`, which VitePress's
        // router loads when a visitor comes to that page by a link.
        if (LEAN_CHUNK.test(url.pathname) && this.mapper.isOwn(url)) {
          const full = new URL(url);
          full.pathname = url.pathname.replace(LEAN_CHUNK, '.js');
          this.guess(task, full.href, full.href, guesses);
        }
      }
    }
    if (dropped > 0) {
      this.refsDropped += dropped;
      this.documentsOverCap++;
    }
  }

  private rememberImportMap(map: ImportMap): void {
    const key = JSON.stringify(map);
    if (this.importMapKeys.has(key) || this.importMaps.length >= MAX_IMPORT_MAPS) return;
    this.importMapKeys.add(key);
    this.importMaps.push(map);
  }

  private rememberPage(refs: Ref[], kinds: ReadonlySet<Ref['kind']>, page: string): void {
    for (const ref of refs)
      if (kinds.has(ref.kind) && !this.scriptPages.has(ref.url))
        this.scriptPages.set(ref.url, page);
  }
}
