/**
 * Site search on copies (issue 34, item 5; docs/forms.md, "Site search"): a search with the site's
 * own search form whose results page the crawl could not capture is answered by the sites host
 * from a full-text index (MiniSearch) of the copy's pages, built on first use per version and kept
 * for the last few. The results page is the site's own results template where the crawl captured
 * one (`search-template.ts`), else the host's own, in the site's language, with the site's search
 * box again.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  digestPage,
  readBlob,
  siteSearchesOf,
  type BlobStore,
  type Manifest,
  type ManifestEntry,
} from '@mirror/engine';
import { escapeUTF8 } from 'entities';
import MiniSearch from 'minisearch';
import type { SiteLogger, SiteSource } from '../../hosting/site-server.js';
import type { FormCapture } from './form-capture.js';
import { FORM_TEXTS } from './form-texts.js';
import { hostPage, send } from './host-pages.js';
import { searchTemplateOf, type SearchTemplate } from './search-template.js';

export const SITE_SEARCH_LIMITS = {
  /** Pages indexed per version (the first in the manifest's order). */
  pages: 3_000,
  /** Pages larger than this are not read. */
  pageBytes: 2 * 1024 * 1024,
  /** Characters of a page's text indexed, and kept for its snippet. */
  indexedChars: 20_000,
  snippetChars: 2_000,
  results: 50,
  /** Versions whose index is kept. */
  versions: 4,
  /** Captured results pages tried as a template, per search. */
  templateCandidates: 3,
  /** Templates (or their absence) kept, per version and search address. */
  templates: 64,
} as const;

/** A page of the copy the host reads: a 200 HTML page with a body, within the size read. */
function isReadablePage(e: ManifestEntry): boolean {
  return (
    e.kind === 'page' &&
    e.status === 200 &&
    e.hash !== '' &&
    e.contentType.includes('html') &&
    e.size <= SITE_SEARCH_LIMITS.pageBytes
  );
}

interface Page {
  id: string;
  title: string;
  text: string;
  /** The start of its text, for the snippet. */
  head: string;
}

type Index = MiniSearch<Page>;

export interface SiteSearchDeps {
  blobs: BlobStore;
  versions: Pick<FormCapture, 'version'>;
}

export type SiteSearch = ReturnType<typeof createSiteSearch>;

