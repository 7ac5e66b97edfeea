import type { Manifest, ManifestEntry } from '@mirror/engine';
import { describe, expect, it } from 'vitest';
import { ENCODING_BR, ENCODING_GZIP, ENCODING_IDENTITY } from './site-http.js';
import {
  buildIndex,
  encodedHead,
  findResource,
  identityHead,
  matchesEtag,
  notModifiedHead,
  type Resource,
} from './site-index.js';

const LIMITS = { minCompressBytes: 1024, maxCompressBytes: 8 * 1024 * 1024 };
const HTML = 'text/html; charset=utf-8';

let hashes = 0;
function file(path: string, contentType = HTML, extra: Partial<ManifestEntry> = {}): ManifestEntry {
  hashes++;
  return {
    path,
    url: `https://origin.test${path}`,
    kind: contentType.startsWith('text/html') ? 'page' : 'asset',
    status: 200,
    contentType,
    hash: `hash${hashes}`.padEnd(16, '0'),
    size: 4096,
    headers: {},
    ...extra,
  };
}

function manifest(entries: ManifestEntry[], extra: Partial<Manifest> = {}): Manifest {
  return {
    version: 1,
    startUrl: 'https://origin.test/',
    entryPath: '/',
    createdAt: '2026-01-01T00:00:00.000Z',
    entries,
    failures: [],
    notes: [],
    stats: {
      pages: 0,
      assets: 0,
      bytes: 0,
      requests: 0,
      notModified: 0,
      rendered: 0,
      durationMs: 0,
    },
    ...extra,
  };
}

/** Which entry (by path) or redirect a URL answers, as a short string. */
function answerOf(resource: Resource | null, entries: ManifestEntry[]): string | null {
  if (resource === null) return null;
  if (resource.redirectHead !== null) {
    return `${resource.status} → ${resource.redirectHead[resource.redirectHead.indexOf('location') + 1]}`;
  }
  const entry = entries.find((e) => e.hash === resource.hash);
  return `${resource.status} ${entry?.path}`;
}

function header(head: readonly string[], name: string): string | undefined {
  const at = head.indexOf(name);
  return at === -1 ? undefined : head[at + 1];
}

describe('site index: what a URL answers', () => {
  const entries = [
    file('/'),
    file('/about.html'),
    file('/docs/'),
    file('/guide/index.html'),
    file('/search?q=cats&page=2'),
    file('/caf%C3%A9.html'),
    file('/old', HTML, { status: 301, headers: { location: '/about.html' } }),
    file('/broken-redirect', HTML, { status: 302 }),
    file('/404.html'),
    file('//evil.test/'),
  ];
  const index = buildIndex(manifest(entries), LIMITS);
  const answer = (url: string, accept?: string) =>
    answerOf(findResource(index, url, accept), entries);

  it.each([
    ['/', '200 /'],
    ['/about.html', '200 /about.html'],
    ['/about', '200 /about.html'],
    ['/guide/', '200 /guide/index.html'],
    ['/docs', '301 → /docs/'],
    ['/docs?x=1', '301 → /docs/?x=1'],
    ['/guide', '301 → /guide/'],
    ['//evil.test', '301 → /evil.test/'],
    ['/search?page=2&q=cats', '200 /search?q=cats&page=2'],
    ['/about.html?utm=1', '200 /about.html'],
    ['/a/../about.html', '200 /about.html'],
    ['/café.html', '200 /caf%C3%A9.html'],
    ['http://demo.sites.test/about.html', '200 /about.html'],
    ['/old', '301 → /about.html'],
    ['/missing', '404 /404.html'],
    ['/broken-redirect', '404 /404.html'],
    ['*', '404 /404.html'],
  ])('%s answers %s', (url, expected) => {
    expect(answer(url)).toBe(expected);
  });

  it('remembers fallback answers per URL, within a bound', () => {
    const first = findResource(index, '/about', undefined);
    expect(findResource(index, '/about', undefined)).toBe(first);
    expect(index.fallbacks.get('/about')).toBe(first);
    for (let i = 0; i < 5000; i++) findResource(index, `/nothing-${i}`, undefined);
    expect(index.fallbacks.size).toBeLessThanOrEqual(4096);
  });

  it('sends / to the entry page when the copy starts elsewhere', () => {
    const moved = [file('/en/')];
    const movedIndex = buildIndex(manifest(moved, { entryPath: '/en/' }), LIMITS);
    expect(answerOf(findResource(movedIndex, '/', undefined), moved)).toBe('302 → /en/');
  });

  it('gives page loads the app shell and other requests the 404 page or nothing', () => {
    const app = [file('/'), file('/app-shell')];
    const appIndex = buildIndex(
      manifest(app, { fallback: { path: '/app-shell', status: 200 } }),
      LIMITS,
    );
    expect(answerOf(findResource(appIndex, '/deep/link', 'text/html,*/*'), app)).toBe(
      '200 /app-shell',
    );
    expect(findResource(appIndex, '/api/data', 'application/json')).toBeNull();

    const own404 = [file('/'), file('/not-here')];
    const own404Index = buildIndex(
      manifest(own404, { fallback: { path: '/not-here', status: 404 } }),
      LIMITS,
    );
    expect(answerOf(findResource(own404Index, '/x', 'text/html'), own404)).toBe('404 /not-here');

    const bare = [file('/'), file('/404')];
    expect(answerOf(findResource(buildIndex(manifest(bare), LIMITS), '/x', undefined), bare)).toBe(
      '404 /404',
    );
    expect(findResource(buildIndex(manifest([file('/')]), LIMITS), '/x', undefined)).toBeNull();
  });
});

