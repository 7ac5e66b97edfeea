import { essenceOf } from '../net/media-type.js';
import type { Ref } from '../references/index.js';
import { isPagefindEntry, isPagefindMeta } from './search-indexes.js';

/**
 * What the crawl reads a body as: the kinds it finds references in, or 'other'. A `search-index`
 * (Pagefind's entry and metadata files, `crawl/search-indexes.ts`) is read, never rewritten.
 */
export type BodyType = 'html' | 'css' | 'manifest' | 'js' | 'search-index' | 'other';

const HTML_TYPES: ReadonlySet<string> = new Set(['text/html', 'application/xhtml+xml']);
const JS_TYPES: ReadonlySet<string> = new Set([
  'text/javascript',
  'application/javascript',
  'application/x-javascript',
  'text/ecmascript',
  'application/ecmascript',
]);
/** Types servers send when they do not know: a `.js` path decides. */
const GENERIC_TYPES: ReadonlySet<string> = new Set([
  '',
  'application/octet-stream',
  'binary/octet-stream',
  'text/plain',
]);

export function isHtmlType(contentType: string): boolean {
  return HTML_TYPES.has(essenceOf(contentType));
}

/** How a body of this Content-Type at this URL is read (`hint`: what referred to it). */
export function bodyTypeOf(contentType: string, url: URL, hint: Ref['kind'] | undefined): BodyType {
  const type = essenceOf(contentType);
  if (HTML_TYPES.has(type)) return 'html';
  if (isPagefindEntry(url) || isPagefindMeta(url)) return 'search-index';
  if (type === 'text/css') return 'css';
  if (type === 'application/manifest+json' || (hint === 'manifest' && type.includes('json')))
    return 'manifest';
  if (!type && /\.css$/i.test(url.pathname)) return 'css';
  if (JS_TYPES.has(type)) return 'js';
  if (GENERIC_TYPES.has(type) && /\.[cm]?js$/i.test(url.pathname)) return 'js';
  return 'other';
}

/** The URL as the crawl keys it: without its fragment. */
export function withoutHash(url: URL): string {
  return url.hash ? url.href.slice(0, url.href.length - url.hash.length) : url.href;
}

export function fragmentOf(raw: string): string {
  const i = raw.indexOf('#');
  return i === -1 ? '' : raw.slice(i);
}
