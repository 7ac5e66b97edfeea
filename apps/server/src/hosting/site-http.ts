/**
 * HTTP details of serving a site copy: content negotiation, cache rules per file name, the pages the
 * host answers itself. Pure functions, no state beyond small bounded memo tables.
 */
import { escapeUTF8 } from 'entities';

export const ENCODING_IDENTITY = 0;
export const ENCODING_GZIP = 1;
export const ENCODING_BR = 2;
export type Encoding = typeof ENCODING_IDENTITY | typeof ENCODING_GZIP | typeof ENCODING_BR;

/** `mediaType` is an essence (`text/html`), as `essenceOf` from `@mirror/engine` gives it. */
export function isHtmlType(mediaType: string): boolean {
  return mediaType === 'text/html' || mediaType === 'application/xhtml+xml';
}

const COMPRESSIBLE_EXACT = new Set([
  'application/javascript',
  'application/x-javascript',
  'application/ecmascript',
  'application/json',
  'application/ld+json',
  'application/manifest+json',
  'application/xml',
  'application/xhtml+xml',
  'application/rss+xml',
  'application/atom+xml',
  'application/wasm',
  'application/vnd.ms-fontobject',
  'application/x-font-ttf',
  'application/x-font-otf',
  'application/x-web-app-manifest+json',
  'image/svg+xml',
  'image/x-icon',
  'image/vnd.microsoft.icon',
  'image/bmp',
  'font/ttf',
  'font/otf',
  'font/eot',
]);

/** Types worth compressing: text, scripts, data, vector images, uncompressed fonts, wasm. */
export function isCompressibleType(mediaType: string): boolean {
  return (
    mediaType.startsWith('text/') ||
    COMPRESSIBLE_EXACT.has(mediaType) ||
    mediaType.endsWith('+json') ||
    mediaType.endsWith('+xml')
  );
}

const HEX_HASH = /^[0-9a-f]{8,}$/;
const BASE64_HASH = /^[A-Za-z0-9_]{8}$/;
const DIGIT = /[0-9]/;
const LETTER = /[a-zA-Z]/;
const UPPER = /[A-Z]/g;
const LOWER = /[a-z]/;

/**
 * True when a file's name carries a content hash, so the file at that URL never changes:
 * `app.3f9a1c2b.js`, `main.3f9a1c2b.chunk.js`, `_app-72b849fbd24ac258.js` (hex, 8+ characters, at
 * least one digit and one letter), `index-AbC123de.js` / `index-DiwrgTda.js` (bundler base64 hashes
 * of 8 characters with a digit and a letter, or two capitals and lower case), and everything under
 * Next.js's `/_next/static/`. HTML is never treated as immutable by the caller.
 */
export function hasContentHash(pathname: string): boolean {
  if (pathname.includes('/_next/static/')) return true;
  const name = pathname.slice(pathname.lastIndexOf('/') + 1);
  const dot = name.lastIndexOf('.');
  if (dot <= 0) return false;
  const stem = name.slice(0, dot);
  for (const part of stem.split(/[.\-~]/)) {
    if (part.length < 8) continue;
    if (HEX_HASH.test(part) && DIGIT.test(part) && LETTER.test(part)) return true;
    if (BASE64_HASH.test(part)) {
      if (DIGIT.test(part) && LETTER.test(part)) return true;
      if ((part.match(UPPER)?.length ?? 0) >= 2 && LOWER.test(part)) return true;
    }
  }
  return false;
}

const negotiated = new Map<string, Encoding>();

/**
 * The encoding to answer with for an Accept-Encoding value, honouring q-values (`br;q=0`,
 * `*;q=0.5`, `gzip;q=1.0, br;q=0.8`). Brotli wins ties. Memoized per distinct header value (browsers
 * send a handful of values), in a table that is reset when it grows past 256 entries.
 */
