import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import {
  createMemoryBlobStore,
  type BlobStore,
  type Manifest,
  type ManifestEntry,
} from '@mirror/engine';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SiteCache } from './site-cache.js';
import {
  ENCODING_BR,
  ENCODING_GZIP,
  ENCODING_IDENTITY,
  hasContentHash,
  negotiateEncoding,
  parseRange,
} from './site-http.js';
import {
  createSiteServer,
  noSiteHerePage,
  type SiteServerDeps,
  type SiteServerOptions,
  type SiteSource,
} from './site-server.js';

const HOST = 'demo.sites.test';
const BARE_HOST = 'bare.sites.test';
const PREVIEW_HOST = 'v-0123456789abcdef0123456789abcdef.sites.test';

const bigHtml = `<!doctype html><html><head><title>Home</title></head><body>${'<p>Lorem ipsum dolor sit amet, consectetur adipiscing elit.</p>'.repeat(200)}</body></html>`;
const css = `body{color:#123456}\n${'.rule{margin:0 auto;padding:1px 2px}\n'.repeat(100)}`;
const hashedJs = `export const x = 1;\n${'console.log("bundled code");\n'.repeat(100)}`;
const binary = Buffer.alloc(10_000, 7).map((_, i) => (i * 31) & 0xff);

interface Fixture {
  app: FastifyInstance;
  store: BlobStore;
  deps: SiteServerDeps & {
    resolveHost: ReturnType<typeof vi.fn<SiteServerDeps['resolveHost']>>;
    loadManifest: ReturnType<typeof vi.fn<SiteServerDeps['loadManifest']>>;
    recordVisit: ReturnType<typeof vi.fn<NonNullable<SiteServerDeps['recordVisit']>>>;
  };
  server: ReturnType<typeof createSiteServer>;
  hashes: Record<string, string>;
}

let current: Fixture | undefined;
afterEach(async () => {
  await current?.app.close();
  current = undefined;
});

async function entry(
  store: BlobStore,
  path: string,
  body: string | Uint8Array,
  contentType: string,
  extra: Partial<ManifestEntry> = {},
): Promise<ManifestEntry> {
  const data = typeof body === 'string' ? Buffer.from(body) : body;
  const { hash, size } = await store.put(
    (async function* () {
      yield data;
    })(),
  );
  return {
    path,
    url: `https://origin.test${path}`,
    kind: contentType.startsWith('text/html') ? 'page' : 'asset',
    status: 200,
    contentType,
    hash,
    size,
    headers: {},
    ...extra,
  };
}

function redirect(path: string, status: number, location: string): ManifestEntry {
  return {
    path,
    url: `https://origin.test${path}`,
    kind: 'page',
    status,
    contentType: '',
    hash: '',
    size: 0,
    headers: { location },
  };
}

function manifestOf(entries: ManifestEntry[], entryPath = '/'): Manifest {
  return {
    version: 1,
    startUrl: 'https://origin.test/',
    entryPath,
    createdAt: new Date(0).toISOString(),
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
  };
}

