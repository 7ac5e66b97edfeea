import type http from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { compareVersions, mirror, type Manifest, type ManifestEntry } from '../src/index.js';
import { createMemoryBlobStore } from '../src/storage/memory-blob-store.js';
import { serveFixture, type FixtureServer } from './fixture-server.js';

// Issue 33: a change report between two mirror runs of an origin that changed (or only seemed to)
// in between, made by the engine's own crawl of a live server.

const servers: FixtureServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

type Route = (req: http.IncomingMessage, res: http.ServerResponse) => void;
const page =
  (body: () => string): Route =>
  (_req, res) =>
    void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(body());
const bytes =
  (type: string, body: () => Buffer): Route =>
  (_req, res) =>
    void res.writeHead(200, { 'content-type': type }).end(body());

const PNG_A = Buffer.from('89504e470d0a1a0a' + 'aa'.repeat(300), 'hex');
const PNG_B = Buffer.from('89504e470d0a1a0a' + 'bb'.repeat(500), 'hex');

/** The site's state, changed by a test between two runs. */
interface SiteState {
  price: string;
  extraPage: 'old' | 'new';
  hero: Buffer;
  heroName: string;
  date: string;
  queryOrder: 'ab' | 'ba';
  nonce: string;
  cssVersion: string;
}

/** Requests of each page so far: its banner rotates on every one. */
const requests = new Map<string, number>();
const BANNERS = ['Free shipping this week', 'New: gift cards', 'Join our newsletter'];

function site(state: SiteState): Record<string, Route> {
  const layout = (title: string, main: string) => {
    const n = (requests.get(title) ?? 0) + 1;
    requests.set(title, n);
    return `<!doctype html><html><head>
    <title>${title}</title><meta name="description" content="${title} at Acme">
    <link rel="stylesheet" href="/app.css?v=${state.cssVersion}">
    <script nonce="${state.nonce}">window.csrf = '${state.nonce}';</script></head><body>
    <div class="promo">${BANNERS[n % BANNERS.length]}</div>
    <div class="hero-carousel"><p>${BANNERS[(n + 1) % BANNERS.length]}</p></div>
    <nav><a href="/">Home</a> <a href="/pricing?utm_source=nav&${state.queryOrder === 'ab' ? 'a=1&b=2' : 'b=2&a=1'}">Pricing</a>
    <a href="/${state.extraPage === 'old' ? 'old-news' : 'blog/new-post'}">News</a></nav>
    <main>${main}</main>
    <form><input type="hidden" name="csrf" value="${state.nonce}"></form>
    <footer>Updated ${state.date} · 1,2${n} views · © 2019–2026 Acme</footer></body></html>`;
  };
  return {
    '/': page(() =>
      layout(
        'Acme',
        `<h1>Acme tools</h1><p>Tools for makers.</p><img src="/img/${state.heroName}" alt="">`,
      ),
    ),
    '/pricing': page(() =>
      layout(
        'Pricing',
        `<h1>Pricing</h1><p>Free costs $0.</p><p>Pro ${state.price} per month, billed monthly.</p>`,
      ),
    ),
    [`/${state.extraPage === 'old' ? 'old-news' : 'blog/new-post'}`]: page(() =>
      layout(
        state.extraPage === 'old' ? 'Old news' : 'A new post',
        '<p>Some words about things.</p>',
      ),
    ),
    '/app.css': bytes('text/css', () => Buffer.from('body { color: #333 }')),
    [`/img/${state.heroName}`]: bytes('image/png', () => state.hero),
  };
}

const initial = (): SiteState => ({
  price: 'costs $7',
  extraPage: 'old',
  hero: PNG_A,
  heroName: 'hero.png',
  date: 'November 28, 2026 at 10:48',
  queryOrder: 'ab',
  nonce: 'n0nce-a1b2c3',
  cssVersion: '111',
});

/** Mirrors the origin as `state` has it now; answers the version as a comparison reads it. */
async function run(origin: FixtureServer) {
  const store = createMemoryBlobStore();
  const manifest: Manifest = await mirror({
    url: `${origin.origin}/`,
    store,
    allowPrivateNetworks: true,
    render: 'never',
  });
  const read = async (hash: string) => {
    const chunks: Uint8Array[] = [];
    for await (const chunk of store.read(hash)) chunks.push(chunk);
    return Buffer.concat(chunks);
  };
  return { manifest, read };
}