export function createSiteSearch(deps: SiteSearchDeps) {
  const indexes = new Map<string, Promise<Index>>();

  function indexOf(versionId: string, manifest: Manifest): Promise<Index> {
    let pending = indexes.get(versionId);
    if (pending === undefined) {
      pending = build(manifest);
      pending.catch(() => indexes.delete(versionId));
      if (indexes.size >= SITE_SEARCH_LIMITS.versions) indexes.delete(indexes.keys().next().value!);
      indexes.set(versionId, pending);
    }
    return pending;
  }

  const templates = new Map<string, Promise<SearchTemplate | undefined>>();

  /**
   * The site's own results page for a search address: a page the crawl captured of it with words
   * searched (`/search?q=foo`), read as a template; undefined when none was, or none is confident.
   */
  function templateOf(
    versionId: string,
    manifest: Manifest,
    path: string,
    field: string,
  ): Promise<SearchTemplate | undefined> {
    const key = `${versionId} ${path}`;
    let pending = templates.get(key);
    if (pending === undefined) {
      pending = findTemplate(manifest, path, field).catch(() => undefined);
      if (templates.size >= SITE_SEARCH_LIMITS.templates)
        templates.delete(templates.keys().next().value!);
      templates.set(key, pending);
    }
    return pending;
  }

  async function findTemplate(
    manifest: Manifest,
    path: string,
    field: string,
  ): Promise<SearchTemplate | undefined> {
    const captured = manifest.entries
      .filter(
        (e) =>
          isReadablePage(e) &&
          e.path.startsWith(`${path}?`) &&
          new URLSearchParams(e.path.slice(path.length + 1)).get(field)?.trim(),
      )
      .slice(0, SITE_SEARCH_LIMITS.templateCandidates);
    for (const entry of captured) {
      const oldTerm = new URLSearchParams(entry.path.slice(path.length + 1)).get(field)!.trim();
      const html = (await readBlob(deps.blobs, entry.hash)).toString('utf8');
      const template = searchTemplateOf(html, field, oldTerm);
      if (template) return template;
    }
    return undefined;
  }

  async function build(manifest: Manifest): Promise<Index> {
    // A results page the crawl captured (`/search?q=foo`) lists pages; it is none of them.
    const searches = siteSearchesOf(manifest);
    const isResults = (path: string) => {
      const q = path.indexOf('?');
      return q !== -1 && searches.has(path.slice(0, q));
    };
    const index: Index = new MiniSearch<Page>({
      fields: ['title', 'text'],
      storeFields: ['title', 'head'],
      searchOptions: { boost: { title: 3 }, prefix: true, fuzzy: 0.15, combineWith: 'AND' },
    });
    const pages = manifest.entries
      .filter((e) => isReadablePage(e) && e.path !== manifest.fallback?.path && !isResults(e.path))
      .slice(0, SITE_SEARCH_LIMITS.pages);
    for (const entry of pages) {
      const html = (await readBlob(deps.blobs, entry.hash)).toString('utf8');
      const digest = digestPage(html, entry.url);
      const text = digest.blocks
        .map((b) => b.text)
        .join(' ')
        .slice(0, SITE_SEARCH_LIMITS.indexedChars);
      index.add({
        id: entry.path,
        title: digest.title || entry.path,
        text,
        head: text.slice(0, SITE_SEARCH_LIMITS.snippetChars),
      });
    }
    return index;
  }

  /** Answers `term` on the copy (`SiteServerDeps.searchSite`). Never rejects. */
  async function handle(
    site: SiteSource,
    term: string,
    req: IncomingMessage,
    res: ServerResponse,
    log: SiteLogger,
  ): Promise<void> {
    try {
      const { manifest, locale } = await deps.versions.version(site.versionId);
      const index = await indexOf(site.versionId, manifest);
      const results = index.search(term).slice(0, SITE_SEARCH_LIMITS.results);
      const texts = FORM_TEXTS[locale];
      const url = req.url ?? '/';
      const path = url.slice(0, url.indexOf('?'));
      const field = siteSearchesOf(manifest).get(path) ?? 'q';
      const template = await templateOf(site.versionId, manifest, path, field);
      if (template) {
        const hits = results.map((r) => ({
          href: r.id as string,
          title: r['title'] as string,
          snippet: snippet(r['head'] as string, r.terms),
        }));
        return send(
          req,
          res,
          200,
          'text/html; charset=utf-8',
          template.render(term, hits, texts.searchNone(term)),
        );
      }
      const box = `<form role="search" action="${escapeUTF8(path)}" method="get"><input type="search" name="${escapeUTF8(field)}" value="${escapeUTF8(term)}" aria-label="${escapeUTF8(texts.search)}"> <button>${escapeUTF8(texts.search)}</button></form>`;
      const list =
        results.length === 0
          ? `<p>${escapeUTF8(texts.searchNone(term))}</p>`
          : `<p>${escapeUTF8(texts.searchResults(results.length, term))}</p><ol>${results
              .map(
                (r) =>
                  `<li><a href="${escapeUTF8(r.id as string)}">${escapeUTF8(r['title'] as string)}</a><p>${snippet(r['head'] as string, r.terms)}</p></li>`,
              )
              .join('')}</ol>`;
      hostPage(req, res, 200, locale, texts.search, box + list);
    } catch (err) {
      log.error({ err, siteId: site.siteId }, 'site search failed');
      if (!res.headersSent)
        send(req, res, 503, 'text/plain; charset=utf-8', 'Service Unavailable\n');
    }
  }

  return {
    handle,
    invalidate() {
      indexes.clear();
      templates.clear();
    },
  };
}

/** Some 160 characters of a page's text around the first word found, that word marked. */
function snippet(text: string, terms: readonly string[]): string {
  const lower = text.toLowerCase();
  let at = -1;
  let word = '';
  for (const term of terms) {
    const found = lower.indexOf(term.toLowerCase());
    if (found !== -1 && (at === -1 || found < at)) {
      at = found;
      word = term;
    }
  }
  if (at === -1) return escapeUTF8(text.slice(0, 160));
  const from = Math.max(0, at - 70);
  const to = Math.min(text.length, at + word.length + 90);
  return (
    (from > 0 ? '… ' : '') +
    escapeUTF8(text.slice(from, at)) +
    `<mark>${escapeUTF8(text.slice(at, at + word.length))}</mark>` +
    escapeUTF8(text.slice(at + word.length, to)) +
    (to < text.length ? ' …' : '')
  );
}