async function setup(
  options: SiteServerOptions = {},
  mutate?: (entries: ManifestEntry[]) => void,
  fallback?: { body: string; status: number },
): Promise<Fixture> {
  const store = createMemoryBlobStore();
  const html = 'text/html; charset=utf-8';
  const entries = [
    await entry(store, '/', bigHtml, html),
    await entry(store, '/about', '<h1>About</h1>', html, {
      headers: { 'content-language': 'fr', 'set-cookie': 'sid=1', 'content-security-policy': 'x' },
    }),
    await entry(store, '/about?tab=2', '<h1>About tab 2</h1>', html),
    await entry(store, '/search?a=1&b=2', '<h1>Search a1 b2</h1>', html),
    await entry(store, '/docs/', '<h1>Docs index</h1>', html),
    await entry(store, '/guide/index.html', '<h1>Guide</h1>', html),
    await entry(store, '/pricing.html', '<h1>Pricing</h1>', html),
    await entry(store, '/404.html', '<h1>Site 404</h1>', html),
    await entry(store, '/style.css', css, 'text/css'),
    await entry(store, '/assets/index-DiwrgTda.js', hashedJs, 'text/javascript'),
    await entry(store, '/app.3f9a1c2b.js', 'tiny()', 'text/javascript'),
    await entry(store, '/img/photo.png', binary, 'image/png'),
    await entry(store, '/_x/cdn.test/lib.css', css.replace('#123456', '#654321'), 'text/css'),
    await entry(store, '/caf%C3%A9', '<h1>Cafe</h1>', html),
    redirect('/old', 301, '/about'),
    redirect('/away', 302, 'https://elsewhere.test/'),
  ];
  mutate?.(entries);
  if (fallback) {
    entries.push(
      await entry(store, '/_x/~fallback.html', fallback.body, html, { status: fallback.status }),
    );
  }
  const bareEntries = [
    await entry(store, '/start/', '<h1>Start</h1>', html),
    await entry(store, '/x.css', css, 'text/css'),
  ];
  const manifests: Record<string, Manifest> = {
    v1: {
      ...manifestOf(entries),
      ...(fallback ? { fallback: { path: '/_x/~fallback.html', status: fallback.status } } : {}),
    },
    v2: manifestOf(bareEntries, '/start/'),
  };
  const sites: Record<string, SiteSource> = {
    [HOST]: { siteId: 's1', versionId: 'v1' },
    [BARE_HOST]: { siteId: 's2', versionId: 'v2' },
    [PREVIEW_HOST]: { siteId: 's1', versionId: 'v1', preview: true },
  };
  const deps = {
    blobs: store,
    resolveHost: vi.fn(async (hostname: string) => sites[hostname] ?? null),
    loadManifest: vi.fn(async (versionId: string) => {
      const manifest = manifests[versionId];
      if (!manifest) throw new Error(`no manifest ${versionId}`);
      return manifest;
    }),
    recordVisit: vi.fn<NonNullable<SiteServerDeps['recordVisit']>>(),
  };
  const server = createSiteServer(deps, { appUrl: 'http://app.test/', ...options });
  const app = Fastify({ logger: false });
  app.addHook('onRequest', (request, reply) => server.handle(request, reply));
  await app.ready();
  const hashes = Object.fromEntries(entries.map((e) => [e.path, e.hash]));
  current = { app, store, deps, server, hashes };
  return current;
}

/** What was recorded: site, kind and bytes of each call. */
function recorded(deps: Fixture['deps']) {
  return deps.recordVisit.mock.calls.map(([siteId, , kind, bytes]) => [siteId, kind, bytes]);
}

function get(app: FastifyInstance, url: string, headers: Record<string, string> = {}) {
  return app.inject({ method: 'GET', url, headers: { host: HOST, ...headers } });
}

describe('site server: hosts and methods', () => {
  it('answers an unknown host with the styled "No site here" page', async () => {
    const { app, deps } = await setup();
    const res = await get(app, '/', { host: 'nobody.sites.test:8080' });
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.body).toContain('No site here');
    expect(res.body).toContain('<strong>nobody.sites.test</strong>');
    expect(res.body).toContain('href="http://app.test/"');
    expect(res.body).toContain('place-items:center');
    expect(res.body).toBe(noSiteHerePage('nobody.sites.test', 'http://app.test/'));
    expect(deps.resolveHost).toHaveBeenCalledWith('nobody.sites.test');
  });

  it('escapes the host name in the "No site here" page', () => {
    expect(noSiteHerePage('<b>x', 'http://a/?"')).toContain('&lt;b&gt;x');
  });

  it('answers other methods with 405 and Allow', async () => {
    const { app } = await setup();
    for (const method of ['POST', 'PUT', 'DELETE', 'OPTIONS'] as const) {
      const res = await app.inject({ method, url: '/', headers: { host: HOST } });
      expect(res.statusCode).toBe(405);
      expect(res.headers['allow']).toBe('GET, HEAD');
    }
  });

  it('supports HEAD with the same headers and no body', async () => {
    const { app, deps } = await setup();
    const full = await get(app, '/style.css');
    const head = await app.inject({ method: 'HEAD', url: '/style.css', headers: { host: HOST } });
    expect(head.statusCode).toBe(200);
    expect(head.body).toBe('');
    expect(head.headers['content-length']).toBe(String(Buffer.byteLength(css)));
    expect(head.headers['etag']).toBe(full.headers['etag']);
    const gz = await app.inject({
      method: 'HEAD',
      url: '/',
      headers: { host: HOST, 'accept-encoding': 'gzip' },
    });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(Number(gz.headers['content-length'])).toBeGreaterThan(0);
    expect(gz.rawPayload.length).toBe(0);
    // HEAD is not a visit
    expect(deps.recordVisit).toHaveBeenCalledTimes(1);
  });
});