describe('site index: queries, as a static server serving the export answers them', () => {
  const js = 'text/javascript; charset=utf-8';
  const entries = [
    file('/'),
    file('/data.json', 'application/json'),
    file('/app.js', js),
    file('/style.css', 'text/css'),
    file('/logo.png', 'image/png'),
    file('/blog/hello-world/index.txt', 'text/plain'),
    file('/_next/static/chunks/app/page-x.js', js),
    // Next.js payloads the render fetched: only `_rsc` variants, one body (the query is a cache key).
    file('/post/index.txt?_rsc=1p-R_iEY', 'text/plain', { hash: 'rsc-post'.padEnd(16, '0') }),
    file('/post/index.txt?_rsc=CMRHomFH', 'text/plain', { hash: 'rsc-post'.padEnd(16, '0') }),
    // One variant whose only parameter is a cache buster.
    file('/config.json?t=1700000000', 'application/json'),
    file('/widget.js?v=1.2.3', js),
    // Variants that chose different content: the query selects what is answered.
    file('/api/items?page=2', 'application/json'),
    file('/api/items?page=3', 'application/json'),
    file('/api/list?page=2', 'application/json'),
    file('/api/things', 'application/json'),
    file('/api/things?page=2', 'application/json'),
    // A page with one variant: `v` chooses the page here (a video), not a cache buster.
    file('/watch?v=abc'),
  ];
  const index = buildIndex(manifest(entries), LIMITS);
  const answer = (url: string, accept?: string) =>
    answerOf(findResource(index, url, accept), entries);

  it.each([
    ['/?utm_source=x&utm_medium=y', '200 /'],
    ['/data.json?t=1700000000', '200 /data.json'],
    ['/data.json?_=1700000000123', '200 /data.json'],
    ['/app.js?v=123', '200 /app.js'],
    ['/style.css?ver=6.4.2', '200 /style.css'],
    ['/logo.png?w=640&q=75', '200 /logo.png'],
    ['/blog/hello-world/index.txt?_rsc=abc123', '200 /blog/hello-world/index.txt'],
    ['/_next/static/chunks/app/page-x.js?dpl=dpl_123', '200 /_next/static/chunks/app/page-x.js'],
    ['/post/index.txt?_rsc=1p-R_iEY', '200 /post/index.txt?_rsc=1p-R_iEY'],
    ['/post/index.txt?_rsc=unseen', '200 /post/index.txt?_rsc=1p-R_iEY'],
    ['/post/index.txt', '200 /post/index.txt?_rsc=1p-R_iEY'],
    ['/config.json?t=1800000000', '200 /config.json?t=1700000000'],
    ['/widget.js?v=2.0.0', '200 /widget.js?v=1.2.3'],
    ['/api/items?page=3', '200 /api/items?page=3'],
    ['/api/items?page=4', null],
    ['/api/items', null],
    ['/api/list?page=3', null],
    ['/api/things?page=9', '200 /api/things'],
    ['/watch?v=xyz', null],
  ])('%s answers %s', (url, expected) => {
    expect(answer(url)).toBe(expected);
  });
});

