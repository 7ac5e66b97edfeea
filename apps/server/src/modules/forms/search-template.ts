/**
 * A site search answered in the site's own results template (issue 34, item 5; docs/forms.md,
 * "Site search"): when the crawl captured a results page of the site's search (`/search?q=foo`,
 * WordPress's `/?s=bar`), that page is the template. Its layout (head, header, footer, styles)
 * stays byte for byte; its list of results is found, and replaced with ours, each hit written in
 * the markup of its first result (the title's link and a snippet, nothing of the old result's
 * date, picture or author). A page whose list is not found with confidence is no template: the
 * host's clean page answers instead.
 */
import { escapeUTF8 } from 'entities';
import { parseHtml, VOID_ELEMENTS } from '@mirror/customize';

/** Bounds of what is read as a template: a hostile or huge page is no template. */
export const SEARCH_TEMPLATE_LIMITS = {
  bytes: 1024 * 1024,
  elements: 30_000,
  /** Elements of one result item, and how deep it nests. */
  itemElements: 400,
  itemDepth: 60,
} as const;

type Doc = ReturnType<typeof parseHtml>;
type El = Doc['elements'][number];
type Loc = { startOffset: number; endOffset: number };
interface ElLoc extends Loc {
  startTag?: Loc;
  endTag?: Loc;
  attrs?: Record<string, Loc>;
}
interface AnyNode {
  nodeName: string;
  value?: string;
  childNodes?: AnyNode[];
  parentNode?: AnyNode | null;
  sourceCodeLocation?: Loc | null;
}

/** One hit, as the host's index found it. */
export interface SearchHit {
  href: string;
  title: string;
  /** HTML, escaped already (the words found marked). */
  snippet: string;
}

/** A captured results page read as a template; `render` never throws. */
export interface SearchTemplate {
  render(term: string, hits: readonly SearchHit[], none: string): string;
}

/** Parts of a page that hold menus and widgets, never the results. */
const CHROME_TAGS = new Set(['nav', 'header', 'footer', 'aside', 'form', 'select', 'head']);
const CHROME_CLASS =
  /(?:^|[\s_-])(?:menu|nav|navbar|navigation|breadcrumbs?|pagination|pager|footer|header|sidebar|widget|toolbar|tags?|cloud|social|share)(?:$|[\s_-])/i;
const ITEM_CLASS =
  /(?:^|[\s_-])(?:search[-_]?result|result|hit|post|entry|article|item)s?(?:$|[\s_-])/i;
const CONTAINER_CLASS = /search|result|hits|posts|entries|archive|main|content/i;
const SNIPPET_CLASS = /excerpt|summary|snippet|description|entry-content|desc|teaser|abstract/i;
const HEADINGS = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6']);
/** What may stand between two results of one list. */
const BETWEEN = new Set(['hr', 'br', 'script', 'template', 'noscript']);
/** Attributes a copied item must not repeat (ids) or point at (labels of ids). */
const DROPPED_ATTRS = new Set(['id', 'aria-labelledby', 'aria-describedby', 'for']);

const loc = (el: El) => (el as unknown as { sourceCodeLocation?: ElLoc | null }).sourceCodeLocation;
const kids = (el: El): El[] => el.childNodes.filter(isEl);
const attr = (el: El, name: string) => el.attrs.find((a) => a.name === name)?.value;
const classes = (el: El) => (attr(el, 'class') ?? '').split(/\s+/).filter(Boolean);

function isEl(node: unknown): node is El {
  return typeof (node as El).tagName === 'string';
}

function textOf(node: AnyNode, budget = 5_000): string {
  let out = '';
  const stack: AnyNode[] = [node];
  while (stack.length > 0 && out.length < budget) {
    const n = stack.pop()!;
    if (n.nodeName === '#text') out += n.value ?? '';
    else if (n.nodeName !== 'script' && n.nodeName !== 'style' && n.childNodes)
      for (let i = n.childNodes.length - 1; i >= 0; i--) stack.push(n.childNodes[i]!);
  }
  return out.replace(/\s+/g, ' ').trim();
}

