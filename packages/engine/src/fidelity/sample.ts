/**
 * Which pages the fidelity check looks at: every page of a small site; of a larger one the entry
 * page, one page of each page template (largest templates first) and then the pages most linked
 * to. Pure: pages come in as HTML text, the manifest helper reads them from the store.
 *
 * A page's template is a structural signature of its body: the set of paths, from `<body>` down to
 * four levels, of its structural elements (sections, containers, lists, tables, forms, headings,
 * media), each written as tag plus class names without digits (`body.single-post>main.content>
 * article.post>h1`). A set, so ten cards or three are one template; class names without digits,
 * so `post-123` and `page-id-7` do not make a template of each page; no text and no attributes
 * but `class`, so pages of one layout agree whatever they say. It is computed from the copy's
 * HTML, which for a page built by JavaScript is the rendered DOM.
 */
import { createHash } from 'node:crypto';
import { HtmlScanner, Token } from '../references/html-scan.js';
import { readRawText } from '../references/html.js';
import { readBlob } from '../storage/blob-utils.js';
import type { BlobStore, Manifest } from '../types.js';
import type { FidelityPageRef } from './types.js';

export interface SampleCandidate {
  path: string;
  /** The structural signature (a digest), see above. */
  template: string;
  /** Paths (with query) of the copy this page links to, each once. */
  links: string[];
}

export interface SampledPage extends FidelityPageRef {
  template: string;
  /** Distinct pages of the site linking to it. */
  inboundLinks: number;
  /** `all`: the site is small enough to check every page. */
  why: 'all' | 'entry' | 'template' | 'most-linked';
}

/** Elements that hold others and always need their end tag: the skeleton's inner nodes. */
const CONTAINERS = new Set([
  'header',
  'nav',
  'main',
  'footer',
  'aside',
  'section',
  'article',
  'div',
  'form',
  'table',
  'ul',
  'ol',
  'dl',
  'figure',
  'details',
]);
/** Leaves worth telling templates apart by. */
const LEAVES = new Set(['h1', 'h2', 'h3', 'img', 'video', 'canvas', 'iframe', 'picture', 'svg']);
const MAX_DEPTH = 4;
const COPY_ORIGIN = 'http://copy.invalid';

function describe(name: string, classAttr: string | undefined): string {
  const classes = (classAttr ?? '')
    .split(/\s+/)
    .filter((c) => c !== '' && !/\d/.test(c))
    .sort();
  return classes.length === 0 ? name : `${name}.${[...new Set(classes)].join('.')}`;
}

/** The template and the links of one page of the copy. */
export function sampleCandidate(path: string, html: string): SampleCandidate {
  const scanner = new HtmlScanner(html);
  const paths = new Set<string>();
  const links = new Set<string>();
  let base = new URL(path, COPY_ORIGIN);
  const pageUrl = base.href;
  /** Open containers under body, as their path strings; null until `<body>`. */
  let stack: { name: string; path: string }[] | null = null;
  let bodyPath = 'body';
  for (;;) {
    const token = scanner.next();
    if (token === Token.End) break;
    if (token === Token.EndTag) {
      if (stack === null) continue;
      const at = stack.map((s) => s.name).lastIndexOf(scanner.name);
      if (at !== -1) stack.length = at;
      continue;
    }
    if (token !== Token.StartTag) continue;
    const name = scanner.name;
    const attr = (wanted: string) => scanner.attrs.find((a) => a.name === wanted)?.value;
    if (name === 'base' && stack === null) {
      const href = attr('href');
      if (href !== undefined) {
        try {
          base = new URL(href, base);
        } catch {
          // An unreadable <base> is ignored, as browsers do.
        }
      }
    } else if (name === 'body' && stack === null) {
      bodyPath = describe('body', attr('class'));
      stack = [];
      paths.add(bodyPath);
    } else if (name === 'a' || name === 'area') {
      const href = attr('href');
      if (href !== undefined) {
        try {
          const url = new URL(href.trim(), base);
          if (url.origin === COPY_ORIGIN) {
            const target = `${url.pathname}${url.search}`;
            if (url.href.split('#')[0] !== pageUrl) links.add(target);
          }
        } catch {
          // Not a URL: not a link.
        }
      }
    }
    const structural = CONTAINERS.has(name) || LEAVES.has(name);
    // `<body>` may be left out: the first structural element opens it.
    if (stack === null && structural) {
      stack = [];
      paths.add(bodyPath);
    }
    if (stack !== null && structural) {
      const parent = stack.length === 0 ? bodyPath : stack[stack.length - 1]!.path;
      const own = `${parent}>${describe(name, attr('class'))}`;
      if (stack.length < MAX_DEPTH) paths.add(own);
      if (CONTAINERS.has(name) && !scanner.selfClosing) stack.push({ name, path: own });
    }
    readRawText(scanner, name);
  }
  const template = createHash('sha256')
    .update([...paths].sort().join('\n'))
    .digest('hex')
    .slice(0, 16);
  return { path, template, links: [...links] };
}

