import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { mirror } from '../src/index.js';
import { readBlob } from '../src/storage/blob-utils.js';
import { createMemoryBlobStore } from '../src/storage/memory-blob-store.js';
import type { Manifest } from '../src/types.js';
import { serveFixture, type FixtureServer, type Handler } from './fixture-server.js';

const servers: FixtureServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

/** A route answering `body` (a function of the server, for its origin) with a content type. */
function file(
  type: string,
  body: string | Buffer | ((s: FixtureServer) => string | Buffer),
): Handler {
  return (_req, res, server) => {
    const out = typeof body === 'function' ? body(server) : body;
    res.writeHead(200, { 'content-type': type, 'content-length': String(out.length) }).end(out);
  };
}

const page = (body: string, head = '') =>
  file(
    'text/html; charset=utf-8',
    `<!doctype html><html><head><title>t</title>${head}</head><body>${body}</body></html>`,
  );

async function site(routes: Record<string, Handler>): Promise<FixtureServer> {
  const server = await serveFixture(null, routes);
  servers.push(server);
  return server;
}

async function run(server: FixtureServer) {
  const store = createMemoryBlobStore();
  const manifest = await mirror({
    url: `${server.origin}/`,
    store,
    allowPrivateNetworks: true,
    render: 'never',
  });
  return { manifest, store };
}

const entry = (manifest: Manifest, path: string) => manifest.entries.find((e) => e.path === path);
const paths = (manifest: Manifest) => manifest.entries.map((e) => e.path);

describe('site files: robots.txt and sitemaps join the copy', () => {
  it('keeps robots.txt, sitemap.xml, a sitemap index and its gzipped child, fetched once', async () => {
    const urlset = (origin: string, ...pages: string[]) =>
      `<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${pages.map((p) => `<url><loc>${origin}${p}</loc></url>`).join('')}</urlset>`;
    const robots = (s: FixtureServer) =>
      `User-agent: *\nDisallow: /private/\nSitemap: ${s.origin}/sitemap-index.xml\n`;
    const server = await site({
      '/': page('<a href="/about.html">About</a>'),
      '/about.html': page('About'),
      '/deep.html': page('Only the gzipped sitemap lists me'),
      '/robots.txt': file('text/plain; charset=utf-8', robots),
      '/sitemap.xml': file('application/xml', (s) => urlset(s.origin, '/', '/about.html')),
      '/sitemap-index.xml': file(
        'application/xml',
        (s) =>
          `<?xml version="1.0"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>${s.origin}/sitemaps/pages.xml.gz</loc></sitemap></sitemapindex>`,
      ),
      '/sitemaps/pages.xml.gz': file('application/gzip', (s) =>
        gzipSync(urlset(s.origin, '/deep.html')),
      ),
    });
    const { manifest, store } = await run(server);

    for (const path of [
      '/robots.txt',
      '/sitemap.xml',
      '/sitemap-index.xml',
      '/sitemaps/pages.xml.gz',
    ]) {
      expect(entry(manifest, path), path).toMatchObject({ kind: 'asset', status: 200 });
      expect(
        server.requests.filter((r) => r === path),
        path,
      ).toHaveLength(1);
    }
    expect(paths(manifest)).toContain('/deep.html');
    const kept = entry(manifest, '/robots.txt')!;
    expect(kept.contentType).toBe('text/plain; charset=utf-8');
    expect((await readBlob(store, kept.hash)).toString('utf8')).toBe(robots(server));
    const gz = entry(manifest, '/sitemaps/pages.xml.gz')!;
    expect((await readBlob(store, gz.hash))[0]).toBe(0x1f);
    expect(manifest.failures).toEqual([]);
  });

  it('records no failure for a site without robots.txt or a sitemap', async () => {
    const server = await site({ '/': page('<p>Hello</p>') });
    const { manifest } = await run(server);
    expect(server.requests).toEqual(expect.arrayContaining(['/robots.txt', '/sitemap.xml']));
    expect(paths(manifest)).not.toContain('/robots.txt');
    expect(paths(manifest)).not.toContain('/sitemap.xml');
    expect(manifest.failures).toEqual([]);
    expect(manifest.failureCounts ?? {}).toEqual({});
  });

  it('does not keep a page the site answers for sitemap.xml (an app shell)', async () => {
    const shell = page('<div id="app"></div>');
    const server = await site({ '/': shell, '/sitemap.xml': shell, '/robots.txt': shell });
    const { manifest } = await run(server);
    expect(paths(manifest)).not.toContain('/sitemap.xml');
    expect(paths(manifest)).not.toContain('/robots.txt');
    expect(manifest.failures).toEqual([]);
  });
});

