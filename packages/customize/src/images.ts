import { getAttr, parentElement, tagOf } from './html.js';
import type { Element, HtmlDoc } from './html.js';

const LOGO = /logo/i;
const HEADER = /(?:^|[\s_-])(?:header|navbar|nav|masthead|topbar|site-brand|branding)(?:$|[\s_-])/i;
const HOME_LINKS = new Set(['/', './', 'index.html', '/index.html', '#', '#top']);

function ancestors(el: Element, depth: number): Element[] {
  const out: Element[] = [];
  for (let p = parentElement(el); p && out.length < depth; p = parentElement(p)) out.push(p);
  return out;
}

function named(el: Element, pattern: RegExp): boolean {
  return pattern.test(`${getAttr(el, 'class') ?? ''} ${getAttr(el, 'id') ?? ''}`);
}

function looksLikeLogo(img: Element): boolean {
  const own = ['src', 'alt', 'class', 'id', 'title'].map((a) => getAttr(img, a) ?? '').join(' ');
  return LOGO.test(own) || ancestors(img, 3).some((a) => named(a, LOGO));
}

function inHeader(img: Element): boolean {
  return ancestors(img, 12).some(
    (a) => tagOf(a) === 'header' || tagOf(a) === 'nav' || named(a, HEADER),
  );
}

function inHomeLink(img: Element): boolean {
  return ancestors(img, 3).some(
    (a) => tagOf(a) === 'a' && HOME_LINKS.has((getAttr(a, 'href') ?? '').trim()),
  );
}

/**
 * The site's logo on a page: images named "logo" (or inside something named so) in the header or
 * linking home; else the first image named "logo"; else the first image of the header. Other images
 * with the same address (the footer's copy of the logo) come along.
 */
export function findLogos(doc: HtmlDoc): Element[] {
  const imgs = doc.elements.filter((e) => tagOf(e) === 'img');
  const named = imgs.filter(looksLikeLogo);
  let chosen = named.filter((img) => inHeader(img) || inHomeLink(img));
  if (chosen.length === 0 && named[0]) chosen = [named[0]];
  if (chosen.length === 0) {
    const first = imgs.find((img) => inHeader(img) || inHomeLink(img));
    if (first) chosen = [first];
  }
  const srcs = new Set(chosen.map((img) => getAttr(img, 'src')).filter(Boolean));
  return imgs.filter((img) => chosen.includes(img) || srcs.has(getAttr(img, 'src')));
}

const BASE = 'http://copy.invalid';

/** Path (and query) of an address as seen from a page of the copy; other hosts keep their URL. */
export function copyPathOf(src: string, pagePath: string): string | undefined {
  try {
    const url = new URL(src.trim(), new URL(pagePath, BASE));
    return url.origin === BASE ? `${url.pathname}${url.search}` : url.href;
  } catch {
    return undefined;
  }
}

/** Whether an image's `src` on a page is `currentSrc` (as written, or the same file). */
export function srcMatches(src: string | undefined, currentSrc: string, pagePath: string): boolean {
  if (src === undefined) return false;
  if (src.trim() === currentSrc.trim()) return true;
  const a = copyPathOf(src, pagePath);
  return (
    a !== undefined && a === copyPathOf(currentSrc, currentSrc.startsWith('/') ? '/' : pagePath)
  );
}

const EXTENSIONS: Record<string, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/gif': 'gif',
  'image/webp': 'webp',
  'image/avif': 'avif',
  'image/svg+xml': 'svg',
  'image/x-icon': 'ico',
  'image/vnd.microsoft.icon': 'ico',
  'image/bmp': 'bmp',
};

/** Where an uploaded image lives in the copy. */
export function uploadPath(hash: string, contentType: string): string {
  const ext = EXTENSIONS[contentType.toLowerCase().split(';')[0]?.trim() ?? ''] ?? 'img';
  return `/_mirror/uploads/${hash}.${ext}`;
}
