import {
  childElements,
  collapseWhitespace,
  getAttr,
  isElement,
  isText,
  parentElement,
  parseHtml,
  tagOf,
  textOf,
} from './html.js';
import type { Element, HtmlDoc } from './html.js';
import { findLogos } from './images.js';
import { analyzeStyles, styleSourcesOfPage } from './palette.js';
import type { PaletteEntry, StyleSource } from './palette.js';
import type { ColorRole } from './types.js';

/**
 * A compact description of a page for an AI model and for resolving instructions ("the newsletter
 * section", "the primary colour"): texts with a selector each, headings, links, images, sections,
 * palette with guessed roles, fonts. Never the raw page; bounded in size.
 */
export interface PageOutline {
  path?: string;
  title?: string;
  description?: string;
  lang?: string;
  sections: OutlineSection[];
  headings: { level: number; text: string; selector: string }[];
  texts: { selector: string; text: string }[];
  links: { selector: string; text: string; href: string }[];
  images: { selector: string; src: string; alt?: string; logo?: true }[];
  palette: PaletteEntry[];
  roles: Partial<Record<ColorRole, string>>;
  fonts: { family: string; count: number }[];
  /** Lists were shortened to fit the size bound. */
  truncated?: true;
}

export interface OutlineSection {
  selector: string;
  tag: string;
  id?: string;
  classes?: string[];
  /** The first heading inside. */
  heading?: string;
}

export interface OutlineOptions {
  /** Copy path of the page (instructions resolved against it are limited to it when needed). */
  path?: string;
  /** The page's stylesheets, for the palette and fonts. */
  stylesheets?: readonly string[];
  /** Bound of the outline as JSON (default 8,000 characters). */
  maxBytes?: number;
}

const MAX_TEXT = 100;
const CAPS = { sections: 25, headings: 30, texts: 80, links: 40, images: 20, fonts: 6 };
const SECTION_TAGS = new Set([
  'header',
  'nav',
  'main',
  'section',
  'footer',
  'aside',
  'article',
  'form',
]);
const SKIP = new Set([
  'head',
  'script',
  'style',
  'template',
  'noscript',
  'svg',
  'iframe',
  'select',
]);
const PHRASING = new Set([
  'a',
  'abbr',
  'b',
  'br',
  'cite',
  'code',
  'em',
  'i',
  'mark',
  'q',
  's',
  'small',
  'span',
  'strong',
  'sub',
  'sup',
  'time',
  'u',
]);
const IDENT = /^-?[A-Za-z_][\w-]*$/;

function clip(text: string, max = MAX_TEXT): string {
  const t = collapseWhitespace(text);
  return t.length > max ? `${t.slice(0, max - 1)}…` : t;
}

function classesOf(el: Element): string[] {
  return (getAttr(el, 'class') ?? '').split(/\s+/).filter((c) => IDENT.test(c));
}

/**
 * Short selectors that find exactly one element: `#id`, a unique tag (`h1`, `footer`) or
 * `tag.class`, else a path of `tag:nth-of-type(n)` steps from the nearest such anchor.
 */
export function createSelectorBuilder(doc: HtmlDoc): (el: Element) => string {
  const counts = new Map<string, number>();
  const add = (key: string) => counts.set(key, (counts.get(key) ?? 0) + 1);
  for (const el of doc.elements) {
    const id = getAttr(el, 'id');
    if (id) add(`#${id}`);
    add(tagOf(el));
    for (const c of new Set(classesOf(el))) add(`${tagOf(el)}.${c}`);
  }
  const anchor = (el: Element): string | undefined => {
    const id = getAttr(el, 'id');
    if (id && IDENT.test(id) && counts.get(`#${id}`) === 1) return `#${id}`;
    const tag = tagOf(el);
    if (!IDENT.test(tag)) return undefined;
    if (counts.get(tag) === 1) return tag;
    const cls = classesOf(el).find((c) => counts.get(`${tag}.${c}`) === 1);
    return cls ? `${tag}.${cls}` : undefined;
  };
  const step = (el: Element): string => {
    const parent = el.parentNode;
    const tag = tagOf(el);
    const same =
      parent && 'childNodes' in parent
        ? parent.childNodes.filter((n) => isElement(n) && tagOf(n) === tag)
        : [el];
    return same.length > 1 ? `${tag}:nth-of-type(${same.indexOf(el) + 1})` : tag;
  };
  const cache = new Map<Element, string>();
  const build = (el: Element): string => {
    const cached = cache.get(el);
    if (cached) return cached;
    const a = anchor(el);
    const parent = parentElement(el);
    const selector = a ?? (parent ? `${build(parent)} > ${step(el)}` : step(el));
    cache.set(el, selector);
    return selector;
  };
  return build;
}

function isSkipped(el: Element): boolean {
  for (let p: Element | undefined = el; p; p = parentElement(p))
    if (SKIP.has(tagOf(p))) return true;
  return false;
}

function phrasingOnly(el: Element): boolean {
  return childElements(el).every((c) => PHRASING.has(tagOf(c)) && phrasingOnly(c));
}

