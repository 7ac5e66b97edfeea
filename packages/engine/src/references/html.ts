import { escapeUTF8 } from 'entities';
import { charsetFromMetaContent, encodingForLabel } from './charset.js';
import { rewriteCss } from './css.js';
import { attributeValue, type AttrScope } from './html-attributes.js';
import { decodeText, HtmlScanner, Token, type ScannedAttr } from './html-scan.js';
import {
  APP_ROOT_IDS,
  BREAKOUT,
  getAttr,
  HEAD_CONTENT,
  integrationPoint,
  isBlank,
  JS_TYPES,
  lower,
  NOSCRIPT_NEEDS_JS,
  Ns,
  readRawText,
  UNREAD_ATTRIBUTES,
  VOID_ELEMENTS,
  type Open,
  type Tag,
} from './html-tables.js';
import { parseImportMap, type ImportMap } from './import-map.js';
import { rewriteJs } from './js.js';
import { isRecord, jsonIndent } from './json.js';
import { mergeAbilities, scriptAbilities } from './script-scan.js';
import { RefSink, trimAscii } from './sink.js';
import { ordered, spliceText, type Edit } from './splice.js';
import type { Ref, RefVisitor, RenderHints } from './types.js';

export { readRawText } from './html-tables.js';

/** An inline script this short that names an absolute address is taken for a loader snippet. */
const MAX_LOADER_CHARS = 4_096;
const MAX_LOADERS = 20;
/** The first absolute (or scheme-relative) address in a string literal of a script. */
const LOADER_URL = /["'`]((?:https?:)?\/\/[a-z0-9.-]+\.[a-z]{2,}(?:[/?][^"'`\s]*)?)["'`]/i;
/** Data blocks whose strings may name files the page's scripts load (`__NEXT_DATA__`, a config). */
const JSON_DATA_TYPES = /^(?:application|text)\/(?:json|(?!ld\+json$)[\w.-]+\+json)$/;
/** Inline scripts and data blocks kept for `scriptTexts`. */
const MAX_SCRIPT_TEXTS = 200;

export interface ProcessHtmlOptions {
  /**
   * The page was decoded from another charset and will be served as UTF-8: declare utf-8 in
   * `<meta charset>` / `http-equiv=content-type`, inserting `<meta charset="utf-8">` at the start
   * of `<head>` when the page declares nothing.
   */
  forceUtf8?: boolean;
  /**
   * Sees the document's tags and text as the rewrite reads them, so that another reader of the
   * page (its forms) costs no second scan. Not told of `<noscript>` and `<template>` contents
   * beyond their tags, nor of raw text (scripts, styles, titles, textareas).
   */
  observer?: TagObserver;
}

/** A reader that rides on the rewrite's scan of a page (`ProcessHtmlOptions.observer`). */
export interface TagObserver {
  /** Attributes neither the rewrite nor the observer reads: stepped over without an object each. */
  readonly ignored: ReadonlySet<string>;
  startTag(name: string, attrs: ScannedAttr[], at: number, selfClosing: boolean): void;
  endTag(name: string, at: number): void;
  /** Text between tags, `[start, end)` of the page. */
  text(start: number, end: number): void;
}

export interface ProcessHtmlResult {
  /** The document with references replaced; the input string itself when nothing changed. */
  readonly html: string;
  /**
   * What `html` changed of the document, in order: `spliceUtf8` makes the copy's bytes from the
   * fetched ones without building `html`.
   */
  edits: readonly Edit[];
  refs: Ref[];
  /** The document has a `<base href>` (visited with context `base`). */
  hasBase: boolean;
  /** Encoding declared by the first `<meta charset>` / `http-equiv=content-type` (canonical name). */
  charset?: string;
  title?: string;
  renderHints: RenderHints;
  /** The document's `<script type=importmap>` maps, in document order, as written (not rewritten). */
  importMaps: ImportMap[];
  /**
   * The text of the document's inline scripts and JSON data blocks (`application/json`, `…+json`
   * but JSON-LD), as written, at most 200: the crawl reads the file paths their strings name.
   */
  scriptTexts: string[];
}

class HtmlWalker implements AttrScope {
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
    inlineLoaders: [],
  };
  readonly importMaps: ImportMap[] = [];
  readonly scriptTexts: string[] = [];
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

  get forceUtf8(): boolean {
    return this.options.forceUtf8 === true;
  }

  nested(html: string, sink: RefSink): string {
    return runHtml(html, this.base, sink, {}).html;
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
    const main = !fragment && stopAt === undefined;
    const observer = main ? this.options.observer : undefined;
    const scanner = new HtmlScanner(this.source, from, to, observer?.ignored ?? UNREAD_ATTRIBUTES);
    const source = this.source;
    const foreign: Open[] = [];
    /** Open `<video>`, `<audio>` and `<picture>` elements (a `<source>` takes its parent's kind). */
    const media: string[] = [];
    let templates = 0;
    /** An SPA mount point was opened: is anything put in it before it closes? */
    let pendingRoot = false;
    let svgStyle: number[] | undefined;

    for (;;) {
      const token = scanner.next();
      if (token === Token.End) break;
      if (token === Token.Text) {
        observer?.text(scanner.textStart, scanner.textEnd);
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
        observer?.endTag(name, scanner.start);
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
      observer?.startTag(name, attrs, scanner.start, scanner.selfClosing);
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
          else if (!inTemplate && JSON_DATA_TYPES.test(type)) this.keepScriptText(range);
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
      const code = this.source.slice(range[0], range[1]);
      const abilities = scriptAbilities(code);
      if (abilities.length === 0) return;
      const loads = code.length <= MAX_LOADER_CHARS ? LOADER_URL.exec(code) : null;
      if (loads && this.hints.inlineLoaders.length < MAX_LOADERS) {
        this.hints.inlineLoaders.push({ url: new URL(loads[1]!, this.base).href, abilities });
        return;
      }
      this.hints.inlineScriptAbilities = mergeAbilities(
        this.hints.inlineScriptAbilities,
        abilities,
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
      this.splice(attr.start, attr.end, `${m ? m[0] : attr.name}="${escapeUTF8(value)}"`);
      return;
    }
    const q = written[m[0].length] === "'" ? "'" : '"';
    this.splice(attr.start, attr.end, `${m[0]}${q}${escapeUTF8(value)}${q}`);
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
      const next = attributeValue(this, tag, attr);
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
        if (out !== value) this.splice(start, end, escapeUTF8(out));
      }
    }
  }

  /** An inline script's imports, resolved through the import maps that come before it. */
  private scriptText([start, end]: [number, number]): void {
    if (start === end) return;
    this.keepScriptText([start, end]);
    const code = this.source.slice(start, end);
    const out = rewriteJs(code, this.base, this.sink.scoped('script'), {
      importMaps: this.importMaps,
    });
    if (out !== code) this.splice(start, end, out);
  }

  private keepScriptText([start, end]: [number, number]): void {
    if (start < end && this.scriptTexts.length < MAX_SCRIPT_TEXTS)
      this.scriptTexts.push(this.source.slice(start, end));
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
        const next = this.sink.visit(target, this.base, 'module', 'script[type=importmap]');
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
  // An overlapping edit loses to the first one.
  const edits = ordered(walker.edits);
  let text: string | undefined;
  const result: ProcessHtmlResult = {
    get html() {
      return (text ??= spliceText(html, edits));
    },
    edits,
    refs: sink.refs,
    hasBase: walker.hasBase,
    renderHints: walker.hints,
    importMaps: walker.importMaps,
    scriptTexts: walker.scriptTexts,
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
