import { charsetFromMetaContent, encodingForLabel } from './charset.js';
import { rewriteCss } from './css.js';
import { decodeText, HtmlScanner, Token, type RawTextKind, type ScannedAttr } from './html-scan.js';
import { parseImportMap, type ImportMap } from './import-map.js';
import { rewriteJs } from './js.js';
import { isRecord, jsonIndent } from './json.js';
import { mergeAbilities, scriptAbilities } from './script-scan.js';
import { RefSink, trimAscii } from './sink.js';
import { rewriteSrcset } from './srcset.js';
import type { Ref, RefKind, RefVisitor, RenderHints } from './types.js';

const enum Ns {
  Html,
  Svg,
  MathMl,
}

/** A start tag as the walker sees it: the element's namespace comes from the walk. */
interface Tag {
  name: string;
  ns: Ns;
  attrs: ScannedAttr[];
  start: number;
  end: number;
  /** Inside a `<template>` or a re-read `<noscript>`: not part of the live document. */
  fragment: boolean;
  /** A `<source>` whose parent is `<video>` or `<audio>`. */
  inMedia: boolean;
}

export interface ProcessHtmlOptions {
  /**
   * The page was decoded from another charset and will be served as UTF-8: declare utf-8 in
   * `<meta charset>` / `http-equiv=content-type`, inserting `<meta charset="utf-8">` at the start
   * of `<head>` when the page declares nothing.
   */
  forceUtf8?: boolean;
}

export interface ProcessHtmlResult {
  /** The document with references replaced; the input string itself when nothing changed. */
  html: string;
  refs: Ref[];
  /** The document has a `<base href>` (visited with context `base`). */
  hasBase: boolean;
  /** Encoding declared by the first `<meta charset>` / `http-equiv=content-type` (canonical name). */
  charset?: string;
  title?: string;
  renderHints: RenderHints;
  /** The document's `<script type=importmap>` maps, in document order, as written (not rewritten). */
  importMaps: ImportMap[];
}

interface Edit {
  start: number;
  end: number;
  text: string;
}

/** HTML elements whose content is not markup, and how it ends (scripting enabled). */
const RAW_TEXT: ReadonlyMap<string, RawTextKind> = new Map([
  ['script', 'script'],
  ['style', 'rawtext'],
  ['xmp', 'rawtext'],
  ['iframe', 'rawtext'],
  ['noembed', 'rawtext'],
  ['noframes', 'rawtext'],
  ['noscript', 'rawtext'],
  ['title', 'rcdata'],
  ['textarea', 'rcdata'],
  ['plaintext', 'plaintext'],
]);

/**
 * After an HTML start tag `name` (the scanner on it): when the element's content is not markup
 * (`script`, `style`, `title`, …), reads that content as text, to `textStart`..`textEnd`, so the
 * next token is what follows the element. True when it did.
 */
export function readRawText(scanner: HtmlScanner, name: string): boolean {
  const raw = RAW_TEXT.get(name);
  if (raw === undefined) return false;
  scanner.rawText(raw, name);
  return true;
}

const VOID_ELEMENTS = new Set([
  'area',
  'base',
  'basefont',
  'bgsound',
  'br',
  'col',
  'embed',
  'frame',
  'hr',
  'image',
  'img',
  'input',
  'keygen',
  'link',
  'meta',
  'param',
  'source',
  'track',
  'wbr',
]);
/** Start tags that may come before `<body>` without opening it. */
const HEAD_CONTENT = new Set([
  'html',
  'head',
  'base',
  'basefont',
  'bgsound',
  'link',
  'meta',
  'noframes',
  'script',
  'style',
  'template',
  'title',
  'noscript',
]);
/** HTML start tags that end foreign (SVG, MathML) content. */
const BREAKOUT = new Set(
  (
    'b big blockquote body br center code dd div dl dt em embed h1 h2 h3 h4 h5 h6 head hr i img ' +
    'li listing menu meta nobr ol p pre ruby s small span strong strike sub sup table tt u ul var'
  ).split(' '),
);
const APP_ROOT_IDS = new Set(['root', '__next', 'app', '__nuxt', '___gatsby']);
const JS_TYPES =
  /^(?:(?:text|application)\/(?:x-)?(?:java|ecma)script|text\/javascript1\.[0-5]|text\/(?:jscript|livescript)|module)$/i;