function directText(el: Element): string {
  return collapseWhitespace(
    el.childNodes
      .filter(isText)
      .map((t) => t.value)
      .join(' '),
  );
}

/** Shortens the longest list until the outline fits. */
function fit(outline: PageOutline, maxBytes: number): PageOutline {
  const lists = ['texts', 'links', 'images', 'headings', 'sections', 'palette', 'fonts'] as const;
  while (JSON.stringify(outline).length > maxBytes) {
    const longest = lists.reduce((a, b) => (outline[a].length >= outline[b].length ? a : b));
    const list = outline[longest];
    if (list.length === 0) break;
    list.length = Math.floor(list.length * 0.75);
    outline.truncated = true;
  }
  return outline;
}

export function outlinePage(html: string, options: OutlineOptions = {}): PageOutline {
  const doc = parseHtml(html);
  const selectorOf = createSelectorBuilder(doc);
  const title = doc.elements.find((e) => tagOf(e) === 'title');
  const meta = doc.elements.find(
    (e) => tagOf(e) === 'meta' && (getAttr(e, 'name') ?? '').toLowerCase() === 'description',
  );
  const description = meta && getAttr(meta, 'content');
  const root = doc.elements.find((e) => tagOf(e) === 'html');
  const lang = root && getAttr(root, 'lang');
  const outline: PageOutline = {
    ...(options.path !== undefined && { path: options.path }),
    ...(title && textOf(title) && { title: clip(textOf(title), 200) }),
    ...(description && { description: clip(description, 300) }),
    ...(lang && { lang }),
    sections: [],
    headings: [],
    texts: [],
    links: [],
    images: [],
    palette: [],
    roles: {},
    fonts: [],
  };

  const logos = new Set(findLogos(doc));
  const recorded = new Set<Element>();
  const underRecorded = (el: Element) => {
    for (let p = parentElement(el); p; p = parentElement(p)) if (recorded.has(p)) return true;
    return false;
  };
  for (const el of doc.elements) {
    const tag = tagOf(el);
    if (isSkipped(el)) continue;
    if (SECTION_TAGS.has(tag) || (tag === 'div' && getAttr(el, 'id'))) {
      if (outline.sections.length < CAPS.sections) {
        const section: OutlineSection = { selector: selectorOf(el), tag };
        const id = getAttr(el, 'id');
        if (id) section.id = id;
        const classes = classesOf(el);
        if (classes.length > 0) section.classes = classes.slice(0, 6);
        const heading = findHeading(el);
        if (heading) section.heading = clip(textOf(heading), 80);
        outline.sections.push(section);
      }
    }
    if (tag === 'img') {
      const src = getAttr(el, 'src');
      if (src && outline.images.length < CAPS.images) {
        const image: PageOutline['images'][number] = {
          selector: selectorOf(el),
          src: clip(src, 300),
        };
        const alt = getAttr(el, 'alt');
        if (alt) image.alt = clip(alt, 100);
        if (logos.has(el)) image.logo = true;
        outline.images.push(image);
      }
      continue;
    }
    if (underRecorded(el)) continue;
    const heading = /^h([1-6])$/.exec(tag);
    if (heading) {
      recorded.add(el);
      const text = textOf(el);
      if (text && outline.headings.length < CAPS.headings) {
        outline.headings.push({
          level: Number(heading[1]),
          text: clip(text),
          selector: selectorOf(el),
        });
      }
      continue;
    }
    if (tag === 'a' && getAttr(el, 'href') !== undefined) {
      recorded.add(el);
      const img = el.childNodes.find((n) => isElement(n) && tagOf(n) === 'img');
      const alt = img && isElement(img) ? getAttr(img, 'alt') : undefined;
      const text = textOf(el) || getAttr(el, 'aria-label') || alt || '';
      if (outline.links.length < CAPS.links) {
        outline.links.push({
          selector: selectorOf(el),
          text: clip(text, 60),
          href: clip(getAttr(el, 'href') ?? '', 200),
        });
      }
      continue;
    }
    const own = directText(el);
    if (!own) continue;
    const whole = phrasingOnly(el);
    if (whole) recorded.add(el);
    if (outline.texts.length < CAPS.texts) {
      outline.texts.push({ selector: selectorOf(el), text: clip(whole ? textOf(el) : own) });
    }
  }

  const sources: StyleSource[] = (options.stylesheets ?? []).map((css) => ({
    css,
    mode: 'stylesheet',
  }));
  sources.push(...styleSourcesOfPage(doc));
  const styles = analyzeStyles(sources);
  outline.palette = styles.palette;
  outline.roles = styles.roles;
  outline.fonts = styles.fonts.slice(0, CAPS.fonts);
  return fit(outline, options.maxBytes ?? 8_000);
}

function findHeading(el: Element): Element | undefined {
  for (const child of childElements(el)) {
    if (/^h[1-6]$/.test(tagOf(child))) return child;
    const inner = findHeading(child);
    if (inner) return inner;
  }
  return undefined;
}