/** Every element under `root` (itself first), in document order; undefined past `max`. */
function descendants(root: El, max: number): El[] | undefined {
  const out: El[] = [];
  const stack: El[] = [root];
  while (stack.length > 0) {
    const el = stack.pop()!;
    out.push(el);
    if (out.length > max) return undefined;
    const children = kids(el);
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]!);
  }
  return out;
}

function inChrome(el: El): boolean {
  for (let n: AnyNode | null | undefined = el; n && isEl(n); n = n.parentNode) {
    if (
      CHROME_TAGS.has(n.tagName) ||
      n.attrs.some((a) => a.name === 'role' && /navigation|banner|contentinfo|menu/.test(a.value))
    )
      return true;
    if (
      n !== el &&
      CHROME_CLASS.test(attr(n, 'class') ?? '') &&
      !CONTAINER_CLASS.test(attr(n, 'class') ?? '')
    )
      return true;
  }
  return false;
}

/** A link to a page (not an anchor of this page, a script or a mail). */
function pageLinkOf(item: El, all: El[]): El | undefined {
  const links = all.filter((el) => {
    if (el.tagName !== 'a') return false;
    const href = attr(el, 'href')?.trim() ?? '';
    return href !== '' && !/^(?:#|javascript:|mailto:|tel:)/i.test(href) && textOf(el) !== '';
  });
  const headed = links.find((a) => {
    for (let n: AnyNode | null | undefined = a; n && n !== item.parentNode; n = n.parentNode)
      if (isEl(n) && HEADINGS.has(n.tagName)) return true;
    return false;
  });
  return headed ?? links[0];
}

/**
 * What makes siblings the same kind of item: their tag and first class without a number
 * (WordPress writes `post-12 post type-post has-post-thumbnail`: `article.post`).
 */
function signatureOf(el: El): string {
  return `${el.tagName}.${classes(el).find((c) => !/\d/.test(c)) ?? ''}`;
}

interface Region {
  items: El[];
}

/**
 * The results of a captured results page: the repeated siblings, each with a link to a page and
 * some words, outside menus and widgets, scored by how many there are and how much they look like
 * results (`article`, `.post`, `li.result`, a container named for them). One result is taken only
 * when it looks like one by its name and sits in the page's main part.
 */
function findRegion(doc: Doc): Region | undefined {
  let best: { items: El[]; score: number } | undefined;
  for (const parent of doc.elements) {
    const children = kids(parent);
    if (children.length === 0) continue;
    const groups = new Map<string, El[]>();
    for (const child of children) {
      const key = signatureOf(child);
      groups.set(key, [...(groups.get(key) ?? []), child]);
    }
    for (const [key, group] of groups) {
      const strong =
        group[0]!.tagName === 'article' || ITEM_CLASS.test(attr(group[0]!, 'class') ?? '');
      const named = CONTAINER_CLASS.test(
        `${attr(parent, 'class') ?? ''} ${attr(parent, 'id') ?? ''}`,
      );
      if (group.length < 2 && !(strong && (named || parent.tagName === 'main'))) continue;
      if (key.startsWith('script.') || key.startsWith('style.') || inChrome(parent)) continue;
      // One list: nothing else between its items (titles and excerpts written as loose siblings
      // of their links are no items to repeat).
      const from = children.indexOf(group[0]!);
      const to = children.indexOf(group[group.length - 1]!);
      if (children.slice(from, to + 1).some((c) => !group.includes(c) && !BETWEEN.has(c.tagName)))
        continue;
      let linked = 0;
      let words = 0;
      for (const item of group) {
        const all = descendants(item, SEARCH_TEMPLATE_LIMITS.itemElements);
        if (all && pageLinkOf(item, all)) linked++;
        words += textOf(item, 400).length;
      }
      // Every item links to a page and says something: a menu's links say a word or two.
      if (linked < group.length || words / group.length < 25) continue;
      const score =
        group.length * 10 +
        (strong ? 15 : 0) +
        (named ? 10 : 0) +
        (group[0]!.tagName === 'li' || group[0]!.tagName === 'article' ? 5 : 0);
      if (!best || score > best.score) best = { items: group, score };
    }
  }
  return best ? { items: best.items } : undefined;
}

function startTag(el: El, change: Record<string, string> = {}): string {
  const attrs = el.attrs
    .filter((a) => !DROPPED_ATTRS.has(a.name))
    .map((a) => {
      const value = change[a.name] ?? a.value;
      return ` ${a.name}="${escapeUTF8(value).replace(/"/g, '&quot;')}"`;
    })
    .join('');
  return `<${el.tagName}${attrs}>`;
}

/**
 * One item's markup made a pattern: its link to a page (in its heading if it has one) and the
 * element with most of its words (its snippet), with the elements that hold them; the rest (the
 * old result's date, picture, author, tags) is left out. Undefined when it has no such link.
 */
function patternOf(item: El): ((hit: SearchHit) => string) | undefined {
  const all = descendants(item, SEARCH_TEMPLATE_LIMITS.itemElements);
  if (!all) return undefined;
  const link = pageLinkOf(item, all);
  if (!link) return undefined;
  const inLink = new Set(descendants(link, SEARCH_TEMPLATE_LIMITS.itemElements) ?? []);
  const heading = all.find(
    (el) => HEADINGS.has(el.tagName) && (descendants(el, 400) ?? []).includes(link),
  );
  const underHeading = new Set(heading ? (descendants(heading, 400) ?? []) : []);
  const excerpt = all
    .filter(
      (el) =>
        el !== item &&
        !inLink.has(el) &&
        !underHeading.has(el) &&
        !(descendants(el, 400) ?? []).includes(link) &&
        /^(?:p|div|span|section|blockquote|dd|td)$/.test(el.tagName),
    )
    .map((el) => ({
      el,
      score: textOf(el, 2_000).length + (SNIPPET_CLASS.test(attr(el, 'class') ?? '') ? 500 : 0),
    }))
    .filter((c) => c.score >= 20)
    .sort((a, b) => b.score - a.score)[0]?.el;
  // The words' own element: a `div.entry-content` whose one paragraph holds its words.
  let snippet = excerpt;
  for (let depth = 0; snippet && depth < 10; depth++) {
    const only = kids(snippet);
    const inner = only.length === 1 ? only[0]! : undefined;
    if (!inner || !/^(?:p|div|span)$/.test(inner.tagName)) break;
    if (textOf(inner, 2_000).length < textOf(snippet, 2_000).length * 0.9) break;
    snippet = inner;
  }
  const keep = new Set<El>();
  for (const target of [link, snippet])
    for (let n: AnyNode | null | undefined = target; n && isEl(n); n = n.parentNode) {
      keep.add(n);
      if (n === item) break;
    }
  const depthOk = (el: El) => {
    let depth = 0;
    for (let n: AnyNode | null | undefined = el; n && n !== item; n = n.parentNode) depth++;
    return depth <= SEARCH_TEMPLATE_LIMITS.itemDepth;
  };
  if (!depthOk(link) || (snippet && !depthOk(snippet))) return undefined;

  return (hit) => {
    const write = (el: El): string => {
      if (el === link) {
        const change: Record<string, string> = { href: hit.href };
        if (attr(el, 'title') !== undefined) change['title'] = hit.title;
        return `${startTag(el, change)}${escapeUTF8(hit.title)}</a>`;
      }
      if (el === snippet) return `${startTag(el)}${hit.snippet}</${el.tagName}>`;
      if (VOID_ELEMENTS.has(el.tagName)) return startTag(el);
      const inner = kids(el)
        .filter((child) => keep.has(child))
        .map(write)
        .join('');
      return `${startTag(el)}${inner}</${el.tagName}>`;
    };
    return write(item);
  };
}

const SEARCH_NAME = /search|term|query|keyword|result/i;

function saysTheSearch(el: El): boolean {
  let depth = 0;
  for (
    let n: AnyNode | null | undefined = el;
    n && isEl(n) && depth < 4;
    n = n.parentNode, depth++
  ) {
    if (n.tagName === 'title' || n.tagName === 'h1' || n.tagName === 'h2') return true;
    if (
      SEARCH_NAME.test(`${attr(n, 'class') ?? ''} ${attr(n, 'id') ?? ''}`) &&
      n.tagName !== 'body'
    )
      return true;
  }
  return false;
}

/** Where the old search's words stand in the page outside the results (a heading, the box). */
function termEdits(
  doc: Doc,
  field: string,
  oldTerm: string,
  outside: (offset: number) => boolean,
): { start: number; end: number; kind: 'text' | 'value' }[] {
  const edits: { start: number; end: number; kind: 'text' | 'value' }[] = [];
  if (oldTerm.length < 2) return edits;
  for (const el of doc.elements) {
    const where = loc(el);
    if (!where || !outside(where.startOffset)) continue;
    if (el.tagName === 'input' && attr(el, 'name') === field && attr(el, 'value') !== undefined) {
      const span = where.attrs?.['value'];
      if (span) edits.push({ start: span.startOffset, end: span.endOffset, kind: 'value' });
      continue;
    }
    if (el.tagName === 'script' || el.tagName === 'style' || el.tagName === 'textarea') continue;
    // Where a page says what was searched: its title, a heading, something named for the search.
    if (!saysTheSearch(el)) continue;
    for (const node of el.childNodes as AnyNode[]) {
      if (node.nodeName !== '#text' || !node.sourceCodeLocation) continue;
      const { startOffset, endOffset } = node.sourceCodeLocation;
      const raw = doc.html.slice(startOffset, endOffset);
      // The words as written in the page's source (entities aside: a plain term matches plainly).
      let from = 0;
      for (;;) {
        const at = raw.indexOf(oldTerm, from);
        if (at === -1) break;
        edits.push({
          start: startOffset + at,
          end: startOffset + at + oldTerm.length,
          kind: 'text',
        });
        from = at + oldTerm.length;
      }
    }
  }
  return edits;
}

/**
 * The captured results page `html` (the results of `oldTerm` in the search box named `field`) as
 * a template, or undefined when it is too large or its results are not found with confidence.
 */
export function searchTemplateOf(
  html: string,
  field: string,
  oldTerm: string,
): SearchTemplate | undefined {
  if (html.length > SEARCH_TEMPLATE_LIMITS.bytes) return undefined;
  let doc: Doc;
  try {
    doc = parseHtml(html);
  } catch {
    return undefined;
  }
  if (doc.elements.length > SEARCH_TEMPLATE_LIMITS.elements) return undefined;
  const region = findRegion(doc);
  if (!region) return undefined;
  const first = loc(region.items[0]!);
  const last = loc(region.items[region.items.length - 1]!);
  if (!first || !last) return undefined;
  const start = first.startOffset;
  const end = last.endOffset;
  const pattern = patternOf(region.items[0]!);
  if (!pattern) return undefined;
  const edits = termEdits(doc, field, oldTerm, (offset) => offset < start || offset >= end);
  return {
    render(term, hits, none) {
      const items =
        hits.length === 0
          ? `<p class="mirror-search-none">${escapeUTF8(none)}</p>`
          : hits.map(pattern).join('\n');
      const spliced = [...edits, { start, end, kind: 'region' as const }].sort(
        (a, b) => b.start - a.start,
      );
      let out = html;
      for (const edit of spliced) {
        const replacement =
          edit.kind === 'region'
            ? items
            : edit.kind === 'value'
              ? `value="${escapeUTF8(term).replace(/"/g, '&quot;')}"`
              : escapeUTF8(term);
        out = out.slice(0, edit.start) + replacement + out.slice(edit.end);
      }
      return out;
    },
  };
}
