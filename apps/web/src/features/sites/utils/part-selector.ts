import { PART_PICKER_SCRIPT, PART_TEXT_CHARS, WATCH_LIMITS } from '@mirror/contract';

/**
 * The part picker of a watch (issue 33): which CSS selector names an element of a page, and its
 * text, as the server's selector language reads them (`packages/customize/src/selector.ts`: type,
 * #id, .class, `>` and descendant combinators, `:nth-of-type()`; never `:hover` or
 * pseudo-elements). The same algorithm runs inside the page's frame as `PART_PICKER_SCRIPT` (the
 * contract's, allowed by its hash in the app's CSP); `part-selector.test.ts` runs both on the same
 * pages and expects the same answers.
 *
 * A selector is the element's `#id` when it is unique and looks stable, else the shortest chain of
 * `tag.class` steps (with `:nth-of-type(n)` where needed) from the nearest ancestor with such an
 * id, or from `body`, that matches exactly that element. Generated class names (`css-1x2y3z`,
 * `sc-abcdEF`, `Button_root__3xKfa`) are skipped: the next build of the site renames them.
 */

const HIDDEN = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE']);
/** Names used as they are, without escaping. */
const IDENT = /^-?[A-Za-z_][A-Za-z0-9_-]*$/;

/** A class name or id a build tool made up, which the next build of the site changes. */
export function looksGenerated(name: string): boolean {
  if (name.length > 40) return true;
  if (/^(?:css|sc|jsx|emotion|styled|svelte|astro)-/i.test(name)) return true;
  // A word mixing letters and digits (`3xKfa`, `1x2y3z`) is a hash.
  if (name.split(/[-_]+/).some((p) => p.length >= 5 && /[0-9]/.test(p) && /[A-Za-z]/.test(p)))
    return true;
  return (name.match(/[0-9]/g) ?? []).length >= 3 && name.length >= 8;
}

function uniqueId(el: Element): string | null {
  const id = el.getAttribute('id');
  if (!id || !IDENT.test(id) || looksGenerated(id)) return null;
  return el.ownerDocument.querySelectorAll(`#${id}`).length === 1 ? `#${id}` : null;
}

function stepOf(el: Element, nth: boolean): string {
  let step = el.localName;
  const classes = (el.getAttribute('class') ?? '')
    .split(/\s+/)
    .filter((c) => c && IDENT.test(c) && !looksGenerated(c))
    .slice(0, 2);
  for (const c of classes) step += `.${c}`;
  const parent = el.parentElement;
  if (nth && parent) {
    const same = Array.from(parent.children).filter((kid) => kid.localName === el.localName);
    if (same.length > 1) step += `:nth-of-type(${same.indexOf(el) + 1})`;
  }
  return step;
}

function matchesOnly(doc: Document, selector: string, el: Element): boolean {
  try {
    const found = doc.querySelectorAll(selector);
    return found.length === 1 && found[0] === el;
  } catch {
    return false;
  }
}

/** The shortest selector that names exactly `el` in its document. */
export function partSelector(el: Element): string {
  const doc = el.ownerDocument;
  if (el === doc.body || el === doc.documentElement) return 'body';
  const own = uniqueId(el);
  if (own) return own;
  const chain: Element[] = [];
  let anchor = 'body';
  for (let node: Element | null = el; node && node !== doc.body && node !== doc.documentElement;) {
    chain.unshift(node);
    const parent: Element | null = node.parentElement;
    const id = parent && parent !== doc.body ? uniqueId(parent) : null;
    if (id) {
      anchor = id;
      break;
    }
    node = parent;
  }
  for (let k = 1; k <= chain.length; k++) {
    const tail = chain.slice(chain.length - k);
    const joint = k === chain.length ? ' > ' : ' ';
    for (const nth of [false, true]) {
      const selector = anchor + joint + tail.map((step) => stepOf(step, nth)).join(' > ');
      if (matchesOnly(doc, selector, el)) return selector;
    }
  }
  // Unreachable for an element of the document; its bare path all the same.
  return `${anchor} > ${chain.map((step) => stepOf(step, true).replace(/\.[^.:]+/g, '')).join(' > ')}`;
}