const NOSCRIPT_NEEDS_JS = /java\s*script|\bJS\b/i;
const LINK_ICON_RELS = new Set([
  'icon',
  'apple-touch-icon',
  'apple-touch-icon-precomposed',
  'apple-touch-startup-image',
  'mask-icon',
  'fluid-icon',
]);
const LAZY_SINGLE = new Set([
  'data-src',
  'data-lazy-src',
  'data-original',
  'data-original-src',
  'data-image',
  'data-bg-src',
  'data-poster',
  'data-lazy',
  'data-lazyload',
  'data-hi-res-src',
  'data-full-src',
  'data-zoom-image',
  'data-large_image',
  'data-src-retina',
  'data-retina',
  'data-echo',
  'data-iesrc',
  'data-thumb',
  'data-fallback-src',
  'data-ll-src',
]);
const LAZY_SRCSET = new Set([
  'data-srcset',
  'data-lazy-srcset',
  'data-original-set',
  'data-original-srcset',
]);
const LAZY_BACKGROUND = new Set([
  'data-bg',
  'data-background',
  'data-background-image',
  'data-bg-image',
  'data-bg-url',
  'data-lazy-background',
]);
/** Other `data-*` attributes are taken when they hold a single URL to an image or media file. */
const DATA_URL_VALUE =
  /^[^\s"'<>(){}]+\.(?:jpe?g|png|gif|webp|avif|svg|ico|bmp|mp4|webm|ogv|mp3)(?:[?#][^\s]*)?$/i;
const MEDIA_EXT = /\.(?:mp4|webm|ogv|mp3)(?:[?#]|$)/i;
const OG_IMAGE = new Set([
  'og:image',
  'og:image:url',
  'og:image:secure_url',
  'twitter:image',
  'twitter:image:src',
  'msapplication-tileimage',
  'msapplication-square70x70logo',
  'msapplication-square150x150logo',
  'msapplication-square310x310logo',
  'msapplication-wide310x150logo',
  'thumbnail',
]);
const OG_MEDIA = new Set([
  'og:video',
  'og:video:url',
  'og:video:secure_url',
  'og:audio',
  'og:audio:url',
  'og:audio:secure_url',
  'twitter:player:stream',
]);
const ITEMPROP_IMAGE = new Set(['image', 'thumbnailurl', 'logo']);
/**
 * Attributes the walk never reads, on any element (SVG included): the scanner steps over them.
 * The common ones only; the rest are read and found to hold nothing.
 */
const UNREAD_ATTRIBUTES: ReadonlySet<string> = new Set([
  'class',
  'alt',
  'title',
  'lang',
  'dir',
  'role',
  'tabindex',
  'hidden',
  'width',
  'height',
  'aria-label',
  'aria-hidden',
  'aria-labelledby',
  'aria-describedby',
  'aria-expanded',
  'aria-controls',
  'aria-current',
  'target',
  'placeholder',
  'for',
  'value',
  'colspan',
  'rowspan',
  'loading',
  'decoding',
  'crossorigin',
  'referrerpolicy',
  'async',
  'defer',
]);
/** HTML attributes that can hold a reference on some element (besides `style` and `data-*`). */
const URL_ATTRIBUTES = new Set([
  'src',
  'srcset',
  'imagesrcset',
  'srcdoc',
  'poster',
  'data',
  'href',
  'action',
  'formaction',
  'background',
  'content',
  'charset',
]);

function getAttr(el: Tag, name: string): string | undefined {
  for (const a of el.attrs) if (a.name === name) return a.value;
  return undefined;
}

function lower(value: string | undefined): string {
  return value === undefined ? '' : trimAscii(value).toLowerCase();
}

function escapeAttr(value: string, quote: '"' | "'"): string {
  const v = value.replace(/&/g, '&amp;');
  return quote === '"' ? v.replace(/"/g, '&quot;') : v.replace(/'/g, '&#39;');
}

function escapeText(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function kindForAs(as: string): RefKind {
  switch (as) {
    case 'style':
      return 'stylesheet';
    case 'script':
    case 'worker':
    case 'sharedworker':
    case 'serviceworker':
      return 'script';
    case 'font':
      return 'font';
    case 'image':
      return 'image';
    case 'audio':
    case 'video':
    case 'track':
      return 'media';
    case 'document':
      return 'page';
    case 'iframe':
    case 'frame':
      return 'frame';
    default:
      return 'asset';
  }
}

/** Kind of the resource behind `<link href>`, from rel/as/type; null for rels that fetch nothing. */
function linkKind(el: Tag): RefKind | null {
  const rels = lower(getAttr(el, 'rel')).split(/[\t\n\f\r ]+/);
  const has = (r: string) => rels.includes(r);
  if (has('stylesheet')) return 'stylesheet';
  if (rels.some((r) => LINK_ICON_RELS.has(r))) return 'image';
  if (has('manifest')) return 'manifest';
  if (has('modulepreload')) return 'module';
  if (has('preload') || has('prefetch') || has('subresource')) {
    return kindForAs(lower(getAttr(el, 'as')));
  }
  if (has('prerender')) return 'page';
  if (has('alternate')) {
    return /xml|rss|atom|json/.test(lower(getAttr(el, 'type'))) ? 'asset' : 'page';
  }
  if (has('canonical') || has('next') || has('prev') || has('amphtml')) return 'page';
  if (has('search')) return 'asset';
  return null;
}

/** Splits `5; url='x'` into the URL and what surrounds it (HTML "shared declarative refresh steps"). */
function splitRefresh(content: string): { before: string; url: string; after: string } | undefined {
  const m = /^[\t\n\f\r ]*[0-9]*(?:\.[0-9.]*)?/.exec(content);
  if (!m || !/[0-9.]/.test(m[0])) return undefined;
  let i = m[0].length;
  if (i >= content.length) return undefined;
  const ws = (c: string | undefined) => c !== undefined && /[\t\n\f\r ]/.test(c);
  if (!(content[i] === ';' || content[i] === ',' || ws(content[i]))) return undefined;
  while (ws(content[i])) i++;
  if (content[i] === ';' || content[i] === ',') i++;
  while (ws(content[i])) i++;
  let urlStart = i;
  if (content.slice(i, i + 3).toLowerCase() === 'url') {
    let j = i + 3;
    while (ws(content[j])) j++;
    if (content[j] === '=') {
      j++;
      while (ws(content[j])) j++;
      urlStart = j;
    }
  }
  let urlEnd = content.length;
  const q = content[urlStart];
  if (q === '"' || q === "'") {
    urlStart++;
    const close = content.indexOf(q, urlStart);
    if (close !== -1) urlEnd = close;
  }
  return {
    before: content.slice(0, urlStart),
    url: content.slice(urlStart, urlEnd),
    after: content.slice(urlEnd),
  };
}

/** Whether `[start, end)` of `source` is only ASCII whitespace. */
function isBlank(source: string, start: number, end: number): boolean {
  for (let k = start; k < end; k++) {
    const c = source.charCodeAt(k);
    if (c !== 0x20 && c !== 0x0a && c !== 0x09 && c !== 0x0c && c !== 0x0d) return false;
  }
  return true;
}

/** An open element while the walk is inside foreign content (the namespaces need a stack). */
interface Open {
  name: string;
  ns: Ns;
  /** An HTML integration point: its content is HTML again (`<foreignObject>`, `<mtext>`…). */
  htmlInside: boolean;
}

function integrationPoint(name: string, ns: Ns, attrs: ScannedAttr[]): boolean {
  if (ns === Ns.Svg) return name === 'foreignobject' || name === 'desc' || name === 'title';
  if (ns !== Ns.MathMl) return false;
  if (name === 'annotation-xml') {
    const encoding = attrs.find((a) => a.name === 'encoding')?.value.toLowerCase();
    return encoding === 'text/html' || encoding === 'application/xhtml+xml';
  }
  return name === 'mi' || name === 'mo' || name === 'mn' || name === 'ms' || name === 'mtext';
}

class HtmlWalker {
  readonly edits: Edit[] = [];
  base: string;
  hasBase = false;
  charset: string | undefined;
  title: string | undefined;
  readonly hints: RenderHints = {
    emptyAppRoot: false,
    noscriptAsksForJs: false,
    scriptCount: 0,
    scriptSources: [],
    inlineScriptAbilities: [],
  };
  readonly importMaps: ImportMap[] = [];
  private declaresCharset = false;
  private readonly csp: Edit[] = [];
  /** Where `<meta charset="utf-8">` goes when one is needed: after `<head>`, else `<html>`, else the doctype. */
  private headEnd: number | undefined;
  private htmlEnd: number | undefined;
  private doctypeEnd: number | undefined;
  private bodyStarted = false;
  /** Start tags seen before `<body>`: a late `<html>` or `<head>` tag opens nothing. */
  private headTags = 0;

  constructor(
    readonly source: string,
    readonly documentUrl: string,
    public sink: RefSink,
    readonly options: ProcessHtmlOptions,
  ) {
    this.base = documentUrl;
  }

  /** The document base URL: the first `<base href>` (outside templates), which applies to every reference. */
  findBase(): void {
    if (!/<base[\t\n\f\r />]/i.test(this.source)) return;
    this.walk(0, this.source.length, false, (tag) => {
      if (tag.name !== 'base' || tag.ns !== Ns.Html || tag.fragment) return false;
      const href = getAttr(tag, 'href');
      if (href === undefined) return false;
      this.hasBase = true;
      try {
        this.base = new URL(trimAscii(href), this.documentUrl).href;
      } catch {
        // an invalid base leaves the document URL in place
      }
      return true;
    });
  }

  /** Reads the document and records the edits. */
  rewrite(): void {
    this.walk(0, this.source.length, false, undefined);
  }

  /**
   * Walks the tags of `[from, to)`. `fragment`: the range is a re-read `<noscript>`. `stopAt`: a
   * look-only walk that ends when it returns true (no edits, no hints).
   */
  private walk(
    from: number,
    to: number,
    fragment: boolean,
    stopAt: ((tag: Tag) => boolean) | undefined,
  ): void {
    const scanner = new HtmlScanner(this.source, from, to, UNREAD_ATTRIBUTES);
    const source = this.source;
    const foreign: Open[] = [];
    /** Open `<video>`, `<audio>` and `<picture>` elements (a `<source>` takes its parent's kind). */
    const media: string[] = [];
    let templates = 0;
    /** An SPA mount point was opened: is anything put in it before it closes? */
    let pendingRoot = false;
    let svgStyle: number[] | undefined;
    const main = !fragment && stopAt === undefined;

    for (;;) {
      const token = scanner.next();
      if (token === Token.End) break;
      if (token === Token.Text) {
        if (pendingRoot && !isBlank(source, scanner.start, scanner.end)) pendingRoot = false;
        if (svgStyle) svgStyle.push(scanner.textStart, scanner.textEnd, 0);
        else if (
          main &&
          !this.bodyStarted &&
          foreign.length === 0 &&
          templates === 0 &&
          !isBlank(source, scanner.start, scanner.end)
        )
          this.bodyStarted = true;
        continue;
      }
      if (token === Token.CData) {
        if (svgStyle) svgStyle.push(scanner.textStart, scanner.textEnd, 1);
        continue;
      }
      if (token === Token.Comment) continue;
      if (token === Token.Doctype) {
        if (main) this.doctypeEnd ??= scanner.end;
        continue;
      }
      if (token === Token.EndTag) {
        const name = scanner.name;
        if (pendingRoot) {
          this.hints.emptyAppRoot = true;
          pendingRoot = false;
        }
        if (svgStyle && name === 'style') {
          if (stopAt === undefined) this.svgStyleText(svgStyle);
          svgStyle = undefined;
        }
        for (let k = foreign.length - 1; k >= 0; k--) {
          if (foreign[k]!.name === name) {
            foreign.length = k;
            break;
          }
        }
        // Also inside foreign content: a <template> or <video> opened in a <foreignObject>.
        if (name === 'template') {
          if (templates > 0) templates--;
        } else if (name === 'video' || name === 'audio' || name === 'picture') {
          const k = media.lastIndexOf(name);
          if (k !== -1) media.length = k;
        }
        scanner.allowCdata = foreign.length > 0 && !this.htmlContext(foreign);
        continue;
      }

      // ---- a start tag ----
      const name = scanner.name;
      const attrs = scanner.attrs;
      const ns = this.namespace(foreign, name, attrs, scanner.selfClosing);
      scanner.allowCdata = foreign.length > 0 && !this.htmlContext(foreign);
      if (pendingRoot) pendingRoot = false;
      const inTemplate = fragment || templates > 0;
      const tag: Tag = {
        name,
        ns,
        attrs,
        start: scanner.start,
        end: scanner.end,
        fragment: inTemplate,
        inMedia:
          name === 'source' &&
          media.length > 0 &&
          (media[media.length - 1] === 'video' || media[media.length - 1] === 'audio'),
      };
      if (stopAt?.(tag)) return;
      if (main && !this.bodyStarted && !inTemplate) {
        if (ns !== Ns.Html) this.bodyStarted = true;
        else if (name === 'html' && this.headTags === 0) this.htmlEnd = tag.end;
        else if (name === 'head' && this.headTags === (this.htmlEnd === undefined ? 0 : 1))
          this.headEnd = tag.end;
        else if (!HEAD_CONTENT.has(name)) this.bodyStarted = true;
        this.headTags++;
      }
      if (ns !== Ns.Html) {
        if (stopAt === undefined) this.attributes(tag);
        if (ns === Ns.Svg && name === 'style' && !scanner.selfClosing) svgStyle = [];
        continue;
      }
      if (stopAt === undefined) {
        this.attributes(tag);
        if (!inTemplate) pendingRoot = this.opensAppRoot(tag);
      }
      if (name === 'template') templates++;
      else if (name === 'video' || name === 'audio' || name === 'picture') media.push(name);
      if (!readRawText(scanner, name)) continue;
      if (stopAt !== undefined) continue;
      const range: [number, number] = [scanner.textStart, scanner.textEnd];
      switch (name) {
        case 'style':
          if (/^(?:|text\/css)$/.test(lower(getAttr(tag, 'type')))) this.styleText(range);
          break;
        case 'script': {
          if (!inTemplate) this.scriptHints(tag, range);
          const type = lower(getAttr(tag, 'type'));
          if (type === 'importmap') this.importMap(range, inTemplate);
          else if (
            !inTemplate &&
            (type === '' || JS_TYPES.test(type)) &&
            getAttr(tag, 'src') === undefined
          )
            this.scriptText(range);
          break;
        }
        case 'noscript':
          this.noscript(range);
          break;
        case 'title':
          if (this.title === undefined && !inTemplate) {
            this.title = decodeText(source.slice(range[0], range[1])).replace(/\s+/g, ' ').trim();
          }
          break;
      }
    }
    if (pendingRoot) this.hints.emptyAppRoot = true;
  }

  /** Inside foreign content, is the current node one whose children are HTML? */
  private htmlContext(foreign: Open[]): boolean {
    const top = foreign[foreign.length - 1];
    return top === undefined || top.ns === Ns.Html || top.htmlInside;
  }

  /** The namespace of a start tag, keeping the stack of open elements inside foreign content. */
  private namespace(foreign: Open[], name: string, attrs: ScannedAttr[], selfClosing: boolean): Ns {
    if (foreign.length === 0 && name !== 'svg' && name !== 'math') return Ns.Html;
    if (
      foreign.length > 0 &&
      !this.htmlContext(foreign) &&
      (BREAKOUT.has(name) ||
        (name === 'font' && attrs.some((a) => /^(?:color|face|size)$/.test(a.name))))
    ) {
      // An HTML tag in SVG or MathML closes the foreign elements up to the nearest HTML context.
      while (foreign.length > 0 && !this.htmlContext(foreign)) foreign.pop();
    }
    let ns: Ns;
    if (this.htmlContext(foreign)) {
      ns = name === 'svg' ? Ns.Svg : name === 'math' ? Ns.MathMl : Ns.Html;
    } else {
      const top = foreign[foreign.length - 1]!;
      ns = top.name === 'annotation-xml' && name === 'svg' ? Ns.Svg : top.ns;
    }
    const opens = ns === Ns.Html ? !VOID_ELEMENTS.has(name) : !selfClosing;
    if (opens && (foreign.length > 0 || ns !== Ns.Html)) {
      foreign.push({ name, ns, htmlInside: integrationPoint(name, ns, attrs) });
    }
    return ns;
  }

  /** Whether the tag is an SPA mount point that may stay empty (decided by what comes before its end). */
  private opensAppRoot(tag: Tag): boolean {
    if (this.hints.emptyAppRoot) return false;
    const id = getAttr(tag, 'id');
    const isRoot =
      (id !== undefined && APP_ROOT_IDS.has(id)) ||
      getAttr(tag, 'data-reactroot') !== undefined ||
      tag.name === 'app-root';
    if (!isRoot) return false;
    if (VOID_ELEMENTS.has(tag.name)) {
      this.hints.emptyAppRoot = true;
      return false;
    }
    return true;
  }

  /**
   * An executable script, for the render decision: counted, its source listed, or (inline) what
   * its code could do.
   */
  private scriptHints(tag: Tag, range: [number, number]): void {
    const type = getAttr(tag, 'type');
    if (type !== undefined && trimAscii(type) !== '' && !JS_TYPES.test(trimAscii(type))) return;
    this.hints.scriptCount++;
    const src = getAttr(tag, 'src');
    if (src === undefined || trimAscii(src) === '') {
      this.hints.inlineScriptAbilities = mergeAbilities(
        this.hints.inlineScriptAbilities,
        scriptAbilities(this.source.slice(range[0], range[1])),
      );
      return;
    }
    try {
      const url = new URL(trimAscii(src), this.base);
      url.hash = '';
      this.hints.scriptSources.push(url.href);
    } catch {
      // an unusable src runs nothing
    }
  }

  private splice(start: number, end: number, text: string): void {
    this.edits.push({ start, end, text });
  }

  private attrEdit(attr: ScannedAttr, value: string): void {
    const written = this.source.slice(attr.start, attr.end);
    const m = /^[^\t\n\f\r />][^\t\n\f\r />=]*(?:[\t\n\f\r ]*=[\t\n\f\r ]*)?/.exec(written);
    if (!m || !m[0].includes('=')) {
      this.splice(attr.start, attr.end, `${m ? m[0] : attr.name}="${escapeAttr(value, '"')}"`);
      return;
    }
    const q = written[m[0].length] === "'" ? "'" : '"';
    this.splice(attr.start, attr.end, `${m[0]}${q}${escapeAttr(value, q)}${q}`);
  }

  private attrRemove(attr: ScannedAttr): void {
    let start = attr.start;
    while (start > 0 && /[\t\n\f\r ]/.test(this.source[start - 1]!)) start--;
    this.splice(start, attr.end, '');
  }

  private attributes(tag: Tag): void {
    const before = this.sink.replaced;
    let integrity: ScannedAttr | undefined;
    if (!tag.fragment && tag.ns === Ns.Html && tag.name === 'meta') this.meta(tag);
    for (const attr of tag.attrs) {
      if (attr.name === 'integrity') {
        integrity = attr;
        continue;
      }
      const next = this.attribute(tag, attr);
      if (next !== undefined && next !== attr.value) this.attrEdit(attr, next);
    }
    if (integrity && this.sink.replaced > before) this.attrRemove(integrity);
  }

  /** charset declarations, CSP. */
  private meta(tag: Tag): void {
    const charset = getAttr(tag, 'charset');
    const httpEquiv = lower(getAttr(tag, 'http-equiv'));
    let declared: string | undefined;
    if (charset !== undefined) declared = charset;
    else if (httpEquiv === 'content-type')
      declared = charsetFromMetaContent(getAttr(tag, 'content') ?? '');
    if (declared !== undefined) {
      this.declaresCharset = true;
      this.charset ??= encodingForLabel(declared) ?? lower(declared);
    }
    if (httpEquiv === 'content-security-policy') {
      this.csp.push({ start: tag.start, end: tag.end, text: '' });
    }
  }

  private one(value: string, kind: RefKind, context: string): string | undefined {
    return this.sink.visit(value, this.base, kind, context);
  }

  private css(value: string, context: string): string | undefined {
    const out = rewriteCss(value, this.base, this.sink.scoped(context), 'declarations');
    return out === value ? undefined : out;
  }

  /** The rewritten value of one attribute, or undefined to keep it. */
  private attribute(tag: Tag, attr: ScannedAttr): string | undefined {
    const el = tag;
    const name = tag.name;
    const key = attr.name;
    if (key === 'style') return this.css(attr.value, '[style]');

    if (tag.ns === Ns.Svg) {
      if (key === 'href' || key === 'xlink:href') {
        const ctx = `${name === 'feimage' ? 'feImage' : name}[${key}]`;
        const kind: RefKind =
          name === 'image' || name === 'feimage'
            ? 'image'
            : name === 'a'
              ? 'page'
              : name === 'script'
                ? 'script'
                : 'asset';
        return this.one(attr.value, kind, ctx);
      }
      return /url\(/i.test(attr.value) ? this.css(attr.value, `${name}[${key}]`) : undefined;
    }
    if (tag.ns !== Ns.Html) return undefined;
    if (!URL_ATTRIBUTES.has(key) && !key.startsWith('data-')) return undefined;
    const ctx = `${name}[${key}]`;

    switch (key) {
      case 'src':
        switch (name) {
          case 'img':
            return this.one(attr.value, 'image', ctx);
          case 'script':
            return this.one(
              attr.value,
              lower(getAttr(el, 'type')) === 'module' ? 'module' : 'script',
              ctx,
            );
          case 'iframe':
          case 'frame':
            return this.one(attr.value, 'frame', ctx);
          case 'embed':
            return this.one(attr.value, 'asset', ctx);
          case 'source':
            return this.one(attr.value, tag.inMedia ? 'media' : 'image', ctx);
          case 'track':
          case 'audio':
          case 'video':
            return this.one(attr.value, 'media', ctx);
          case 'input':
            return lower(getAttr(el, 'type')) === 'image'
              ? this.one(attr.value, 'image', ctx)
              : undefined;
        }
        return undefined;
      case 'srcset':
        return name === 'img' || name === 'source'
          ? rewriteSrcset(attr.value, this.base, this.sink, 'image', ctx)
          : undefined;
      case 'imagesrcset':
        return name === 'link'
          ? rewriteSrcset(attr.value, this.base, this.sink, 'image', ctx)
          : undefined;
      case 'srcdoc': {
        if (name !== 'iframe') return undefined;
        const nested = runHtml(attr.value, this.base, this.sink.scoped('iframe[srcdoc]'), {});
        return nested.html === attr.value ? undefined : nested.html;
      }
      case 'poster':
        return name === 'video' ? this.one(attr.value, 'image', ctx) : undefined;
      case 'data':
        if (name !== 'object') return undefined;
        return this.one(
          attr.value,
          /html/.test(lower(getAttr(el, 'type'))) ? 'frame' : 'asset',
          ctx,
        );
      case 'href':
        switch (name) {
          case 'a':
          case 'area':
            return this.one(attr.value, 'page', ctx);
          case 'base':
            return this.sink.visit(attr.value, this.documentUrl, 'page', 'base');
          case 'link': {
            const kind = linkKind(el);
            if (kind === null) return undefined;
            const rel = lower(getAttr(el, 'rel')).replace(/[\t\n\f\r ]+/g, ' ');
            return this.one(attr.value, kind, `link[rel=${rel}]`);
          }
        }
        return undefined;
      case 'action':
        return name === 'form' ? this.one(attr.value, 'page', ctx) : undefined;
      case 'formaction':
        return name === 'button' || name === 'input'
          ? this.one(attr.value, 'page', ctx)
          : undefined;
      case 'background':
        return /^(?:body|table|thead|tbody|tfoot|tr|td|th)$/.test(name)
          ? this.one(attr.value, 'image', ctx)
          : undefined;
      case 'content':
        return name === 'meta' ? this.metaContent(el, attr.value) : undefined;
      case 'charset':
        return name === 'meta' && this.options.forceUtf8 && encodingForLabel(attr.value) !== 'utf-8'
          ? 'utf-8'
          : undefined;
    }
    if (!key.startsWith('data-')) return undefined;
    if (LAZY_SINGLE.has(key)) return this.one(attr.value, this.lazyKind(tag, key), ctx);
    if (LAZY_SRCSET.has(key)) return rewriteSrcset(attr.value, this.base, this.sink, 'image', ctx);
    if (LAZY_BACKGROUND.has(key)) {
      return /url\(/i.test(attr.value)
        ? this.css(attr.value, ctx)
        : this.one(attr.value, 'image', ctx);
    }
    if (key === 'data-bgset') {
      // lazysizes: srcset candidates sets separated by `|`
      let changed = false;
      const parts = attr.value.split('|').map((part) => {
        const next = rewriteSrcset(part, this.base, this.sink, 'image', ctx);
        if (next === undefined) return part;
        changed = true;
        return next;
      });
      return changed ? parts.join(' | ') : undefined;
    }
    const trimmed = trimAscii(attr.value);
    if (DATA_URL_VALUE.test(trimmed)) {
      return this.one(attr.value, MEDIA_EXT.test(trimmed) ? 'media' : 'image', ctx);
    }
    return undefined;
  }

  private lazyKind(tag: Tag, key: string): RefKind {
    if (key === 'data-poster') return 'image';
    switch (tag.name) {
      case 'iframe':
        return 'frame';
      case 'video':
      case 'audio':
        return 'media';
      case 'source':
        return tag.inMedia ? 'media' : 'image';
      case 'script':
        return 'script';
      default:
        return 'image';
    }
  }

  private metaContent(el: Tag, value: string): string | undefined {
    const httpEquiv = lower(getAttr(el, 'http-equiv'));
    if (httpEquiv === 'refresh') {
      const parts = splitRefresh(value);
      if (!parts) return undefined;
      const next = this.one(parts.url, 'page', 'meta[http-equiv=refresh]');
      return next === undefined ? undefined : `${parts.before}${next}${parts.after}`;
    }
    if (httpEquiv === 'content-type') {
      if (!this.options.forceUtf8) return undefined;
      const declared = charsetFromMetaContent(value);
      if (declared === undefined || encodingForLabel(declared) === 'utf-8') return undefined;
      return value.replace(
        /(charset[\t\n\f\r ]*=[\t\n\f\r ]*)(["']?)[^\t\n\f\r ;"']*\2/i,
        '$1$2utf-8$2',
      );
    }
    const property = getAttr(el, 'property');
    const name = getAttr(el, 'name');
    const itemprop = getAttr(el, 'itemprop');
    for (const [attr, raw] of [
      ['property', property],
      ['name', name],
    ] as const) {
      const key = lower(raw);
      if (key === '') continue;
      if (OG_IMAGE.has(key) || (key.startsWith('msapplication-') && key.endsWith('logo'))) {
        return this.one(value, 'image', `meta[${attr}=${key}]`);
      }
      if (OG_MEDIA.has(key)) return this.one(value, 'media', `meta[${attr}=${key}]`);
      if (key === 'msapplication-config') return this.one(value, 'asset', `meta[${attr}=${key}]`);
    }
    if (itemprop !== undefined && ITEMPROP_IMAGE.has(lower(itemprop))) {
      return this.one(value, 'image', `meta[itemprop=${lower(itemprop)}]`);
    }
    return undefined;
  }

  private styleText([start, end]: [number, number]): void {
    if (start === end) return;
    const css = this.source.slice(start, end);
    const out = rewriteCss(css, this.base, this.sink.scoped('style'), 'stylesheet');
    if (out !== css) this.splice(start, end, out);
  }

  /**
   * SVG `<style>` is parsed as normal markup: entities are decoded, CDATA sections unwrapped.
   * `pieces`: start, end and 1 for CDATA (0 for text), for each piece of its content.
   */
  private svgStyleText(pieces: number[]): void {
    for (let k = 0; k < pieces.length; k += 3) {
      const start = pieces[k]!;
      const end = pieces[k + 1]!;
      const written = this.source.slice(start, end);
      const sink = this.sink.scoped('svg style');
      const value = pieces[k + 2] === 1 ? written : decodeText(written);
      if (pieces[k + 2] === 1 || written.replace(/\r\n?/g, '\n') === value) {
        const out = rewriteCss(written, this.base, sink, 'stylesheet');
        if (out !== written) this.splice(start, end, out);
      } else {
        const out = rewriteCss(value, this.base, sink, 'stylesheet');
        if (out !== value) this.splice(start, end, escapeText(out));
      }
    }
  }

  /** An inline script's imports, resolved through the import maps that come before it. */
  private scriptText([start, end]: [number, number]): void {
    if (start === end) return;
    const code = this.source.slice(start, end);
    const out = rewriteJs(code, this.base, this.sink.scoped('script'), {
      importMaps: this.importMaps,
    });
    if (out !== code) this.splice(start, end, out);
  }

  private importMap([start, end]: [number, number], fragment: boolean): void {
    if (start === end) return;
    const text = this.source.slice(start, end);
    let map: unknown;
    try {
      map = JSON.parse(text);
    } catch {
      return;
    }
    if (!isRecord(map)) return;
    // A map inside <noscript> or <template> is inert.
    const parsed = fragment ? undefined : parseImportMap(map, this.base);
    if (parsed) this.importMaps.push(parsed);
    const before = this.sink.replaced;
    let changed = false;
    const rewriteValues = (table: unknown) => {
      if (!isRecord(table)) return;
      for (const [specifier, target] of Object.entries(table)) {
        if (typeof target !== 'string') continue;
        const next = this.one(target, 'module', 'script[type=importmap]');
        if (next !== undefined && next !== target) {
          table[specifier] = next;
          changed = true;
        }
      }
    };
    rewriteValues(map.imports);
    if (isRecord(map.scopes)) for (const table of Object.values(map.scopes)) rewriteValues(table);
    if (this.sink.replaced > before && map.integrity !== undefined) {
      delete map.integrity;
      changed = true;
    }
    if (!changed) return;
    const json = JSON.stringify(map, null, jsonIndent(text)).replace(/<\//g, '<\\/');
    this.splice(start, end, json);
  }

  /** With scripting on, `<noscript>` holds text: its markup is read as an inert fragment. */
  private noscript([start, end]: [number, number]): void {
    const markup = this.source.slice(start, end);
    if (NOSCRIPT_NEEDS_JS.test(markup.replace(/<[^>]*>/g, ' ')))
      this.hints.noscriptAsksForJs = true;
    if (!markup.includes('<')) return;
    const outer = this.sink;
    this.sink = outer.scoped('noscript');
    try {
      this.walk(start, end, true, undefined);
    } finally {
      this.sink = outer;
    }
  }

  /** CSP removal and the UTF-8 declaration, once the walk is done. */
  finish(): void {
    if (this.sink.replaced > 0) this.edits.push(...this.csp);
    if (this.options.forceUtf8 && !this.declaresCharset) {
      const at = this.headEnd ?? this.htmlEnd ?? this.doctypeEnd ?? 0;
      this.splice(at, at, '<meta charset="utf-8">');
    }
  }

  apply(): string {
    if (this.edits.length === 0) return this.source;
    const edits = this.edits.sort((a, b) => a.start - b.start || a.end - b.end);
    let out = '';
    let pos = 0;
    for (const e of edits) {
      if (e.start < pos) continue; // overlapping edit: keep the first one
      out += this.source.slice(pos, e.start) + e.text;
      pos = e.end;
    }
    return out + this.source.slice(pos);
  }
}

function runHtml(
  html: string,
  documentUrl: string,
  sink: RefSink,
  options: ProcessHtmlOptions,
): ProcessHtmlResult {
  const walker = new HtmlWalker(html, documentUrl, sink, options);
  walker.findBase();
  walker.rewrite();
  walker.finish();
  const result: ProcessHtmlResult = {
    html: walker.apply(),
    refs: sink.refs,
    hasBase: walker.hasBase,
    renderHints: walker.hints,
    importMaps: walker.importMaps,
  };
  if (walker.charset !== undefined) result.charset = walker.charset;
  if (walker.title !== undefined) result.title = walker.title;
  return result;
}

/**
 * Lists every reference of an HTML document and rewrites them through `visit`, splicing the
 * replacements into the original markup: everything else (doctype, comments, whitespace, attribute
 * order and quoting) stays byte-for-byte. `integrity` is removed from elements whose references were
 * replaced, and a `<meta http-equiv=content-security-policy>` is removed once anything was replaced.
 */
export function processHtml(
  html: string,
  documentUrl: string,
  visit: RefVisitor,
  options: ProcessHtmlOptions = {},
): ProcessHtmlResult {
  return runHtml(html, documentUrl, new RefSink(visit), options);
}

/**
 * For a page decoded from another charset and re-encoded as UTF-8: declares utf-8 in its
 * `<meta charset>` / `http-equiv=content-type`, or inserts `<meta charset="utf-8">` first in head.
 */
export function htmlCharsetRewrite(html: string): string {
  return processHtml(html, 'http://localhost/', () => undefined, { forceUtf8: true }).html;
}