/** An origin whose routes follow `state` at every request. */
async function changingOrigin(state: SiteState) {
  const handler: Route = (req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const route = site(state)[url.pathname];
    if (route) route(req, res);
    else res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
  };
  const paths = [
    '/',
    '/pricing',
    '/old-news',
    '/blog/new-post',
    '/app.css',
    '/img/hero.png',
    '/img/hero-2.png',
  ];
  const origin = await serveFixture(null, Object.fromEntries(paths.map((p) => [p, handler])));
  servers.push(origin);
  return origin;
}

const refetch = async (entry: ManifestEntry) => (await fetch(entry.url)).text();

async function twoRuns(change: (state: SiteState) => void) {
  const state = initial();
  const origin = await changingOrigin(state);
  const before = await run(origin);
  change(state);
  const after = await run(origin);
  return compareVersions(before, after, { refetch });
}

describe('a change report between two runs of a live origin', () => {
  it('reports no change when only dates, counters, banners, nonces, query order and tracking moved', async () => {
    const report = await twoRuns((state) => {
      state.date = 'Saturday, November 29, 2026 at 09:12';
      state.nonce = 'n0nce-zz99yy';
      state.queryOrder = 'ba';
      state.cssVersion = '222';
    });
    expect(report.pages.changed).toEqual([]);
    expect(report).toMatchObject({ unchanged: true, summary: 'No changes' });
    expect(report.pages.added).toEqual([]);
    expect(report.assets).toEqual({ added: [], removed: [], changed: [] });
  });

  it('reports an edited price on its page, in context, and nothing else', async () => {
    const report = await twoRuns((state) => {
      state.price = 'now costs $12';
      state.date = 'November 30, 2026 at 08:00';
    });
    expect(report.unchanged).toBe(false);
    // The page as the crawl found it, under the address the navigation links to.
    expect(report.pages.changed.map((p) => p.path)).toEqual(['/pricing?utm_source=nav&a=1&b=2']);
    const pricing = report.pages.changed[0]!;
    expect(pricing).toMatchObject({ title: 'Pricing', wordsAdded: 2, wordsRemoved: 1 });
    const text = pricing.hunks[0]!.map((part) => `${part.op}:${part.text}`);
    // "Pro costs $7 per month" → "Pro now costs $12 per month", word by word, in context.
    expect(text).toEqual([
      'same:Home Pricing News Pricing Free costs $0. Pro',
      'added:now',
      'same:costs',
      'removed:$7',
      'added:$12',
      // Eight words of context either side; a date is one word, shown as the page has it.
      'same:per month, billed monthly. Updated November 30, 2026 at 08:00 …',
    ]);
    expect(report.summary).toBe('1 page changed: /pricing?a=1&b=2 (now costs $12)');
  });

  it('reports a page added and one removed, and the links that changed with them', async () => {
    const report = await twoRuns((state) => {
      state.extraPage = 'new';
    });
    expect(report.pages.added).toEqual([{ path: '/blog/new-post', title: 'A new post' }]);
    expect(report.pages.removed).toEqual([{ path: '/old-news', title: 'Old news' }]);
    // Every page's navigation now links to the new post instead of the old news.
    const home = report.pages.changed.find((p) => p.path === '/')!;
    expect(home.linksAdded).toEqual([expect.stringMatching(/\/blog\/new-post$/)]);
    expect(home.linksRemoved).toEqual([expect.stringMatching(/\/old-news$/)]);
    expect(report.summary).toMatch(/^2 pages changed, 1 added, 1 removed: /);
  });

  it('reports an image whose bytes changed with both sizes, and one shown under a new name', async () => {
    const sameName = await twoRuns((state) => {
      state.hero = PNG_B;
    });
    expect(sameName.pages.changed).toEqual([]);
    expect(sameName.assets.changed).toEqual([
      {
        path: '/img/hero.png',
        contentType: 'image/png',
        sizeBefore: PNG_A.length,
        sizeAfter: PNG_B.length,
      },
    ]);
    expect(sameName.summary).toBe('1 file changed');

    const renamed = await twoRuns((state) => {
      state.hero = PNG_B;
      state.heroName = 'hero-2.png';
    });
    const home = renamed.pages.changed.find((p) => p.path === '/')!;
    expect(home.mediaAdded).toEqual([expect.stringMatching(/\/img\/hero-2\.png$/)]);
    expect(home.mediaRemoved).toEqual([expect.stringMatching(/\/img\/hero\.png$/)]);
    expect(renamed.assets.added.map((a) => a.path)).toEqual(['/img/hero-2.png']);
    expect(renamed.assets.removed.map((a) => a.path)).toEqual(['/img/hero.png']);
  });
});