describe('site server: lookup', () => {
  it('serves exact paths, and paths with their exact query', async () => {
    const { app } = await setup();
    expect((await get(app, '/about')).body).toBe('<h1>About</h1>');
    expect((await get(app, '/about?tab=2')).body).toBe('<h1>About tab 2</h1>');
    expect((await get(app, '/_x/cdn.test/lib.css')).body).toContain('#654321');
  });

  it('falls back to the query with its parameters sorted, then to the path without query', async () => {
    const { app } = await setup();
    expect((await get(app, '/search?b=2&a=1')).body).toBe('<h1>Search a1 b2</h1>');
    expect((await get(app, '/about?utm_source=x')).body).toBe('<h1>About</h1>');
    // asked twice: the memoized fallback answers the same
    expect((await get(app, '/about?utm_source=x')).body).toBe('<h1>About</h1>');
  });

  it('normalizes percent-encoding and dot segments', async () => {
    const { app } = await setup();
    expect((await get(app, '/café')).body).toBe('<h1>Cafe</h1>');
    expect((await get(app, '/img/../about')).body).toBe('<h1>About</h1>');
  });

  it('redirects a directory without its slash, and serves index and .html fallbacks', async () => {
    const { app } = await setup();
    const docs = await get(app, '/docs?x=1');
    expect(docs.statusCode).toBe(301);
    expect(docs.headers['location']).toBe('/docs/?x=1');
    const guide = await get(app, '/guide');
    expect(guide.statusCode).toBe(301);
    expect(guide.headers['location']).toBe('/guide/');
    expect((await get(app, '/guide/')).body).toBe('<h1>Guide</h1>');
    expect((await get(app, '/docs/')).body).toBe('<h1>Docs index</h1>');
    expect((await get(app, '/pricing')).body).toBe('<h1>Pricing</h1>');
  });

  it('answers what a static server serving the export answers, whatever the query', async () => {
    const { app } = await setup({}, (entries) => {
      const at = (path: string) => entries.find((e) => e.path === path)!;
      const rsc = { ...at('/style.css'), contentType: 'text/x-component' };
      // Next.js payloads fetched while rendering: `_rsc` changes with the page navigated from.
      entries.push({ ...rsc, path: '/blog/hello-world/index.txt?_rsc=1p-R_iEY' });
      entries.push({ ...rsc, path: '/blog/hello-world/index.txt?_rsc=CMRHomFH' });
      entries.push({ ...at('/about'), path: '/api/items?page=2' });
      entries.push({ ...at('/pricing.html'), path: '/api/items?page=3' });
      entries.push({ ...at('/docs/'), path: '/pricing/' });
    });
    const payload = await get(app, '/blog/hello-world/index.txt?_rsc=unseen', {
      accept: '*/*',
      rsc: '1',
    });
    expect(payload.statusCode).toBe(200);
    expect(payload.headers['content-type']).toBe('text/x-component');
    expect(payload.body).toBe(css);
    expect((await get(app, '/blog/hello-world/index.txt')).body).toBe(css);
    expect((await get(app, '/style.css?v=123')).body).toBe(css);
    // Variants that differ: an unknown one is not answered with another.
    expect((await get(app, '/api/items?page=3')).body).toBe('<h1>Pricing</h1>');
    const unknown = await get(app, '/api/items?page=4', { accept: 'application/json' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.body).toBe('<h1>Site 404</h1>');
    // The page's `.html` before the folder's, and the folder's page under its exported name.
    expect((await get(app, '/pricing')).body).toBe('<h1>Pricing</h1>');
    expect((await get(app, '/docs/index.html')).body).toBe('<h1>Docs index</h1>');
    expect((await get(app, '/about.html')).body).toBe('<h1>About</h1>');
  });

  it('never redirects to another host', async () => {
    const { app } = await setup({}, (entries) => {
      entries.push({ ...entries[0]!, path: '//evil.test/' });
    });
    const res = await get(app, '//evil.test');
    expect(res.statusCode).toBe(301);
    expect(res.headers['location']).toBe('/evil.test/');
  });

  it("answers a missing path with the site's own 404 page, status 404", async () => {
    const { app, deps } = await setup();
    const res = await get(app, '/nope');
    expect(res.statusCode).toBe(404);
    expect(res.body).toBe('<h1>Site 404</h1>');
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.headers['etag']).toBeUndefined();
    // Its bytes were sent, but it is not a page view.
    expect(recorded(deps)).toEqual([['s1', 'asset', Buffer.byteLength('<h1>Site 404</h1>')]]);
  });

  it('gives page loads of deep links the shell of an app that routes on the client', async () => {
    // The site answered every address with its app (the engine asked it for one it cannot have).
    const { app } = await setup({}, undefined, { body: '<div id="app">shell</div>', status: 200 });
    const page = await get(app, '/products/42', { accept: 'text/html,application/xhtml+xml' });
    expect(page.statusCode).toBe(200);
    expect(page.body).toBe('<div id="app">shell</div>');
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    // A script's request for data the copy does not have is still a 404, never HTML.
    const data = await get(app, '/api/products/42', { accept: '*/*' });
    expect(data.statusCode).toBe(404);
    expect((await get(app, '/missing.png', { accept: 'image/avif,image/*' })).statusCode).toBe(404);
    // What the copy has is served as before.
    expect((await get(app, '/about', { accept: 'text/html' })).body).toBe('<h1>About</h1>');
  });

  it('answers unknown addresses with the page the site itself gave for them, status 404', async () => {
    const { app } = await setup({}, undefined, { body: '<h1>Lost?</h1>', status: 404 });
    const res = await get(app, '/nope', { accept: 'text/html' });
    expect(res.statusCode).toBe(404);
    expect(res.body).toBe('<h1>Lost?</h1>');
  });

  it('uses /404 when there is no /404.html', async () => {
    const { app } = await setup({}, (entries) => {
      const page = entries.find((e) => e.path === '/404.html')!;
      page.path = '/404';
    });
    const res = await get(app, '/nope');
    expect(res.statusCode).toBe(404);
    expect(res.body).toBe('<h1>Site 404</h1>');
  });

  it('answers a plain 404 page when the site has none', async () => {
    const { app } = await setup();
    const res = await get(app, '/nope', { host: BARE_HOST });
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.body).toContain('Page not found');
    const head = await app.inject({ method: 'HEAD', url: '/nope', headers: { host: BARE_HOST } });
    expect(head.statusCode).toBe(404);
    expect(head.body).toBe('');
  });

  it('sends / to the entry page when the copy starts elsewhere', async () => {
    const { app } = await setup();
    const res = await get(app, '/', { host: BARE_HOST });
    expect(res.statusCode).toBe(302);
    expect(res.headers['location']).toBe('/start/');
  });

  it('answers redirect entries with their status and location', async () => {
    const { app } = await setup();
    const moved = await get(app, '/old');
    expect(moved.statusCode).toBe(301);
    expect(moved.headers['location']).toBe('/about');
    expect(moved.headers['content-length']).toBe('0');
    expect(moved.headers['cache-control']).toBe('no-cache');
    const away = await get(app, '/away');
    expect(away.statusCode).toBe(302);
    expect(away.headers['location']).toBe('https://elsewhere.test/');
  });

  it('accepts absolute-form request targets', async () => {
    const { app } = await setup();
    const res = await get(app, `http://${HOST}/about`);
    expect(res.body).toBe('<h1>About</h1>');
  });
});