/**
 * The sample: every page when there are at most `maxPages`; else the entry page, then the most
 * linked page of each template (templates with more pages first, then those whose best page is
 * more linked), then the most linked pages left, up to `maxPages`. Ties keep the given order (the
 * crawl's, breadth first). Inbound links count distinct linking pages of the site.
 */
export function selectSample(
  pages: readonly SampleCandidate[],
  options: { maxPages: number; entryPath?: string },
): Omit<SampledPage, 'url'>[] {
  const known = new Set(pages.map((p) => p.path));
  const inbound = new Map<string, number>();
  for (const page of pages) {
    for (const target of page.links) {
      if (target !== page.path && known.has(target))
        inbound.set(target, (inbound.get(target) ?? 0) + 1);
    }
  }
  const linksTo = (path: string) => inbound.get(path) ?? 0;
  const describePick = (page: SampleCandidate, why: SampledPage['why']) => ({
    path: page.path,
    template: page.template,
    inboundLinks: linksTo(page.path),
    why,
  });
  if (pages.length <= options.maxPages) return pages.map((p) => describePick(p, 'all'));

  const order = new Map(pages.map((p, i) => [p.path, i]));
  const byLinks = [...pages].sort(
    (a, b) => linksTo(b.path) - linksTo(a.path) || order.get(a.path)! - order.get(b.path)!,
  );
  const chosen: Omit<SampledPage, 'url'>[] = [];
  const taken = new Set<string>();
  const take = (page: SampleCandidate, why: SampledPage['why']) => {
    if (chosen.length >= options.maxPages || taken.has(page.path)) return;
    taken.add(page.path);
    chosen.push(describePick(page, why));
  };
  const entry = pages.find((p) => p.path === options.entryPath);
  if (entry) take(entry, 'entry');

  // byLinks is sorted, so each template's first page in it is its most linked one.
  const templates = new Map<string, { best: SampleCandidate; size: number; first: number }>();
  byLinks.forEach((page, rank) => {
    const seen = templates.get(page.template);
    if (seen) seen.size++;
    else templates.set(page.template, { best: page, size: 1, first: rank });
  });
  const covered = new Set(chosen.map((c) => c.template));
  const ranked = [...templates.entries()]
    .filter(([template]) => !covered.has(template))
    .sort(([, a], [, b]) => b.size - a.size || a.first - b.first);
  for (const [, { best }] of ranked) take(best, 'template');
  for (const page of byLinks) take(page, 'most-linked');
  return chosen;
}

/** Page entries of a manifest that a visitor can load: HTML answered with 200. */
function isCheckablePage(entry: Manifest['entries'][number]): boolean {
  return (
    entry.kind === 'page' &&
    entry.status === 200 &&
    /^(text\/html|application\/xhtml\+xml)/i.test(entry.contentType)
  );
}

/** Outlines of every page of a manifest, read from the store one at a time. */
export async function sampleCandidates(
  manifest: Manifest,
  store: BlobStore,
): Promise<SampleCandidate[]> {
  const outlines: SampleCandidate[] = [];
  for (const entry of manifest.entries) {
    if (!isCheckablePage(entry)) continue;
    const html = (await readBlob(store, entry.hash)).toString('utf8');
    outlines.push(sampleCandidate(entry.path, html));
  }
  return outlines;
}

/** The sample of a mirrored site, with each page's original address from the manifest. */
export async function sampleManifest(
  manifest: Manifest,
  store: BlobStore,
  options: { maxPages: number },
): Promise<SampledPage[]> {
  const urls = new Map(manifest.entries.map((e) => [e.path, e.url]));
  const picked = selectSample(await sampleCandidates(manifest, store), {
    maxPages: options.maxPages,
    entryPath: manifest.entryPath,
  });
  return picked.map((p) => ({ ...p, url: urls.get(p.path)! }));
}