describe('site files: feeds and web manifests', () => {
  it('captures the feeds a page names and its web manifest with its icons', async () => {
    const png = Buffer.from('89504e470d0a1a0a', 'hex');
    const server = await site({
      '/': page(
        '<p>Blog</p>',
        [
          '<link rel="alternate" type="application/rss+xml" href="/feed.xml">',
          '<link rel="alternate" type="application/atom+xml" href="/atom.xml">',
          '<link rel="alternate" type="application/feed+json" href="/feed.json">',
          '<link rel="manifest" href="/manifest.json">',
        ].join(''),
      ),
      '/feed.xml': file('application/rss+xml', '<rss version="2.0"><channel></channel></rss>'),
      '/atom.xml': file('application/atom+xml', '<feed xmlns="http://www.w3.org/2005/Atom"/>'),
      '/feed.json': file('application/feed+json', '{"version":"https://jsonfeed.org/version/1.1"}'),
      // Served as plain JSON, with the icon's address absolute: the copy's must be its own.
      '/manifest.json': (req, res) =>
        void res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(
            `{"name":"Blog","icons":[{"src":"http://${req.headers.host}/icons/192.png","sizes":"192x192"}]}`,
          ),
      '/icons/192.png': file('image/png', png),
    });
    const { manifest, store } = await run(server);
    const webManifest = manifest.entries.find((e) => e.path === '/manifest.json')!;
    expect(
      JSON.parse((await readBlob(store, webManifest.hash)).toString('utf8')).icons[0].src,
    ).toBe('/icons/192.png');
    expect(paths(manifest)).toEqual(
      expect.arrayContaining([
        '/feed.xml',
        '/atom.xml',
        '/feed.json',
        '/manifest.json',
        '/icons/192.png',
      ]),
    );
    expect(manifest.failures).toEqual([]);
  });
});

describe('site files: paths named by scripts are guessed', () => {
  it('captures the files path strings name, and counts missed guesses in a note, not as failures', async () => {
    const js = 'text/javascript; charset=utf-8';
    const json = 'application/json';
    const server = await site({
      '/': page(
        '<a href="/guide/intro.html">Guide</a><script src="/app.js"></script>',
        [
          '<link rel="modulepreload" href="/assets/guide.md.Bx4p6Wjv.lean.js">',
          '<script id="__config" type="application/json">{"base": ".", "search": "assets/workers/search.f8cc74c7.min.js"}</script>',
          '<script>window.__data = "/inline/data.json"</script>',
        ].join(''),
      ),
      '/guide/intro.html': page(
        '<p>Intro</p><script src="/app.js"></script><script>load("search/search_index.json")</script>',
      ),
      '/app.js': file(
        js,
        [
          'const index = new URL("search/search_index.json", config.base);',
          'const missing = "/missing/guess.json", shell = "/spa/shell.json", moved = "/moved.json";',
          'const items = `/data/items.json`, page = "/other.html";',
        ].join('\n'),
      ),
      '/search/search_index.json': file(json, '{"docs":[]}'),
      '/assets/workers/search.f8cc74c7.min.js': file(js, 'self.onmessage = () => {};'),
      '/inline/data.json': file(json, '[]'),
      '/data/items.json': file(json, '[1]'),
      '/assets/guide.md.Bx4p6Wjv.lean.js': file(js, 'export default {};'),
      '/assets/guide.md.Bx4p6Wjv.js': file(js, 'export default { full: true };'),
      '/spa/shell.json': page('<div id="app"></div>'),
      '/moved.json': (_req, res) => void res.writeHead(302, { location: '/' }).end(),
    });
    const { manifest } = await run(server);

    expect(paths(manifest)).toEqual(
      expect.arrayContaining([
        '/search/search_index.json',
        '/assets/workers/search.f8cc74c7.min.js',
        '/inline/data.json',
        '/data/items.json',
        '/assets/guide.md.Bx4p6Wjv.js',
      ]),
    );
    for (const path of ['/missing/guess.json', '/spa/shell.json', '/moved.json', '/other.html'])
      expect(paths(manifest), path).not.toContain(path);
    expect(server.requests).toContain('/missing/guess.json');
    expect(server.requests).not.toContain('/other.html');
    // A relative string is tried against the page too (/guide/intro.html's inline script).
    expect(server.requests).toContain('/guide/search/search_index.json');
    expect(manifest.failures).toEqual([]);
    expect(manifest.failureCounts ?? {}).toEqual({});
    const note = manifest.notes.find((n) => n.startsWith('Guessed '));
    expect(note).toMatch(/: 5 captured, 4 not found \(guesses, not failures\)\.$/);
  });

  it('queues at most 50 guesses from one document', async () => {
    const names = Array.from({ length: 80 }, (_, i) => `"/many/${i}.json"`).join(',');
    const server = await site({
      '/': page('<script src="/bundle.js"></script>'),
      '/bundle.js': file('text/javascript', `const files = [${names}];`),
    });
    const { manifest } = await run(server);
    const asked = server.requests.filter((r) => r.startsWith('/many/'));
    expect(asked).toHaveLength(50);
    expect(manifest.failures).toEqual([]);
    expect(manifest.notes.find((n) => n.startsWith('Guessed '))).toMatch(
      /Guessed 50 files .*: 0 captured, 50 not found .* 30 more were past the limits/,
    );
  });
});
