import { collapseWhitespace, parentElement, parseHtml, textOf } from './html.js';
import type { Element, HtmlDoc } from './html.js';
import { uploadPath } from './images.js';
import { analyzeStyles, styleSourcesOfPage } from './palette.js';
import type { StyleAnalysis, StyleSource } from './palette.js';
import { selectAll, selectorHints } from './selector.js';
import { spliceEdits } from './splice.js';
import type { Edit } from './splice.js';
import type { PlanAsset, SiteDocument, UploadedImage } from './types.js';

/** A document of the version while the plan runs: its current text and, for pages, its tree. */
export interface DocState {
  path: string;
  contentType: string;
  kind: 'html' | 'css';
  original: string;
  text: string;
  parsed?: HtmlDoc;
  lower?: { text: string; lower: string };
}

/** What one op did, filled in by its handler. */
export interface Outcome {
  matches: number;
  documents: Set<string>;
  changed: Set<string>;
  notes: string[];
  /** Extra words for the summary (the colour a role resolved to…). */
  detail?: string;
}

/** A plan error: the op is reported with this message and changes nothing. */
export class OpError extends Error {
  override name = 'OpError';
}

export function newOutcome(): Outcome {
  return { matches: 0, documents: new Set(), changed: new Set(), notes: [] };
}

function kindOf(contentType: string): DocState['kind'] | undefined {
  const type = contentType.toLowerCase();
  if (type.includes('html')) return 'html';
  if (type.includes('css')) return 'css';
  return undefined;
}

/**
 * `/about`, `/about/` and `/about/index.html` are one page. A query names another page of the
 * copy (`/?page=2` is the blog's second page, not its home page), so it is kept.
 */
function normalizePath(path: string): string {
  const hash = path.indexOf('#');
  const whole = hash === -1 ? path : path.slice(0, hash);
  const query = whole.indexOf('?');
  const base = query === -1 ? whole : whole.slice(0, query);
  const p = base.replace(/\/index\.html?$/i, '/');
  return (p.length > 1 ? p.replace(/\/+$/, '') : p) + (query === -1 ? '' : whole.slice(query));
}

function pathMatches(path: string, pattern: string): boolean {
  if (!pattern.includes('*')) {
    return path === pattern || normalizePath(path) === normalizePath(pattern);
  }
  const re = new RegExp(
    `^${pattern
      .split('*')
      .map((s) => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*')}$`,
  );
  return re.test(path);
}

export class PlanContext {
  readonly docs: DocState[] = [];
  readonly assets = new Map<string, PlanAsset>();

  constructor(files: readonly SiteDocument[]) {
    for (const f of files) {
      const kind = kindOf(f.contentType);
      if (kind) {
        this.docs.push({
          path: f.path,
          contentType: f.contentType,
          kind,
          original: f.text,
          text: f.text,
        });
      }
    }
  }

  /** The pages an op applies to (and, with `css`, the stylesheets). */
  scope(pages: readonly string[] | undefined, css = false): DocState[] {
    return this.docs.filter((d) => {
      if (d.kind === 'css' && !css) return false;
      return pages === undefined || pages.some((p) => pathMatches(d.path, p));
    });
  }

  /** False when the page cannot hold a match of the selector (so it need not be parsed). */
  mayMatch(doc: DocState, selector: string): boolean {
    const hints = selectorHints(selector);
    if (hints.every((h) => h.length === 0)) return true;
    const lower = this.lowerText(doc);
    return hints.some((h) => h.every((word) => lower.includes(word)));
  }

  /** The text lower-cased, for quick checks before parsing. */
  lowerText(doc: DocState): string {
    if (doc.lower?.text !== doc.text) doc.lower = { text: doc.text, lower: doc.text.toLowerCase() };
    return doc.lower.lower;
  }

  page(doc: DocState): HtmlDoc {
    if (!doc.parsed || doc.parsed.html !== doc.text) doc.parsed = parseHtml(doc.text);
    return doc.parsed;
  }

  /** The elements an op targets on a page. Throws SelectorError for a selector it cannot read. */
  targets(doc: DocState, selector: string, withText: string | undefined): Element[] {
    if (!this.mayMatch(doc, selector)) return [];
    const found = selectAll(this.page(doc), selector);
    if (withText === undefined) return found;
    const wanted = collapseWhitespace(withText).toLowerCase();
    return found.filter((el) => textOf(el).toLowerCase() === wanted);
  }

  /** Splices edits into a document and records the matches on the outcome. */
  commit(doc: DocState, edits: readonly Edit[], matches: number, outcome: Outcome): void {
    if (matches > 0) {
      outcome.matches += matches;
      outcome.documents.add(doc.path);
    }
    if (edits.length === 0) return;
    const result = spliceEdits(doc.text, edits);
    if (result.conflicts > 0) {
      outcome.notes.push(
        `${result.conflicts} change(s) on ${doc.path} overlapped another and were skipped.`,
      );
    }
    if (result.applied > 0) {
      doc.text = result.text;
      outcome.changed.add(doc.path);
    }
  }

  /** The site's palette and fonts as they are now (all pages and stylesheets). */
  analyze(): StyleAnalysis {
    const sources: StyleSource[] = [];
    for (const doc of this.docs) {
      if (doc.kind === 'css') sources.push({ css: doc.text, mode: 'stylesheet' });
      else sources.push(...styleSourcesOfPage(this.page(doc)));
    }
    return analyzeStyles(sources);
  }

  addUpload(upload: UploadedImage): string {
    const path = uploadPath(upload.hash, upload.contentType);
    this.assets.set(path, { path, hash: upload.hash, contentType: upload.contentType });
    return path;
  }

  snapshot(): Map<DocState, string> {
    return new Map(this.docs.map((d) => [d, d.text]));
  }

  restore(snapshot: Map<DocState, string>): void {
    for (const [doc, text] of snapshot) doc.text = text;
  }
}

/** Matched elements without a matched ancestor (editing both would overlap). */
export function outermost(elements: readonly Element[]): Element[] {
  const set = new Set(elements);
  return elements.filter((el) => {
    for (let p = parentElement(el); p; p = parentElement(p)) if (set.has(p)) return false;
    return true;
  });
}