export function negotiateEncoding(header: string | undefined): Encoding {
  if (header === undefined || header === '') return ENCODING_IDENTITY;
  const known = negotiated.get(header);
  if (known !== undefined) return known;
  let br = -1;
  let gzip = -1;
  let star = -1;
  for (const item of header.split(',')) {
    const parts = item.split(';');
    const name = parts[0]!.trim().toLowerCase();
    let q = 1;
    for (let i = 1; i < parts.length; i++) {
      const param = parts[i]!.trim().toLowerCase();
      if (param.startsWith('q=')) {
        const value = Number(param.slice(2));
        q = Number.isFinite(value) ? Math.min(Math.max(value, 0), 1) : 0;
      }
    }
    if (name === 'br') br = Math.max(br, q);
    else if (name === 'gzip' || name === 'x-gzip') gzip = Math.max(gzip, q);
    else if (name === '*') star = Math.max(star, q);
  }
  if (br === -1) br = star === -1 ? 0 : star;
  if (gzip === -1) gzip = star === -1 ? 0 : star;
  const result: Encoding =
    br > 0 && br >= gzip ? ENCODING_BR : gzip > 0 ? ENCODING_GZIP : ENCODING_IDENTITY;
  if (negotiated.size >= 256) negotiated.clear();
  negotiated.set(header, result);
  return result;
}

/**
 * A single byte range (`bytes=0-99`, `bytes=100-`, `bytes=-100`) of a body of `size` bytes:
 * [start, end] inclusive, 'unsatisfiable', or null when the header is absent, malformed or asks
 * for several ranges (then the whole body is served, as the RFC allows).
 */
export function parseRange(
  header: string | undefined,
  size: number,
): { start: number; end: number } | 'unsatisfiable' | null {
  if (header === undefined || !header.startsWith('bytes=')) return null;
  const spec = header.slice(6).trim();
  if (spec.includes(',')) return null;
  const match = /^(\d*)-(\d*)$/.exec(spec);
  if (!match) return null;
  const [, from, to] = match;
  if (from === '' && to === '') return null;
  let start: number;
  let end: number;
  if (from === '') {
    const suffix = Number(to);
    if (suffix === 0) return 'unsatisfiable';
    start = Math.max(size - suffix, 0);
    end = size - 1;
  } else {
    start = Number(from);
    end = to === '' ? size - 1 : Math.min(Number(to), size - 1);
    if (to !== '' && Number(to) < start) return null;
  }
  if (start >= size || size === 0) return 'unsatisfiable';
  return { start, end };
}

const PAGE_STYLE = `body{font:16px/1.6 system-ui,sans-serif;margin:0;display:grid;place-items:center;min-height:100vh;background:#f6f7fb;color:#1d2233}
main{max-width:32rem;padding:2rem;text-align:center}h1{font-size:1.6rem;margin:0 0 .5rem}a{color:#3b4fd8}`;

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><title>${title}</title>
<style>${PAGE_STYLE}</style></head>
<body><main>${body}</main></body></html>`;
}

/** The page a host with no published site answers (404), same look as the sites host's. */
export function noSiteHerePage(hostname: string, appUrl: string): string {
  const host = escapeUTF8(hostname);
  const app = escapeUTF8(appUrl);
  return page(
    'No site here',
    `<h1>No site here</h1><p>There is no site published at <strong>${host}</strong>.</p>
<p>Mirror a website and publish it with <a href="${app}">Mirror</a>.</p>`,
  );
}

/** The 404 page of a site whose copy has no 404 page of its own. */
export const NOT_FOUND_PAGE = page(
  'Page not found',
  '<h1>Page not found</h1><p>This page is not part of this site.</p><p><a href="/">Go to the home page</a></p>',
);

/** Answered when a site's files cannot be read right now (storage or database trouble). */
export const UNAVAILABLE_PAGE = page(
  'Site unavailable',
  '<h1>Site unavailable</h1><p>This site cannot be shown right now. Please try again in a moment.</p>',
);
