import { parse, parseFragment } from 'parse5';
import type { DefaultTreeAdapterTypes, Token } from 'parse5';
import { charsetFromMetaContent, encodingForLabel } from './charset.js';
import { rewriteCss } from './css.js';
import { parseImportMap, type ImportMap } from './import-map.js';
import { rewriteJs } from './js.js';
import { isRecord, jsonIndent } from './json.js';
import { mergeAbilities, scriptAbilities } from './script-scan.js';
import { RefSink, trimAscii } from './sink.js';
import { rewriteSrcset } from './srcset.js';
import type { Ref, RefKind, RefVisitor, RenderHints } from './types.js';

type Node = DefaultTreeAdapterTypes.Node;
type ChildNode = DefaultTreeAdapterTypes.ChildNode;
type Element = DefaultTreeAdapterTypes.Element;
type Template = DefaultTreeAdapterTypes.Template;
type TextNode = DefaultTreeAdapterTypes.TextNode;
type Attribute = Token.Attribute;
type Location = Token.Location;

const HTML_NS = 'http://www.w3.org/1999/xhtml';
const SVG_NS = 'http://www.w3.org/2000/svg';

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
  /** Characters of visible text (whitespace collapsed; not script, style, noscript, head…). */
  textLength: number;
  renderHints: RenderHints;
  /** The document's `<script type=importmap>` maps, in document order, as written (not rewritten). */
  importMaps: ImportMap[];
}

interface Edit {
  start: number;
  end: number;
  text: string;
}

interface Frame {
  node: ChildNode;
  /** Offset of the parsed text within the document source (noscript fragments). */
  delta: number;
  /** Inside a subtree whose text is not rendered (head, script, template, noscript…). */
  hidden: boolean;
  /** Inside a re-parsed `<noscript>` fragment: not part of the live document. */
  fragment: boolean;
}

const HIDDEN_TEXT = new Set([
  'head',
  'script',
  'style',
  'template',
  'title',
  'iframe',
  'noembed',
  'noframes',
  'noscript',
]);
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

