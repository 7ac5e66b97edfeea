import { parse } from 'parse5';
import { normalizeLink } from './noise.js';

/**
 * What a change report compares of a page: what a visitor reads (text, in blocks), its head
 * (title, descriptions), where it links and which images it shows. Attributes other than those
 * addresses are not compared: nonces, hashes, CSRF tokens and build ids change on every request.
 */
export interface PageDigest {
  title: string;
  /** `description`, `keywords`, `og:title`, `og:description`: what search and sharing show. */
  meta: Record<string, string>;
  /** Text blocks in document order, each at its element path (`body/div.1/p.0`). */
  blocks: { path: string; text: string }[];
  links: string[];
  media: string[];
}

interface Node {
  nodeName: string;
  tagName?: string;
  value?: string;
  attrs?: { name: string; value: string }[];
  childNodes?: Node[];
  content?: Node;
}

/** Never read: code, styles, templates, frames and drawings. */
const SKIPPED = new Set([
  'script',
  'style',
  'noscript',
  'template',
  'svg',
  'math',
  'iframe',
  'object',
  'canvas',
  'head',
  'select',
  'marquee',
]);
/** Elements that end a block of text. */
const BLOCKS = new Set([
  'address',
  'article',
  'aside',
  'blockquote',
  'br',
  'button',
  'caption',
  'dd',
  'details',
  'dialog',
  'div',
  'dl',
  'dt',
  'fieldset',
  'figcaption',
  'figure',
  'footer',
  'form',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'header',
  'hr',
  'label',
  'legend',
  'li',
  'main',
  'nav',
  'ol',
  'option',
  'p',
  'pre',
  'section',
  'summary',
  'table',
  'td',
  'th',
  'tr',
  'ul',
]);
const META_NAMES = new Set(['description', 'keywords', 'og:title', 'og:description']);
/** Parts made to change on their own: carousels, tickers, live regions, countdowns. */
const ROTATING = /carousel|slider|slideshow|swiper|splide|glide|marquee|ticker|rotat|countdown/i;

const attr = (node: Node, name: string) => node.attrs?.find((a) => a.name === name)?.value;
const collapse = (text: string) => text.replace(/\s+/g, ' ').trim();

function isRotating(node: Node): boolean {
  const role = attr(node, 'role');
  if (role === 'marquee' || role === 'timer') return true;
  if (attr(node, 'aria-live') !== undefined) return true;
  return ROTATING.test(`${attr(node, 'class') ?? ''} ${attr(node, 'id') ?? ''}`);
}

function isHidden(node: Node): boolean {
  return attr(node, 'hidden') !== undefined || attr(node, 'aria-hidden') === 'true';
}

export function digestPage(html: string, pageUrl: string): PageDigest {
  const document = parse(html) as unknown as Node;
  const digest: PageDigest = { title: '', meta: {}, blocks: [], links: [], media: [] };
  let base = pageUrl;
  const links = new Set<string>();
  const media = new Set<string>();
  let text: string[] = [];
  let textPath = '';
  const flush = () => {
    const joined = collapse(text.join(''));
    if (joined) digest.blocks.push({ path: textPath, text: joined });
    text = [];
  };

  const visitHead = (node: Node) => {
    for (const child of node.childNodes ?? []) {
      const tag = child.tagName;
      if (tag === 'title' && !digest.title)
        digest.title = collapse((child.childNodes ?? []).map((c) => c.value ?? '').join(''));
      else if (tag === 'base' && attr(child, 'href')) {
        try {
          base = new URL(attr(child, 'href')!, pageUrl).href;
        } catch {
          // An unusable <base> is ignored, as browsers do.
        }
      } else if (tag === 'meta') {
        const name = (attr(child, 'name') ?? attr(child, 'property') ?? '').toLowerCase();
        const content = attr(child, 'content');
        if (META_NAMES.has(name) && content !== undefined) digest.meta[name] = collapse(content);
      }
      if (child.childNodes && tag !== 'title') visitHead(child);
    }
  };

  const visit = (node: Node, path: string) => {
    let index = 0;
    for (const child of node.childNodes ?? []) {
      if (child.nodeName === '#text') {
        if (!text.length) textPath = path;
        text.push(child.value ?? '');
        continue;
      }
      const tag = child.tagName;
      if (!tag) continue;
      if (tag === 'head') {
        visitHead(child);
        continue;
      }
      if (tag === 'title') {
        if (!digest.title)
          digest.title = collapse((child.childNodes ?? []).map((c) => c.value ?? '').join(''));
        continue;
      }
      if (tag === 'a' || tag === 'area') {
        const href = attr(child, 'href');
        const link = href === undefined ? null : normalizeLink(href, base);
        if (link) links.add(link);
      } else if (tag === 'img' || tag === 'video' || tag === 'source' || tag === 'audio') {
        const src = attr(child, 'src') ?? attr(child, 'poster');
        const url = src === undefined ? null : normalizeLink(src, base);
        if (url) media.add(url);
      }
      if (SKIPPED.has(tag) || isHidden(child) || isRotating(child)) {
        // A rotating part or a hidden one still ends the block around it.
        if (BLOCKS.has(tag) || isRotating(child)) flush();
        continue;
      }
      const childPath = `${path}/${tag}.${index++}`;
      if (BLOCKS.has(tag)) {
        flush();
        visit(child, childPath);
        flush();
      } else visit(child, childPath);
    }
  };
  visit(document, '');
  flush();
  digest.links = [...links];
  digest.media = [...media];
  return digest;
}
