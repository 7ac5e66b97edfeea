import type { HtmlScanner, RawTextKind, ScannedAttr } from './html-scan.js';
import type { RefKind } from './types.js';
import { trimAscii } from './sink.js';

/**
 * What the HTML walk knows about elements and attributes: which elements hold raw text or are
 * void, which attributes hold references (and of what kind), and the small readers of attribute
 * values (`<link rel>`, `<meta http-equiv=refresh>`). Data and pure functions only.
 */

export const enum Ns {
  Html,
  Svg,
  MathMl,
}

/** A start tag as the walker sees it: the element's namespace comes from the walk. */
export interface Tag {
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

/** HTML elements whose content is not markup, and how it ends (scripting enabled). */
export const RAW_TEXT: ReadonlyMap<string, RawTextKind> = new Map([
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

export const VOID_ELEMENTS = new Set([
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
export const HEAD_CONTENT = new Set([
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
export const BREAKOUT = new Set(
  (
    'b big blockquote body br center code dd div dl dt em embed h1 h2 h3 h4 h5 h6 head hr i img ' +
    'li listing menu meta nobr ol p pre ruby s small span strong strike sub sup table tt u ul var'
  ).split(' '),
);
export const APP_ROOT_IDS = new Set(['root', '__next', 'app', '__nuxt', '___gatsby']);
export const JS_TYPES =
  /^(?:(?:text|application)\/(?:x-)?(?:java|ecma)script|text\/javascript1\.[0-5]|text\/(?:jscript|livescript)|module)$/i;
export const NOSCRIPT_NEEDS_JS = /java\s*script|\bJS\b/i;
export const LINK_ICON_RELS = new Set([
  'icon',
  'apple-touch-icon',
  'apple-touch-icon-precomposed',
  'apple-touch-startup-image',
  'mask-icon',
  'fluid-icon',
]);
export const LAZY_SINGLE = new Set([
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
export const LAZY_SRCSET = new Set([
  'data-srcset',
  'data-lazy-srcset',
  'data-original-set',
  'data-original-srcset',
]);
export const LAZY_BACKGROUND = new Set([
  'data-bg',
  'data-background',
  'data-background-image',
  'data-bg-image',
  'data-bg-url',
  'data-lazy-background',
]);
/** Other `data-*` attributes are taken when they hold a single URL to an image or media file. */
export const DATA_URL_VALUE =
  /^[^\s"'<>(){}]+\.(?:jpe?g|png|gif|webp|avif|svg|ico|bmp|mp4|webm|ogv|mp3)(?:[?#][^\s]*)?$/i;
export const MEDIA_EXT = /\.(?:mp4|webm|ogv|mp3)(?:[?#]|$)/i;
export const OG_IMAGE = new Set([
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
export const OG_MEDIA = new Set([
  'og:video',
  'og:video:url',
  'og:video:secure_url',
  'og:audio',
  'og:audio:url',
  'og:audio:secure_url',
  'twitter:player:stream',
]);
export const ITEMPROP_IMAGE = new Set(['image', 'thumbnailurl', 'logo']);
/**
 * Attributes the walk never reads, on any element (SVG included): the scanner steps over them.
 * The common ones only; the rest are read and found to hold nothing.
 */
export const UNREAD_ATTRIBUTES: ReadonlySet<string> = new Set([
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
export const URL_ATTRIBUTES = new Set([
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

export function getAttr(el: Tag, name: string): string | undefined {
  for (const a of el.attrs) if (a.name === name) return a.value;
  return undefined;
}

export function lower(value: string | undefined): string {
  return value === undefined ? '' : trimAscii(value).toLowerCase();
}

export function kindForAs(as: string): RefKind {
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
export function linkKind(el: Tag): RefKind | null {
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
export function splitRefresh(
  content: string,
): { before: string; url: string; after: string } | undefined {
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
export function isBlank(source: string, start: number, end: number): boolean {
  for (let k = start; k < end; k++) {
    const c = source.charCodeAt(k);
    if (c !== 0x20 && c !== 0x0a && c !== 0x09 && c !== 0x0c && c !== 0x0d) return false;
  }
  return true;
}

/** An open element while the walk is inside foreign content (the namespaces need a stack). */
export interface Open {
  name: string;
  ns: Ns;
  /** An HTML integration point: its content is HTML again (`<foreignObject>`, `<mtext>`…). */
  htmlInside: boolean;
}

export function integrationPoint(name: string, ns: Ns, attrs: ScannedAttr[]): boolean {
  if (ns === Ns.Svg) return name === 'foreignobject' || name === 'desc' || name === 'title';
  if (ns !== Ns.MathMl) return false;
  if (name === 'annotation-xml') {
    const encoding = attrs.find((a) => a.name === 'encoding')?.value.toLowerCase();
    return encoding === 'text/html' || encoding === 'application/xhtml+xml';
  }
  return name === 'mi' || name === 'mo' || name === 'mn' || name === 'ms' || name === 'mtext';
}