/** The element's text as read: whitespace collapsed, scripts and styles left out, shortened. */
export function partText(el: Element): string {
  const out: string[] = [];
  const walk = (node: Node) => {
    for (let c = node.firstChild; c; c = c.nextSibling) {
      if (c.nodeType === 3) out.push(c.nodeValue ?? '');
      else if (c.nodeType === 1 && !HIDDEN.has(c.nodeName.toUpperCase())) walk(c);
    }
  };
  walk(el);
  return out.join(' ').replace(/\s+/g, ' ').trim().slice(0, PART_TEXT_CHARS);
}

/** A pick the app takes from the page's frame: its shape, within the watch's limits. */
export interface PartPick {
  selector: string;
  text: string;
}

export function pickOf(data: unknown): PartPick | null {
  if (typeof data !== 'object' || data === null) return null;
  const { type, selector, text } = data as Record<string, unknown>;
  if (type !== 'mirror-pick' || typeof selector !== 'string' || typeof text !== 'string')
    return null;
  if (!selector.trim() || selector.length > WATCH_LIMITS.selectorChars) return null;
  if (text.length > WATCH_LIMITS.fallbackChars) return null;
  return { selector: selector.trim(), text: text.trim() };
}

/** Elements offered to people who cannot point: headings, paragraphs, list items, cells, prices. */
const LISTED = 'h1, h2, h3, h4, h5, h6, p, li, td, [class*="price"]';
export const LISTED_PARTS = 50;

export function listedParts(doc: Document): PartPick[] {
  const parts: PartPick[] = [];
  for (const el of Array.from(doc.body?.querySelectorAll(LISTED) ?? [])) {
    const text = partText(el);
    if (!text) continue;
    parts.push({ selector: partSelector(el), text });
    if (parts.length >= LISTED_PARTS) break;
  }
  return parts;
}

/** Attributes whose URL a page's references are made absolute in. */
const URL_ATTRIBUTES = ['href', 'src', 'poster', 'action', 'data', 'background'];

/**
 * The page the frame shows: the hosted HTML without its scripts (only looked at), inline event
 * handlers, refreshes, frames and `<base>`, its references made absolute on the sites host (a
 * `<base>` would break the app's CSP, `base-uri 'self'`, which the frame keeps), and our picker
 * script; with the
 * parts listed for people who cannot point (selectors as the frame's script computes them: the
 * body is the same).
 */
export function pickerDocument(html: string, url: string): { srcdoc: string; parts: PartPick[] } {
  const doc = new DOMParser().parseFromString(html, 'text/html');
  for (const el of Array.from(
    doc.querySelectorAll(
      'script, base, iframe, frame, object, embed, meta[http-equiv], link[rel~="modulepreload"], link[as="script"]',
    ),
  ))
    el.remove();
  for (const el of Array.from(doc.querySelectorAll('*'))) {
    for (const attr of Array.from(el.attributes)) {
      const name = attr.name.toLowerCase();
      if (name.startsWith('on')) el.removeAttribute(attr.name);
      else if (URL_ATTRIBUTES.includes(name)) {
        if (/^\s*javascript:/i.test(attr.value)) el.removeAttribute(attr.name);
        else el.setAttribute(attr.name, absolute(attr.value, url));
      } else if (name === 'srcset' || name === 'imagesrcset') {
        el.setAttribute(attr.name, absoluteSrcset(attr.value, url));
      } else if (name === 'style') {
        el.setAttribute(attr.name, absoluteCss(attr.value, url));
      }
    }
  }
  for (const style of Array.from(doc.querySelectorAll('style')))
    style.textContent = absoluteCss(style.textContent, url);
  const parts = listedParts(doc);
  const script = doc.createElement('script');
  script.textContent = PART_PICKER_SCRIPT;
  doc.head.append(script);
  return { srcdoc: `<!doctype html>${doc.documentElement.outerHTML}`, parts };
}

function absoluteCss(css: string, base: string): string {
  return css.replace(
    /url\(\s*(['"]?)([^'")]+)\1\s*\)/g,
    (_, quote: string, value: string) => `url(${quote}${absolute(value, base)}${quote})`,
  );
}

function absolute(value: string, base: string): string {
  if (value.trim().startsWith('#')) return value;
  try {
    return new URL(value, base).href;
  } catch {
    return value;
  }
}

function absoluteSrcset(value: string, base: string): string {
  return value
    .split(',')
    .map((candidate) => {
      const [src, ...rest] = candidate.trim().split(/\s+/);
      return src ? [absolute(src, base), ...rest].join(' ') : '';
    })
    .filter(Boolean)
    .join(', ');
}
