import {
  decodeBody,
  processCss,
  processHtml,
  processJs,
  processWebManifest,
  type ImportMap,
  type Ref,
  type RefVisitor,
  type RenderHints,
} from '../references/index.js';
import type { UrlMapper } from '../url-map.js';
import { bodyTypeOf } from './body-type.js';
import { DEFAULTS } from './defaults.js';
import type { Frontier, Task } from './frontier.js';
import type { Scope } from './scope.js';

/** What a page's references say about its scripts (read by the render policy). */
export interface HtmlInfo {
  hints: RenderHints;
}

const SCRIPT_KINDS: ReadonlySet<Ref['kind']> = new Set(['script', 'module']);
const MODULE_KIND: ReadonlySet<Ref['kind']> = new Set(['module']);
/** Distinct import maps kept for resolving bare specifiers (every page usually has the same one). */
const MAX_IMPORT_MAPS = 100;
const collectRefs: RefVisitor = () => undefined;

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
  /** References beyond the per-document caps, and the documents that had them. */
  private refsDropped = 0;
  private documentsOverCap = 0;

  constructor(
    private readonly frontier: Frontier,
    private readonly scope: Scope,
    private readonly mapper: UrlMapper,
    /** Told each script's text while it is in memory (the render policy scans it). */
    private readonly onScript: ((url: string, text: string) => void) | undefined,
  ) {}

  /** The page that loads the script at `url`, when the crawl saw one. */
  pageOf(url: string): string | undefined {
    return this.scriptPages.get(url);
  }

  /** The note about references past the caps, or null when there were none. */
  droppedNote(): string | null {
    if (this.refsDropped === 0) return null;
    const documents = this.documentsOverCap === 1 ? '1 page' : `${this.documentsOverCap} pages`;
    return `${documents} had more than ${DEFAULTS.maxPageLinksPerDocument.toLocaleString('en-US')} links or assets; ${this.refsDropped.toLocaleString('en-US')} of them were not followed.`;
  }

  /** Queues what a body references; for a page, also returns what its scripts hint at. */
  discover(
    task: Task,
    contentType: string,
    raw: Buffer,
    documentUrl: string,
  ): HtmlInfo | undefined {
    const type = bodyTypeOf(contentType, task.url, undefined);
    let refs: Ref[] = [];
    let info: HtmlInfo | undefined;
    try {
      if (type === 'html') {
        const { text } = decodeBody(raw, contentType, 'html');
        const result = processHtml(text, documentUrl, collectRefs);
        refs = result.refs;
        info = { hints: result.renderHints };
        for (const map of result.importMaps) this.rememberImportMap(map);
        const base = refs.find((r) => r.context === 'base')?.url ?? documentUrl;
        this.rememberPage(refs, SCRIPT_KINDS, base);
      } else if (type === 'css') {
        const { text } = decodeBody(raw, contentType, 'css');
        refs = processCss(text, documentUrl, collectRefs).refs;
      } else if (type === 'js') {
        const { text } = decodeBody(raw, contentType, 'js');
        const page = this.scriptPages.get(documentUrl);
        refs = processJs(text, documentUrl, collectRefs, {
          documentUrl: page ?? documentUrl,
          importMaps: this.importMaps,
        }).refs;
        // Imported modules run for the same page; a worker is a page of its own.
        if (page) this.rememberPage(refs, MODULE_KIND, page);
        this.onScript?.(task.url.href, text);
      } else if (type === 'manifest') {
        refs = processWebManifest(raw.toString('utf8'), documentUrl, collectRefs).refs;
      }
    } catch {
      return;
    }
    this.follow(task, refs);
    return info;
  }

  /** A document can hold hundreds of thousands of references; past the caps they are counted. */
  private follow(task: Task, refs: Ref[]): void {
    let pages = 0;
    let assets = 0;
    let dropped = 0;
    for (const ref of refs) {
      let url: URL;
      try {
        url = new URL(ref.url);
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
        this.frontier.enqueue(url, task.depth, 'asset', false);
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