describe('site server: headers and caching', () => {
  it('sends the captured type, a strong ETag, security headers, and no app headers', async () => {
    const { app, hashes } = await setup();
    const res = await get(app, '/about');
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['etag']).toBe(`"${hashes['/about']}"`);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    expect(res.headers['content-language']).toBe('fr');
    expect(res.headers['set-cookie']).toBeUndefined();
    expect(res.headers['content-security-policy']).toBeUndefined();
    expect(res.headers['content-length']).toBe('14');
  });

  it('chooses cache-control per kind of file', async () => {
    const { app } = await setup();
    const cc = async (url: string) => (await get(app, url)).headers['cache-control'];
    expect(await cc('/')).toBe('no-cache');
    expect(await cc('/style.css')).toBe('no-cache');
    expect(await cc('/img/photo.png')).toBe('no-cache');
    expect(await cc('/assets/index-DiwrgTda.js')).toBe('public, max-age=31536000, immutable');
    expect(await cc('/app.3f9a1c2b.js')).toBe('public, max-age=31536000, immutable');
  });

  it('answers 304 to a matching If-None-Match, for any encoding variant', async () => {
    const { app, hashes, deps } = await setup();
    const etag = `"${hashes['/style.css']}"`;
    const res = await get(app, '/style.css', { 'if-none-match': etag });
    expect(res.statusCode).toBe(304);
    expect(res.body).toBe('');
    expect(res.headers['etag']).toBe(etag);
    expect(res.headers['cache-control']).toBe('no-cache');
    const br = await get(app, '/style.css', { 'accept-encoding': 'br' });
    const again = await get(app, '/style.css', {
      'accept-encoding': 'br',
      'if-none-match': `W/"x", ${br.headers['etag']}`,
    });
    expect(again.statusCode).toBe(304);
    expect(again.headers['etag']).toBe(br.headers['etag']);
    expect(again.headers['vary']).toBe('accept-encoding');
    expect((await get(app, '/style.css', { 'if-none-match': '"other"' })).statusCode).toBe(200);
    expect((await get(app, '/', { 'if-none-match': '*' })).statusCode).toBe(304);
    // A 304 sends no body: no bytes; a page revalidated is still a page view.
    expect(recorded(deps)).toEqual([
      ['s1', 'asset', 0],
      ['s1', 'asset', br.rawPayload.length],
      ['s1', 'asset', 0],
      ['s1', 'asset', Buffer.byteLength(css)],
      ['s1', 'page', 0],
    ]);
  });

  it('compresses text with gzip and brotli, honouring q-values', async () => {
    const { app } = await setup();
    const gz = await get(app, '/', { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.headers['vary']).toBe('accept-encoding');
    expect(Number(gz.headers['content-length'])).toBe(gz.rawPayload.length);
    expect(gunzipSync(gz.rawPayload).toString()).toBe(bigHtml);

    const br = await get(app, '/', { 'accept-encoding': 'gzip, deflate, br, zstd' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(bigHtml);
    expect(br.rawPayload.length).toBeLessThan(gz.rawPayload.length);
    expect(br.headers['etag']).not.toBe(gz.headers['etag']);

    const preferGzip = await get(app, '/style.css', { 'accept-encoding': 'br;q=0.5, gzip' });
    expect(preferGzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(preferGzip.rawPayload).toString()).toBe(css);

    const none = await get(app, '/style.css', { 'accept-encoding': 'gzip;q=0, br;q=0' });
    expect(none.headers['content-encoding']).toBeUndefined();
    expect(none.headers['vary']).toBe('accept-encoding');
    expect(none.body).toBe(css);

    const star = await get(app, '/style.css', { 'accept-encoding': '*' });
    expect(star.headers['content-encoding']).toBe('br');
  });

  it('does not compress small files, binary files, or redirects', async () => {
    const { app } = await setup();
    const small = await get(app, '/about', { 'accept-encoding': 'gzip, br' });
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(small.headers['vary']).toBeUndefined();
    const png = await get(app, '/img/photo.png', { 'accept-encoding': 'gzip, br' });
    expect(png.headers['content-encoding']).toBeUndefined();
    expect(png.rawPayload.equals(Buffer.from(binary))).toBe(true);
  });

  it('compresses a file once and reads a small file from the store once', async () => {
    const { app, store } = await setup();
    const read = vi.spyOn(store, 'read');
    for (let i = 0; i < 5; i++) {
      await get(app, '/style.css', { 'accept-encoding': 'br' });
      await get(app, '/style.css', { 'accept-encoding': 'gzip' });
      await get(app, '/style.css');
    }
    expect(read).toHaveBeenCalledTimes(1);
  });

  it('streams large files from the store, and answers byte ranges', async () => {
    const { app, store } = await setup({ smallBodyBytes: 2048 });
    const read = vi.spyOn(store, 'read');
    const full = await get(app, '/img/photo.png');
    expect(full.statusCode).toBe(200);
    expect(full.headers['accept-ranges']).toBe('bytes');
    expect(full.rawPayload.equals(Buffer.from(binary))).toBe(true);
    await get(app, '/img/photo.png');
    expect(read).toHaveBeenCalledTimes(2);

    const part = await get(app, '/img/photo.png', { range: 'bytes=100-199' });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-range']).toBe('bytes 100-199/10000');
    expect(part.rawPayload.equals(Buffer.from(binary.subarray(100, 200)))).toBe(true);
    const tail = await get(app, '/img/photo.png', { range: 'bytes=-10' });
    expect(tail.rawPayload.equals(Buffer.from(binary.subarray(9990)))).toBe(true);
    const bad = await get(app, '/img/photo.png', { range: 'bytes=20000-' });
    expect(bad.statusCode).toBe(416);
    expect(bad.headers['content-range']).toBe('bytes */10000');
    const stale = await get(app, '/img/photo.png', { range: 'bytes=0-9', 'if-range': '"old"' });
    expect(stale.statusCode).toBe(200);
    // small files answer ranges from memory
    const small = await get(app, '/about', { range: 'bytes=4-8' });
    expect(small.statusCode).toBe(206);
    expect(small.body).toBe('About');
  });

  it('answers 503 with a page when a file cannot be read', async () => {
    const { app, store } = await setup();
    vi.spyOn(store, 'read').mockImplementation(() => {
      throw new Error('disk gone');
    });
    const res = await get(app, '/about');
    expect(res.statusCode).toBe(503);
    expect(res.body).toContain('Site unavailable');
  });
});

describe('site server: caches and analytics', () => {
  it('loads a manifest once, resolves a host once within its TTL, and forgets on invalidate', async () => {
    const { app, deps, server } = await setup();
    await Promise.all([get(app, '/'), get(app, '/about'), get(app, '/style.css')]);
    await get(app, '/about');
    expect(deps.loadManifest).toHaveBeenCalledTimes(1);
    expect(deps.resolveHost).toHaveBeenCalledTimes(1);
    server.invalidate('v1');
    await get(app, '/about');
    expect(deps.loadManifest).toHaveBeenCalledTimes(2);
    expect(deps.resolveHost).toHaveBeenCalledTimes(2);
    server.invalidate();
    await get(app, '/about');
    expect(deps.loadManifest).toHaveBeenCalledTimes(3);
    expect(deps.resolveHost).toHaveBeenCalledTimes(3);
  });

  it('asks for the host every time with a TTL of 0', async () => {
    const { app, deps } = await setup({ hostCacheTtlMs: 0 });
    await get(app, '/');
    await get(app, '/');
    expect(deps.resolveHost).toHaveBeenCalledTimes(2);
    expect(deps.loadManifest).toHaveBeenCalledTimes(1);
  });

  it('answers 503 when the manifest cannot be loaded, and retries next time', async () => {
    const { app, deps } = await setup();
    deps.loadManifest.mockRejectedValueOnce(new Error('db down'));
    expect((await get(app, '/')).statusCode).toBe(503);
    expect((await get(app, '/')).statusCode).toBe(200);
  });

  it('records page views and files with the body bytes sent, handing over the request', async () => {
    const { app, deps } = await setup();
    await get(app, '/');
    await get(app, '/about', { referer: 'https://news.example/item?id=1' });
    const gz = await get(app, '/style.css', { 'accept-encoding': 'gzip' });
    await app.inject({ method: 'HEAD', url: '/about', headers: { host: HOST } });
    await get(app, '/old');
    expect(recorded(deps)).toEqual([
      ['s1', 'page', Buffer.byteLength(bigHtml)],
      ['s1', 'page', 14],
      ['s1', 'asset', gz.rawPayload.length],
    ]);
    expect(gz.rawPayload.length).toBeLessThan(Buffer.byteLength(css));
    const req = deps.recordVisit.mock.calls[1]![1];
    expect(req.headers.referer).toBe('https://news.example/item?id=1');
    expect(req.url).toBe('/about');
  });

  it('records the bytes of ranges and of streamed files', async () => {
    const { app, deps } = await setup({ smallBodyBytes: 2048 });
    await get(app, '/img/photo.png');
    await get(app, '/img/photo.png', { range: 'bytes=100-199' });
    await get(app, '/about', { range: 'bytes=4-8' });
    // A streamed body is recorded once the stream has ended, just after the answer.
    await vi.waitFor(() =>
      expect(recorded(deps).sort((a, b) => Number(b[2]) - Number(a[2]))).toEqual([
        ['s1', 'asset', binary.length],
        ['s1', 'asset', 100],
        ['s1', 'asset', 5],
      ]),
    );
  });

  it('does not count what is looked at on a preview host', async () => {
    const { app, deps } = await setup();
    const res = await get(app, '/about', { host: PREVIEW_HOST });
    expect(res.body).toBe('<h1>About</h1>');
    await get(app, '/style.css', { host: PREVIEW_HOST });
    expect(deps.recordVisit).not.toHaveBeenCalled();
  });

  it('answers even when recording a visit fails', async () => {
    const { app, deps } = await setup();
    deps.recordVisit.mockImplementation(() => {
      throw new Error('analytics down');
    });
    expect((await get(app, '/about')).statusCode).toBe(200);
    deps.recordVisit.mockImplementation(
      () => Promise.reject(new Error('async analytics down')) as unknown as void,
    );
    expect((await get(app, '/about')).statusCode).toBe(200);
  });

  it('works as a route handler too', async () => {
    const store = createMemoryBlobStore();
    const page = await entry(store, '/', '<h1>Hi</h1>', 'text/html');
    const server = createSiteServer({
      blobs: store,
      resolveHost: async () => ({ siteId: 's', versionId: 'v' }),
      loadManifest: async () => manifestOf([page]),
    });
    const app = Fastify({ logger: false });
    app.all('/*', (request, reply) => server.handle(request, reply));
    const res = await app.inject({ url: '/', headers: { host: 'a.test' } });
    expect(res.body).toBe('<h1>Hi</h1>');
    await app.close();
  });

  it('keeps serving a stale host answer while asking again, within one more TTL', async () => {
    const { app, deps } = await setup({ hostCacheTtlMs: 40 });
    expect((await get(app, '/about')).statusCode).toBe(200);
    let answerAgain: (source: SiteSource | null) => void = () => undefined;
    deps.resolveHost.mockImplementationOnce(
      () => new Promise<SiteSource | null>((resolve) => (answerAgain = resolve)),
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    // Stale: served at once, one question in the background however many requests come.
    expect((await get(app, '/about')).statusCode).toBe(200);
    expect((await get(app, '/about')).statusCode).toBe(200);
    expect(deps.resolveHost).toHaveBeenCalledTimes(2);
    answerAgain(null); // the site went away meanwhile
    await new Promise((resolve) => setImmediate(resolve));
    expect((await get(app, '/about')).body).toContain('No site here');
    // Past twice the TTL an answer is not used: the request waits for a fresh one (the site is
    // back), instead of getting the stale "No site here".
    await new Promise((resolve) => setTimeout(resolve, 90));
    expect((await get(app, '/about')).statusCode).toBe(200);
    expect(deps.resolveHost).toHaveBeenCalledTimes(3);
  });
});

describe('site server: the hot path', () => {
  /** A request/response pair of plain objects: what handleNode reads and writes, recorded. */
  function exchange(url: string, headers: Record<string, string> = {}) {
    const req = { method: 'GET', url, headers: { host: HOST, ...headers } } as IncomingMessage;
    const sent: { status?: number; head?: string[]; body?: Buffer } = {};
    const fake = {
      headersSent: false,
      destroyed: false,
      writeHead(status: number, head: string[]) {
        sent.status = status;
        sent.head = head;
        fake.headersSent = true;
        return fake;
      },
      end(body?: Buffer) {
        sent.body = body;
        return fake;
      },
    };
    return { req, res: fake as unknown as ServerResponse, fake, sent };
  }

  it('answers before handleNode returns once host, manifest and body are in memory', async () => {
    const { server, hashes } = await setup();
    const warm = exchange('/style.css', { 'accept-encoding': 'gzip' });
    await server.handleNode(warm.req, warm.res);
    const plain = exchange('/style.css');
    await server.handleNode(plain.req, plain.res);

    const again = exchange('/style.css', { 'accept-encoding': 'gzip' });
    const returned = server.handleNode(again.req, again.res);
    expect(again.sent.status).toBe(200); // written synchronously, no await needed
    expect(again.sent.head).toBe(warm.sent.head); // the same prebuilt head array, reused
    expect(again.sent.body).toBe(warm.sent.body);
    expect(gunzipSync(again.sent.body!).toString()).toBe(css);
    await returned;

    const identity = exchange('/style.css');
    void server.handleNode(identity.req, identity.res);
    expect(identity.sent.body?.toString()).toBe(css);
    expect(identity.sent.head).toBe(plain.sent.head);

    const etag = `"${hashes['/style.css']}"`;
    const notModified = exchange('/style.css', { 'if-none-match': etag });
    void server.handleNode(notModified.req, notModified.res);
    expect(notModified.sent.status).toBe(304);
    expect(notModified.sent.body).toBeUndefined();
  });

  it('answers 503 when a synchronous step throws', async () => {
    const log = { warn: vi.fn(), error: vi.fn() };
    const { server } = await setup({ log });
    const warm = exchange('/about');
    await server.handleNode(warm.req, warm.res);
    const broken = exchange('/about');
    const writeHead = broken.fake.writeHead;
    let calls = 0;
    broken.fake.writeHead = (status: number, head: string[]) => {
      if (calls++ === 0) throw new Error('socket trouble');
      return writeHead(status, head);
    };
    await server.handleNode(broken.req, broken.res);
    expect(broken.sent.status).toBe(503);
    expect(log.error).toHaveBeenCalledTimes(1);
  });
});

describe('site server: handleNode over a real socket', () => {
  it('serves a plain node:http server, streaming, compressing, and logging failures', async () => {
    const store = createMemoryBlobStore();
    const entries = [
      await entry(store, '/', bigHtml, 'text/html; charset=utf-8'),
      await entry(store, '/big.bin', Buffer.alloc(300_000, 1), 'application/octet-stream'),
      await entry(store, '/gone.css', css, 'text/css'),
    ];
    const missing = entries[2]!;
    missing.hash = 'f'.repeat(64);
    const log = { warn: vi.fn(), error: vi.fn() };
    const sites = createSiteServer(
      {
        blobs: store,
        resolveHost: async (hostname) =>
          hostname === '127.0.0.1' ? { siteId: 's', versionId: 'v' } : null,
        loadManifest: async () => manifestOf(entries),
      },
      { log },
    );
    const server = createServer((req, res) => void sites.handleNode(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    try {
      const base = `http://127.0.0.1:${port}`;
      const home = await fetch(`${base}/`, { headers: { 'accept-encoding': 'br' } });
      expect(home.headers.get('content-encoding')).toBe('br');
      expect(await home.text()).toBe(bigHtml);
      const big = await fetch(`${base}/big.bin`);
      expect(big.headers.get('content-length')).toBe('300000');
      expect((await big.arrayBuffer()).byteLength).toBe(300_000);
      const gone = await fetch(`${base}/gone.css`);
      expect(gone.status).toBe(503);
      expect(log.error).toHaveBeenCalledTimes(1);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe('site server helpers', () => {
  it('recognizes content-hashed file names', () => {
    for (const path of [
      '/app.3f9a1c2b.js',
      '/static/js/main.3f9a1c2b.chunk.js',
      '/assets/index-AbC123de.js',
      '/assets/index-DiwrgTda.css',
      '/_next/static/chunks/pages/_app-72b849fbd24ac258.js',
      '/_next/static/QZ8Jz2/_buildManifest.js',
      '/fonts/inter.8a9b0c1d2e3f4a5b.woff2',
    ]) {
      expect(hasContentHash(path), path).toBe(true);
    }
    for (const path of [
      '/app.js',
      '/main-navigation.js',
      '/react-dom.production.min.js',
      '/jquery-3.6.0.min.js',
      '/Carousel.js',
      '/app-Carousel.js',
      '/report-20240101.pdf',
      '/deadbeef',
    ]) {
      expect(hasContentHash(path), path).toBe(false);
    }
  });

  it('negotiates encodings with q-values', () => {
    expect(negotiateEncoding(undefined)).toBe(ENCODING_IDENTITY);
    expect(negotiateEncoding('gzip, deflate, br')).toBe(ENCODING_BR);
    expect(negotiateEncoding('gzip')).toBe(ENCODING_GZIP);
    expect(negotiateEncoding('br;q=0, gzip')).toBe(ENCODING_GZIP);
    expect(negotiateEncoding('gzip;q=1.0, br;q=0.8')).toBe(ENCODING_GZIP);
    expect(negotiateEncoding('identity')).toBe(ENCODING_IDENTITY);
    expect(negotiateEncoding('*;q=0')).toBe(ENCODING_IDENTITY);
    expect(negotiateEncoding('*;q=0.5, br;q=0')).toBe(ENCODING_GZIP);
  });

  it('parses single byte ranges', () => {
    expect(parseRange('bytes=0-9', 100)).toEqual({ start: 0, end: 9 });
    expect(parseRange('bytes=90-', 100)).toEqual({ start: 90, end: 99 });
    expect(parseRange('bytes=-5', 100)).toEqual({ start: 95, end: 99 });
    expect(parseRange('bytes=50-500', 100)).toEqual({ start: 50, end: 99 });
    expect(parseRange('bytes=100-', 100)).toBe('unsatisfiable');
    expect(parseRange('bytes=0-1,5-6', 100)).toBeNull();
    expect(parseRange('items=0-1', 100)).toBeNull();
    expect(parseRange(undefined, 100)).toBeNull();
  });

  it('evicts the least recently used entries beyond its budget', () => {
    const cache = new SiteCache<string, number>(3);
    cache.set('a', 1);
    cache.set('b', 2);
    cache.set('c', 3);
    cache.get('a');
    cache.set('d', 4);
    cache.set('e', 5);
    expect(cache.size).toBe(3);
    expect(cache.has('a')).toBe(true);
    expect(cache.has('e')).toBe(true);
    expect(cache.set('huge', 9, 10)).toBe(false);
    expect(cache.weight).toBe(3);
  });
});