function getAttr(el: Element, name: string): string | undefined {
  for (const a of el.attrs) if (a.name === name && !a.prefix) return a.value;
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

/** Length of a text once whitespace runs are collapsed to one space and the ends trimmed. */
function collapsedLength(text: string): number {
  let length = 0;
  let pendingSpace = false;
  for (let k = 0; k < text.length; k++) {
    const c = text.charCodeAt(k);
    if (c === 0x20 || c === 0x0a || c === 0x09 || c === 0x0d || c === 0x0c) {
      pendingSpace = length > 0;
    } else {
      if (pendingSpace) length++;
      pendingSpace = false;
      length++;
    }
  }
  return length;
}

function isText(node: ChildNode | undefined): node is TextNode {
  return node !== undefined && node.nodeName === '#text';
}

function isElement(node: Node): node is Element {
  return 'tagName' in node;
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
function linkKind(el: Element): RefKind | null {
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

class HtmlWalker {
  readonly edits: Edit[] = [];
  base: string;
  hasBase = false;
  charset: string | undefined;
  title: string | undefined;
  textLength = 0;
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
  private readonly seenTags = new Set<number>();

  constructor(
    readonly source: string,
    readonly documentUrl: string,
    public sink: RefSink,
    readonly options: ProcessHtmlOptions,
  ) {
    this.base = documentUrl;
  }

  /** The document base URL: the first `<base href>` in tree order (outside templates). */
  findBase(root: Node): void {
    if (!/<base[\t\n\f\r />]/i.test(this.source)) return;
    const stack: Node[] = [root];
    while (stack.length > 0) {
      const node = stack.pop()!;
      if (isElement(node) && node.namespaceURI === HTML_NS && node.tagName === 'base') {
        const href = getAttr(node, 'href');
        if (href !== undefined) {
          this.hasBase = true;
          try {
            this.base = new URL(trimAscii(href), this.documentUrl).href;
          } catch {
            // an invalid base leaves the document URL in place
          }
          return;
        }
      }
      if ('childNodes' in node && !(isElement(node) && node.tagName === 'template')) {
        for (let k = node.childNodes.length - 1; k >= 0; k--) stack.push(node.childNodes[k]!);
      }
    }
  }

  walk(nodes: ChildNode[], delta: number, hidden: boolean, fragment: boolean): void {
    const stack: Frame[] = [];
    const pushAll = (list: ChildNode[], d: number, h: boolean, f: boolean) => {
      for (let k = list.length - 1; k >= 0; k--) {
        stack.push({ node: list[k]!, delta: d, hidden: h, fragment: f });
      }
    };
    pushAll(nodes, delta, hidden, fragment);
    while (stack.length > 0) {
      const frame = stack.pop()!;
      const node = frame.node;
      if (isText(node)) {
        if (!frame.hidden) this.textLength += collapsedLength(node.value);
        continue;
      }
      if (!isElement(node)) continue;
      const el = node;
      const loc = el.sourceCodeLocation;
      if (loc) {
        const key = (loc.startTag?.startOffset ?? loc.startOffset) + frame.delta;
        if (!this.seenTags.has(key)) {
          this.seenTags.add(key);
          this.attributes(el, loc, frame.delta, frame.fragment);
        }
      }
      const html = el.namespaceURI === HTML_NS;
      const hiddenBelow = frame.hidden || (html && HIDDEN_TEXT.has(el.tagName));
      if (!frame.fragment) this.hintsFor(el);
      if (html) {
        switch (el.tagName) {
          case 'style':
            if (/^(?:|text\/css)$/.test(lower(getAttr(el, 'type'))))
              this.styleText(el, frame.delta);
            continue;
          case 'script': {
            const type = lower(getAttr(el, 'type'));
            if (type === 'importmap') this.importMap(el, frame.delta, frame.fragment);
            else if (
              !frame.fragment &&
              (type === '' || JS_TYPES.test(type)) &&
              getAttr(el, 'src') === undefined
            )
              this.scriptText(el, frame.delta);
            continue;
          }
          case 'noscript':
            if (el.childNodes.length === 1 && isText(el.childNodes[0])) {
              this.noscript(el.childNodes[0], frame.delta);
              continue;
            }
            break;
          case 'template':
            pushAll((el as Template).content.childNodes, frame.delta, true, true); // inert
            continue;
          case 'title':
            if (this.title === undefined && !frame.fragment) {
              this.title = el.childNodes
                .map((c) => (isText(c) ? c.value : ''))
                .join('')
                .replace(/\s+/g, ' ')
                .trim();
            }
            continue;
        }
      } else if (el.namespaceURI === SVG_NS && el.tagName === 'style') {
        this.svgStyleText(el, frame.delta);
        continue;
      }
      pushAll(el.childNodes, frame.delta, hiddenBelow, frame.fragment);
    }
  }

  private hintsFor(el: Element): void {
    if (el.namespaceURI !== HTML_NS) return;
    if (el.tagName === 'script') {
      const type = getAttr(el, 'type');
      if (type === undefined || trimAscii(type) === '' || JS_TYPES.test(trimAscii(type))) {
        this.hints.scriptCount++;
        const src = getAttr(el, 'src');
        if (src !== undefined && trimAscii(src) !== '') {
          try {
            const url = new URL(trimAscii(src), this.base);
            url.hash = '';
            this.hints.scriptSources.push(url.href);
          } catch {
            // an unusable src runs nothing
          }
        } else {
          const code = el.childNodes.map((c) => (isText(c) ? c.value : '')).join('');
          this.hints.inlineScriptAbilities = mergeAbilities(
            this.hints.inlineScriptAbilities,
            scriptAbilities(code),
          );
        }
      }
    }
    if (this.hints.emptyAppRoot) return;
    const id = getAttr(el, 'id');
    const isRoot =
      (id !== undefined && APP_ROOT_IDS.has(id)) ||
      getAttr(el, 'data-reactroot') !== undefined ||
      el.tagName === 'app-root';
    if (
      isRoot &&
      el.childNodes.every((c) => c.nodeName === '#comment' || (isText(c) && c.value.trim() === ''))
    ) {
      this.hints.emptyAppRoot = true;
    }
  }

  private splice(start: number, end: number, text: string): void {
    this.edits.push({ start, end, text });
  }

  private attrEdit(loc: Location, delta: number, value: string, key: string): void {
    const start = loc.startOffset + delta;
    const end = loc.endOffset + delta;
    const written = this.source.slice(start, end);
    const m = /^[^\t\n\f\r />][^\t\n\f\r />=]*(?:[\t\n\f\r ]*=[\t\n\f\r ]*)?/.exec(written);
    if (!m || !m[0].includes('=')) {
      this.splice(start, end, `${m ? m[0] : key}="${escapeAttr(value, '"')}"`);
      return;
    }
    const q = written[m[0].length] === "'" ? "'" : '"';
    this.splice(start, end, `${m[0]}${q}${escapeAttr(value, q)}${q}`);
  }

  private attrRemove(loc: Location, delta: number): void {
    let start = loc.startOffset + delta;
    while (start > 0 && /[\t\n\f\r ]/.test(this.source[start - 1]!)) start--;
    this.splice(start, loc.endOffset + delta, '');
  }

  private attributes(el: Element, loc: Token.ElementLocation, delta: number, fragment: boolean) {
    const before = this.sink.replaced;
    let integrity: Location | undefined;
    if (!fragment && el.namespaceURI === HTML_NS && el.tagName === 'meta') this.meta(el, loc);
    for (const attr of el.attrs) {
      const key = attr.prefix ? `${attr.prefix}:${attr.name}` : attr.name;
      const attrLoc = loc.attrs?.[key];
      if (key === 'integrity') {
        integrity = attrLoc;
        continue;
      }
      const next = this.attribute(el, attr, key);
      if (next !== undefined && next !== attr.value && attrLoc) {
        this.attrEdit(attrLoc, delta, next, key);
      }
    }
    if (integrity && this.sink.replaced > before) this.attrRemove(integrity, delta);
  }

  /** charset declarations, CSP. */
  private meta(el: Element, loc: Token.ElementLocation): void {
    const charset = getAttr(el, 'charset');
    const httpEquiv = lower(getAttr(el, 'http-equiv'));
    let declared: string | undefined;
    if (charset !== undefined) declared = charset;
    else if (httpEquiv === 'content-type')
      declared = charsetFromMetaContent(getAttr(el, 'content') ?? '');
    if (declared !== undefined) {
      this.declaresCharset = true;
      this.charset ??= encodingForLabel(declared) ?? lower(declared);
    }
    if (httpEquiv === 'content-security-policy') {
      this.csp.push({ start: loc.startOffset, end: loc.endOffset, text: '' });
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
  private attribute(el: Element, attr: Attribute, key: string): string | undefined {
    const tag = el.tagName;
    const value = attr.value;
    if (key === 'style') return this.css(value, '[style]');
    const ctx = `${tag}[${key}]`;

    if (el.namespaceURI === SVG_NS) {
      if (key === 'href' || key === 'xlink:href') {
        const kind: RefKind =
          tag === 'image' || tag === 'feImage'
            ? 'image'
            : tag === 'a'
              ? 'page'
              : tag === 'script'
                ? 'script'
                : 'asset';
        return this.one(value, kind, ctx);
      }
      return /url\(/i.test(value) ? this.css(value, ctx) : undefined;
    }
    if (el.namespaceURI !== HTML_NS) return undefined;

    switch (key) {
      case 'src':
        switch (tag) {
          case 'img':
            return this.one(value, 'image', ctx);
          case 'script':
            return this.one(
              value,
              lower(getAttr(el, 'type')) === 'module' ? 'module' : 'script',
              ctx,
            );
          case 'iframe':
          case 'frame':
            return this.one(value, 'frame', ctx);
          case 'embed':
            return this.one(value, 'asset', ctx);
          case 'source':
            return this.one(value, this.inMedia(el) ? 'media' : 'image', ctx);
          case 'track':
          case 'audio':
          case 'video':
            return this.one(value, 'media', ctx);
          case 'input':
            return lower(getAttr(el, 'type')) === 'image'
              ? this.one(value, 'image', ctx)
              : undefined;
        }
        return undefined;
      case 'srcset':
        return tag === 'img' || tag === 'source'
          ? rewriteSrcset(value, this.base, this.sink, 'image', ctx)
          : undefined;
      case 'imagesrcset':
        return tag === 'link'
          ? rewriteSrcset(value, this.base, this.sink, 'image', ctx)
          : undefined;
      case 'srcdoc': {
        if (tag !== 'iframe') return undefined;
        const nested = runHtml(value, this.base, this.sink.scoped('iframe[srcdoc]'), {});
        return nested.html === value ? undefined : nested.html;
      }
      case 'poster':
        return tag === 'video' ? this.one(value, 'image', ctx) : undefined;
      case 'data':
        if (tag !== 'object') return undefined;
        return this.one(value, /html/.test(lower(getAttr(el, 'type'))) ? 'frame' : 'asset', ctx);
      case 'href':
        switch (tag) {
          case 'a':
          case 'area':
            return this.one(value, 'page', ctx);
          case 'base':
            return this.sink.visit(value, this.documentUrl, 'page', 'base');
          case 'link': {
            const kind = linkKind(el);
            if (kind === null) return undefined;
            const rel = lower(getAttr(el, 'rel')).replace(/[\t\n\f\r ]+/g, ' ');
            return this.one(value, kind, `link[rel=${rel}]`);
          }
        }
        return undefined;
      case 'action':
        return tag === 'form' ? this.one(value, 'page', ctx) : undefined;
      case 'formaction':
        return tag === 'button' || tag === 'input' ? this.one(value, 'page', ctx) : undefined;
      case 'background':
        return /^(?:body|table|thead|tbody|tfoot|tr|td|th)$/.test(tag)
          ? this.one(value, 'image', ctx)
          : undefined;
      case 'content':
        return tag === 'meta' ? this.metaContent(el, value) : undefined;
      case 'charset':
        return tag === 'meta' && this.options.forceUtf8 && encodingForLabel(value) !== 'utf-8'
          ? 'utf-8'
          : undefined;
    }
    if (!key.startsWith('data-')) return undefined;
    if (LAZY_SINGLE.has(key)) return this.one(value, this.lazyKind(el, key), ctx);
    if (LAZY_SRCSET.has(key)) return rewriteSrcset(value, this.base, this.sink, 'image', ctx);
    if (LAZY_BACKGROUND.has(key)) {
      return /url\(/i.test(value) ? this.css(value, ctx) : this.one(value, 'image', ctx);
    }
    if (key === 'data-bgset') {
      // lazysizes: srcset candidates sets separated by `|`
      let changed = false;
      const parts = value.split('|').map((part) => {
        const next = rewriteSrcset(part, this.base, this.sink, 'image', ctx);
        if (next === undefined) return part;
        changed = true;
        return next;
      });
      return changed ? parts.join(' | ') : undefined;
    }
    const trimmed = trimAscii(value);
    if (DATA_URL_VALUE.test(trimmed)) {
      return this.one(value, MEDIA_EXT.test(trimmed) ? 'media' : 'image', ctx);
    }
    return undefined;
  }

  private inMedia(el: Element): boolean {
    const parent = el.parentNode;
    return (
      parent !== null &&
      isElement(parent) &&
      (parent.tagName === 'video' || parent.tagName === 'audio')
    );
  }

  private lazyKind(el: Element, key: string): RefKind {
    if (key === 'data-poster') return 'image';
    switch (el.tagName) {
      case 'iframe':
        return 'frame';
      case 'video':
      case 'audio':
        return 'media';
      case 'source':
        return this.inMedia(el) ? 'media' : 'image';
      case 'script':
        return 'script';
      default:
        return 'image';
    }
  }

  private metaContent(el: Element, value: string): string | undefined {
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

  /** Location of the single raw-text child of an element, in document offsets. */
  private rawText(el: Element, delta: number): [number, number] | undefined {
    const text = el.childNodes[0];
    if (el.childNodes.length !== 1 || !isText(text) || !text.sourceCodeLocation) return undefined;
    return [text.sourceCodeLocation.startOffset + delta, text.sourceCodeLocation.endOffset + delta];
  }

  private styleText(el: Element, delta: number): void {
    const range = this.rawText(el, delta);
    if (!range) return;
    const css = this.source.slice(range[0], range[1]);
    const out = rewriteCss(css, this.base, this.sink.scoped('style'), 'stylesheet');
    if (out !== css) this.splice(range[0], range[1], out);
  }

  /** SVG `<style>` is parsed as normal markup: entities are decoded, CDATA sections unwrapped. */
  private svgStyleText(el: Element, delta: number): void {
    for (const child of el.childNodes) {
      if (!isText(child) || !child.sourceCodeLocation) continue;
      const start = child.sourceCodeLocation.startOffset + delta;
      const end = child.sourceCodeLocation.endOffset + delta;
      const written = this.source.slice(start, end);
      const sink = this.sink.scoped('svg style');
      if (written.replace(/\r\n?/g, '\n') === child.value) {
        const out = rewriteCss(written, this.base, sink, 'stylesheet');
        if (out !== written) this.splice(start, end, out);
      } else {
        const out = rewriteCss(child.value, this.base, sink, 'stylesheet');
        if (out !== child.value) this.splice(start, end, escapeText(out));
      }
    }
  }

  /** An inline script's imports, resolved through the import maps that come before it. */
  private scriptText(el: Element, delta: number): void {
    const range = this.rawText(el, delta);
    if (!range) return;
    const code = this.source.slice(range[0], range[1]);
    const out = rewriteJs(code, this.base, this.sink.scoped('script'), {
      importMaps: this.importMaps,
    });
    if (out !== code) this.splice(range[0], range[1], out);
  }

  private importMap(el: Element, delta: number, fragment: boolean): void {
    const range = this.rawText(el, delta);
    if (!range) return;
    const text = this.source.slice(range[0], range[1]);
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
    this.splice(range[0], range[1], json);
  }

  private noscript(text: TextNode, delta: number): void {
    const loc = text.sourceCodeLocation;
    if (!loc) return;
    const start = loc.startOffset + delta;
    const markup = this.source.slice(start, loc.endOffset + delta);
    if (NOSCRIPT_NEEDS_JS.test(markup.replace(/<[^>]*>/g, ' ')))
      this.hints.noscriptAsksForJs = true;
    if (!markup.includes('<')) return;
    const fragment = parseFragment(markup, { sourceCodeLocationInfo: true });
    const outer = this.sink;
    this.sink = outer.scoped('noscript');
    try {
      this.walk(fragment.childNodes, start, true, true);
    } finally {
      this.sink = outer;
    }
  }

  /** CSP removal and the UTF-8 declaration, once the walk is done. */
  finish(
    documentElement: Element | undefined,
    head: Element | undefined,
    doctypeEnd: number,
  ): void {
    if (this.sink.replaced > 0) this.edits.push(...this.csp);
    if (this.options.forceUtf8 && !this.declaresCharset) {
      const at =
        head?.sourceCodeLocation?.startTag?.endOffset ??
        documentElement?.sourceCodeLocation?.startTag?.endOffset ??
        doctypeEnd;
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
  const doc = parse(html, { sourceCodeLocationInfo: true });
  const walker = new HtmlWalker(html, documentUrl, sink, options);
  walker.findBase(doc);
  walker.walk(doc.childNodes, 0, false, false);
  const documentElement = doc.childNodes.find(
    (n): n is Element => isElement(n) && n.tagName === 'html',
  );
  const head = documentElement?.childNodes.find(
    (n): n is Element => isElement(n) && n.tagName === 'head',
  );
  const doctype = doc.childNodes.find((n) => n.nodeName === '#documentType');
  walker.finish(documentElement, head, doctype?.sourceCodeLocation?.endOffset ?? 0);
  const result: ProcessHtmlResult = {
    html: walker.apply(),
    refs: sink.refs,
    hasBase: walker.hasBase,
    textLength: walker.textLength,
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