describe('site index: names, as a static server serving the export answers them', () => {
  const entries = [
    file('/'),
    file('/search.html'),
    file('/search/'),
    file('/docs/'),
    file('/guide/setup'),
    file('/broken.json', 'application/json', { status: 500 }),
  ];
  const index = buildIndex(manifest(entries), LIMITS);
  const answer = (url: string) => answerOf(findResource(index, url, undefined), entries);

  it.each([
    // `try_files $uri $uri.html $uri/`, Netlify and the export's own servers: the page first.
    ['/search', '200 /search.html'],
    ['/search/', '200 /search/'],
    // The export writes `/docs/` as `/docs/index.html`, which a static server answers too.
    ['/docs/index.html', '200 /docs/'],
    ['/docs/index.html?x=1', '200 /docs/'],
    ['/guide/setup', '200 /guide/setup'],
    ['/guide/setup.html', '200 /guide/setup'],
    // The export leaves out what the site answered with an error.
    ['/broken.json', null],
  ])('%s answers %s', (url, expected) => {
    expect(answer(url)).toBe(expected);
  });
});

describe('site index: heads', () => {
  const entries = [
    file('/'),
    file('/app.3f9a1c2b.js', 'application/javascript'),
    file('/logo.png', 'image/png'),
    file('/tiny.css', 'text/css', { size: 100 }),
    file('/report.pdf', 'application/pdf', {
      headers: {
        'content-disposition': 'attachment; filename="report.pdf"',
        'set-cookie': 'a=b',
        'content-language': 'bad\nvalue',
      },
    }),
    file('/weird', 'text/html\u0000'),
    file('/XHTML', 'Application/XHTML+XML; charset=utf-8'),
  ];
  const index = buildIndex(manifest(entries), LIMITS);
  const at = (path: string) => index.byPath.get(path)!;

  it('decides cache policy, compression and HTML per file', () => {
    expect(header(at('/').common, 'cache-control')).toBe('no-cache');
    expect(header(at('/').common, 'vary')).toBe('accept-encoding');
    expect(at('/').isHtml).toBe(true);
    expect(header(at('/app.3f9a1c2b.js').common, 'cache-control')).toBe(
      'public, max-age=31536000, immutable',
    );
    expect(at('/logo.png').compressible).toBe(false);
    expect(header(at('/logo.png').common, 'vary')).toBeUndefined();
    expect(at('/tiny.css').compressible).toBe(false);
    expect(at('/XHTML')).toMatchObject({ isHtml: true, compressible: true });
  });

  it('passes only safe captured headers, and replaces an invalid type', () => {
    const pdf = at('/report.pdf').common;
    expect(header(pdf, 'content-disposition')).toBe('attachment; filename="report.pdf"');
    expect(header(pdf, 'set-cookie')).toBeUndefined();
    expect(header(pdf, 'content-language')).toBeUndefined();
    expect(at('/weird').contentType).toBe('application/octet-stream');
  });

  it('builds heads with a strong ETag per encoding', () => {
    const page = at('/');
    const identity = identityHead(page, 4096);
    expect(header(identity, 'etag')).toBe(`"${page.hash}"`);
    expect(header(identity, 'accept-ranges')).toBe('bytes');
    expect(header(identity, 'content-length')).toBe('4096');
    const gz = encodedHead(page, ENCODING_GZIP, 900);
    expect(header(gz, 'content-encoding')).toBe('gzip');
    expect(header(gz, 'etag')).toBe(`"${page.hash}-gz"`);
    expect(header(encodedHead(page, ENCODING_BR, 800), 'etag')).toBe(`"${page.hash}-br"`);
  });

  it('answers 304 heads for the variant actually served, and matches any variant', () => {
    const page = at('/');
    expect(header(notModifiedHead(page, ENCODING_BR), 'etag')).toBe(`"${page.hash}-br"`);
    expect(notModifiedHead(page, ENCODING_BR)).toBe(notModifiedHead(page, ENCODING_BR));
    page.noGain[ENCODING_GZIP] = true;
    expect(header(notModifiedHead(page, ENCODING_GZIP), 'etag')).toBe(`"${page.hash}"`);
    expect(notModifiedHead(page, ENCODING_GZIP)).toBe(notModifiedHead(page, ENCODING_IDENTITY));
    expect(matchesEtag(`W/"${page.hash}-gz"`, page.hash)).toBe(true);
    expect(matchesEtag(' * ', page.hash)).toBe(true);
    expect(matchesEtag('"other"', page.hash)).toBe(false);
    expect(matchesEtag('""', '')).toBe(false);
  });
});
