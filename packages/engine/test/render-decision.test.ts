import fs from 'node:fs';
import type http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { exportStatic, mirror } from '../src/index.js';
import { createMemoryBlobStore } from '../src/storage/memory-blob-store.js';
import type { Manifest, MirrorOptions } from '../src/types.js';
import { launchBrowser, pixelDifference, visit } from './browser.js';
import { countingChromium } from './counting-chromium.js';
import { FIXTURES, serveDirectory, serveFixture, type FixtureServer } from './fixture-server.js';

// 'auto' rendering decides on evidence, per template: which pages were rendered, how many times
// Chromium was started, and why, for sites built to need it or not.

const servers: FixtureServer[] = [];
const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
  dirs.splice(0).forEach((d) => fs.rmSync(d, { recursive: true, force: true }));
});

function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mirror-render-'));
  dirs.push(dir);
  return dir;
}

const send =
  (type: string, body: string) => (_req: http.IncomingMessage, res: http.ServerResponse) =>
    void res.writeHead(200, { 'content-type': type }).end(body);
const html = (body: string) => send('text/html; charset=utf-8', body);
const js = (code: string) => send('text/javascript', code);

/** Pages /p1.html … /pN.html of one template, each linking to all the others. */
function pagesOf(count: number, head: string, body: (n: number) => string) {
  const links = Array.from({ length: count }, (_, i) => `<a href="/p${i + 1}.html">${i + 1}</a>`);
  const routes: Record<string, ReturnType<typeof send>> = {};
  for (let n = 1; n <= count; n++) {
    routes[`/p${n}.html`] = html(
      `<!doctype html><html><head><title>Page ${n}</title>${head}</head><body>` +
        `<nav class="menu"><button class="menu-toggle">Menu</button>${links.join(' ')}</nav>` +
        `<main><h1>Page ${n}</h1>${body(n)}</main></body></html>`,
    );
  }
  return routes;
}

async function site(routes: Record<string, ReturnType<typeof send>>) {
  const server = await serveFixture(null, routes);
  servers.push(server);
  return server;
}

async function run(url: string, options: Partial<MirrorOptions> = {}) {
  const chromium = countingChromium(tempDir());
  const manifest = await mirror({
    url,
    store: createMemoryBlobStore(),
    allowPrivateNetworks: true,
    chromiumPath: chromium.path,
    ...options,
  });
  return { manifest, launches: chromium.launches() };
}

const pageEntries = (manifest: Manifest) =>
  manifest.entries.filter((e) => e.kind === 'page' && e.status === 200);

const ANALYTICS = `window.dataLayer = window.dataLayer || [];
function gtag() { dataLayer.push(arguments); }
gtag('js', Date.now());
gtag('config', 'G-TEST');
addEventListener('pagehide', function () { navigator.sendBeacon('/collect', JSON.stringify(dataLayer)); });`;

const MENU = `document.querySelector('.menu-toggle').addEventListener('click', function () {
  document.querySelector('.menu').classList.toggle('open');
});`;

describe("'auto' rendering on evidence", () => {
  it('never starts Chromium for a static site whose scripts only count visits and toggle a menu', async () => {
    const origin = await site({
      ...pagesOf(
        6,
        '<script async src="/analytics.js"></script><script defer src="/menu.js"></script>',
        (n) => `<p>Plain text of page ${n}, written on the server.</p>`,
      ),
      '/analytics.js': js(ANALYTICS),
      '/menu.js': js(MENU),
    });
    const { manifest, launches } = await run(`${origin.origin}/p1.html`);
    expect(launches).toBe(0);
    expect(manifest.stats.rendered).toBe(0);
    const pages = pageEntries(manifest);
    expect(pages).toHaveLength(6);
    for (const page of pages) {
      expect(page.rendered).toBeUndefined();
      expect(page.renderReason).toMatch(/^not rendered: no script could request files/);
    }
    expect(new Set(pages.map((p) => p.renderTemplate)).size).toBe(1);
    expect(manifest.notes).toContain(
      'Rendered 0 of 6 pages with scripts; 1 template: 0 showed evidence, 0 showed none, 1 cannot need a render (static scan).',
    );
  });

  it('never starts Chromium for scripts the crawl could not fetch (an origin failing, or gone mid-run)', async () => {
    // Each page loads a script of its own (a template each), and every script fails: one answers
    // 500, the next closes the connection without an answer.
    const routes = pagesOf(12, '', (n) => `<script src="/s${n}.js"></script><p>Page ${n}</p>`);
    for (let n = 1; n <= 12; n++)
      routes[`/s${n}.js`] = (req, res) =>
        n % 2 === 0 ? void res.writeHead(500).end('down') : void req.socket.destroy();
    const origin = await site(routes);
    const { manifest, launches } = await run(`${origin.origin}/p1.html`);
    expect(launches).toBe(0);
    expect(pageEntries(manifest)).toHaveLength(12);
    expect(manifest.stats.rendered).toBe(0);
    expect(manifest.failures.filter((f) => /\/s\d+\.js$/.test(f.url))).toHaveLength(12);
  });

  /**
   * Pages of one template whose script fetches the page's item from an API: more than the samples
   * a template is given (DEFAULTS.renderSamples) and the quiet renders that end a template's
   * renders (DEFAULTS.renderQuietPages), several times over. Each is a render in Chromium.
   */
  const FETCHING_PAGES = 12;
  async function fetchingSite() {
    const routes = pagesOf(
      FETCHING_PAGES,
      '<script defer src="/item.js"></script>',
      () => '<section id="item">Loading…</section>',
    );
    for (let n = 1; n <= FETCHING_PAGES; n++)
      routes[`/api/p${n}.json`] = send(
        'application/json',
        JSON.stringify({ name: `Item ${n}`, price: n * 3 }),
      );
    routes['/item.js'] = js(`var id = location.pathname.split('/').pop().replace('.html', '');
fetch('/api/' + id + '.json').then(function (r) { return r.json(); }).then(function (item) {
  document.getElementById('item').textContent = item.name + ' costs ' + item.price + ' euros';
});`);
    return site(routes);
  }

  it('renders every page of a template whose script fetches data', async () => {
    const origin = await fetchingSite();
    const { manifest, launches } = await run(`${origin.origin}/p1.html`);
    const pages = pageEntries(manifest);
    expect(pages).toHaveLength(FETCHING_PAGES);
    expect(manifest.stats.rendered).toBe(FETCHING_PAGES);
    // Each page fetches an item of its own: every page is rendered for its response, and its copy
    // keeps the server's HTML, which the kept script fills in from that response.
    expect(pages.every((p) => p.replayed && !p.rendered)).toBe(true);
    expect(new Set(pages.map((p) => p.renderTemplate)).size).toBe(1);
    for (let n = 1; n <= FETCHING_PAGES; n++)
      expect(manifest.entries.map((e) => e.path)).toContain(`/api/p${n}.json`);
    const sample = pages.filter((p) => p.renderReason?.includes('sampled for its template'));
    expect(sample).toHaveLength(1);
    expect(sample[0]!.renderReason).toMatch(
      /^rendered \(sampled for its template: item\.js could request files, change what a visitor sees; kept as the server sent it \(0\.0% of the first screen differs, text 100% alike\)\): fetched 1 file the crawl had not found \(p\d+\.json\)/,
    );
    expect(launches).toBe(1);
  }, 180_000);

  it('renders no more pages than maxPages allows', async () => {
    const origin = await fetchingSite();
    const { manifest } = await run(`${origin.origin}/p1.html`, { maxPages: 4 });
    expect(pageEntries(manifest)).toHaveLength(4);
    expect(manifest.stats.rendered).toBe(4);
    expect(manifest.failureCounts?.limit).toBe(FETCHING_PAGES - 4);
  }, 60_000);

  it('renders one sample of a template whose scripts wait for a click, and no other page', async () => {
    const origin = await site({
      ...pagesOf(
        30,
        '<script async src="/analytics.js"></script><script defer src="/menu.js"></script>' +
          '<script defer src="/year.js"></script>',
        (n) => `<p>Server-written text of page ${n}.</p><footer>© <span id="year"></span></footer>`,
      ),
      '/analytics.js': js(ANALYTICS),
      // setAttribute could set a src: the scan says "could", only a render can tell it did not.
      '/menu.js':
        js(`document.querySelector('.menu-toggle').addEventListener('click', function (e) {
  var open = document.querySelector('.menu').classList.toggle('open');
  e.target.setAttribute('aria-expanded', String(open));
});`),
      // A stamp: below the threshold, and the kept script writes it again in the copy.
      '/year.js': js(`document.getElementById('year').textContent = new Date().getFullYear();`),
    });
    const { manifest, launches } = await run(`${origin.origin}/p1.html`);
    const pages = pageEntries(manifest);
    expect(pages).toHaveLength(30);
    expect(manifest.stats.rendered).toBe(0);
    const sampled = pages.filter((p) => p.renderReason?.includes('sampled for its template'));
    expect(sampled.map((p) => p.renderReason)).toEqual([
      'not rendered (sampled for its template: menu.js could request files): added 4 characters of text',
    ]);
    const others = pages.filter((p) => p !== sampled[0]);
    expect(others).toHaveLength(29);
    for (const page of others)
      expect(page.renderReason).toBe(
        `not rendered: ${sampled[0]!.path}, the sample of its template, showed no evidence`,
      );
    expect(launches).toBe(1);
    expect(manifest.notes).toContain(
      'Rendered 0 of 30 pages with scripts; 1 template: 0 showed evidence, 1 showed none, 0 cannot need a render (static scan).',
    );
  }, 120_000);

  it('does not render a page for client routing alone, and says so', async () => {
    const origin = await site({
      '/': html(`<!doctype html><html><head><title>Router</title></head><body>
        <main id="view"><h1>Home</h1><p>Welcome to the app.</p></main>
        <script>
          if (location.pathname === '/') history.pushState({ view: 'home' }, '', '/home');
        </script></body></html>`),
    });
    const { manifest } = await run(`${origin.origin}/`, { maxDepth: 0 });
    const home = manifest.entries.find((e) => e.path === '/')!;
    // The copy keeps the script: it routes there as it does on the site.
    expect(home.rendered).toBeUndefined();
    expect(home.clientRouted).toBe(true);
    expect(home.renderReason).toBe(
      'not rendered (sampled for its template: inline scripts could route on the client): ' +
        'made no new request and changed nothing a visitor sees (routes on the client)',
    );
  }, 60_000);
});

describe('what the copy of a rendered page keeps', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  /** The export of a run, served on its own, the original stopped. */
  async function exported(manifest: Manifest, store: ReturnType<typeof createMemoryBlobStore>) {
    const out = tempDir();
    await exportStatic(manifest, store, out);
    const copy = await serveDirectory(out);
    servers.push(copy);
    return copy;
  }

  it("replays a client-rendered app from the server's HTML, so it mounts once and still works", async () => {
    const todos = ['Water the tomatoes', 'Return the library books', 'Call the plumber back'];
    const origin = await site({
      '/': html(`<!doctype html><html><head><title>Todos</title></head><body>
        <div id="app"></div><script src="/app.js"></script></body></html>`),
      // Appends its list to the root, as Svelte and Vue apps mount: over a snapshot of itself it
      // would show every todo twice.
      '/app.js': js(`fetch('/api/todos.json').then((r) => r.json()).then((todos) => {
  const root = document.getElementById('app');
  const list = document.createElement('ul');
  list.className = 'todos';
  const add = (text) => { const li = document.createElement('li'); li.textContent = text; list.appendChild(li); };
  todos.forEach(add);
  const field = document.createElement('input');
  field.setAttribute('aria-label', 'New todo');
  field.addEventListener('keydown', (e) => { if (e.key === 'Enter') { add(field.value); field.value = ''; } });
  root.append(field, list);
});`),
      '/api/todos.json': send('application/json', JSON.stringify(todos)),
    });
    const store = createMemoryBlobStore();
    const manifest = await mirror({ url: `${origin.origin}/`, store, allowPrivateNetworks: true });
    const home = manifest.entries.find((e) => e.path === '/')!;
    expect(home.replayed).toBe(true);
    expect(home.rendered).toBeUndefined();
    expect(home.renderReason).toMatch(/kept as the server sent it \(0\.0% of the first screen/);
    expect(manifest.entries.map((e) => e.path)).toContain('/api/todos.json');

    await origin.close();
    const copy = await exported(manifest, store);
    const page = await browser.newPage();
    try {
      await page.goto(`${copy.origin}/`);
      await page.getByLabel('New todo').fill('Buy milk');
      await page.getByLabel('New todo').press('Enter');
      expect(await page.locator('ul.todos').count()).toBe(1);
      expect(await page.locator('ul.todos li').allTextContents()).toEqual([...todos, 'Buy milk']);
    } finally {
      await page.close();
    }
  }, 90_000);

  it('keeps the rendered DOM when a replay cannot show what the render showed', async () => {
    const quote = 'Simplicity is prerequisite for reliability, said Dijkstra in 1975.';
    const origin = await site({
      '/': html(`<!doctype html><html><head><title>Quote</title></head><body>
        <blockquote id="quote">Loading…</blockquote><script src="/quote.js"></script></body></html>`),
      // A query that differs on every visit: no recorded response answers it in the copy.
      '/quote.js': js(`fetch('/api/quote?at=' + Date.now() + Math.random())
  .then((r) => r.json())
  .then((q) => { document.getElementById('quote').textContent = q.text; })
  .catch(() => {});`),
      '/api/quote': send('application/json', JSON.stringify({ text: quote })),
    });
    const store = createMemoryBlobStore();
    const manifest = await mirror({ url: `${origin.origin}/`, store, allowPrivateNetworks: true });
    const home = manifest.entries.find((e) => e.path === '/')!;
    expect(home.rendered).toBe(true);
    expect(home.replayed).toBeUndefined();
    expect(home.renderReason).toMatch(
      /kept as rendered \(replayed: [\d.]+% of the first screen differs, text \d+% alike; as rendered: 0\.0% of the first screen differs, text 100% alike\)/,
    );

    await origin.close();
    const copy = await exported(manifest, store);
    const page = await browser.newPage();
    try {
      await page.goto(`${copy.origin}/`);
      await expect.poll(() => page.locator('#quote').textContent()).toBe(quote);
    } finally {
      await page.close();
    }
  }, 90_000);

  it("keeps the original address of another host's files that failed while rendering", async () => {
    // A third party (a profile API and its avatars) that fails while the copy is made, and works
    // again when the copy is viewed.
    let failing = true;
    const profile = JSON.stringify({
      name: 'Ada Lovelace',
      bio: 'Wrote the first program in 1843.',
    });
    const third = await site({
      '/api/profile.json': (_req, res) =>
        failing
          ? void res.writeHead(503).end()
          : void res
              .writeHead(200, {
                'content-type': 'application/json',
                'access-control-allow-origin': '*',
              })
              .end(profile),
    });
    const origin = await site({
      '/': html(`<!doctype html><html><head><title>Team</title></head><body>
        <ul id="team"></ul><p id="profile">…</p><script src="/team.js"></script></body></html>`),
      '/team.js': js(`fetch('/api/team.json').then((r) => r.json()).then((team) => {
  document.getElementById('team').innerHTML = team.map((m) => '<li>' + m + '</li>').join('');
});
fetch('${third.origin}/api/profile.json').then((r) => r.json())
  .then((p) => { document.getElementById('profile').textContent = p.name + ': ' + p.bio; })
  .catch(() => {});`),
      '/api/team.json': send(
        'application/json',
        JSON.stringify(['Grace Hopper, compilers', 'Margaret Hamilton, flight software']),
      ),
    });
    const store = createMemoryBlobStore();
    const manifest = await mirror({ url: `${origin.origin}/`, store, allowPrivateNetworks: true });
    expect(manifest.stats.rendered).toBe(1);
    expect(manifest.entries.some((e) => e.url.startsWith(third.origin))).toBe(false);

    await origin.close();
    failing = false;
    const copy = await exported(manifest, store);
    const page = await browser.newPage();
    const requested: string[] = [];
    page.on('request', (request) => requested.push(request.url()));
    try {
      await page.goto(`${copy.origin}/`);
      await expect
        .poll(() => page.locator('#profile').textContent())
        .toBe('Ada Lovelace: Wrote the first program in 1843.');
      expect(requested).toContain(`${third.origin}/api/profile.json`);
      expect(requested.filter((url) => url.includes('/_x/'))).toEqual([]);
    } finally {
      await page.close();
    }
  }, 90_000);

  it('renders no page of a docs site whose scripts are analytics, a tracking pixel and a scroll-spy', async () => {
    // Google Analytics' collector, answered here (the run maps its name to this server).
    const collector = await site({
      '/g/collect': send('image/gif', 'GIF89a'),
    });
    const port = new URL(collector.origin).port;
    const origin = await site({
      ...pagesOf(
        30,
        '<script async src="/analytics.js"></script><script defer src="/spy.js"></script>',
        (n) =>
          `<h2 id="install">Install</h2><p>Section one of page ${n}.</p>` +
          `<h2 id="usage">Usage</h2><p>Section two of page ${n}.</p>`,
      ),
      '/analytics.js':
        js(`new Image().src = 'http://www.google-analytics.com:${port}/g/collect?v=2&dl=' + encodeURIComponent(location.href);
var pixel = document.createElement('img');
pixel.src = '/pixel.gif'; pixel.width = 1; pixel.height = 1; pixel.alt = '';
document.body.appendChild(pixel);`),
      '/pixel.gif': send(
        'image/gif',
        Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64').toString(
          'latin1',
        ),
      ),
      '/spy.js': js(`addEventListener('hashchange', function () { mark(location.hash); });
function mark(hash) {
  document.querySelectorAll('nav a').forEach(function (a) { a.classList.toggle('active', a.hash === hash); });
}
addEventListener('scroll', function () {
  var heads = document.querySelectorAll('h2[id]');
  var current = heads[0];
  heads.forEach(function (h) { if (h.getBoundingClientRect().top < 100) current = h; });
  if (current) history.replaceState(null, '', '#' + current.id);
});`),
    });
    const { manifest, launches } = await run(`${origin.origin}/p1.html`, {
      resolve: async () => ['127.0.0.1'],
    });
    const pages = pageEntries(manifest);
    expect(pages).toHaveLength(30);
    const sampled = pages.filter((p) => p.renderReason?.includes('sampled for its template'));
    expect(sampled).toHaveLength(1);
    expect(sampled[0]!.renderReason).toBe(
      'not rendered (sampled for its template: analytics.js could request files, change what a visitor sees): ' +
        'made no new request and changed nothing a visitor sees; trackers left out: Google Analytics',
    );
    expect(manifest.stats.rendered).toBe(0);
    expect(collector.requests.some((r) => r.startsWith('/g/collect'))).toBe(true);
    expect(launches).toBe(1);
  }, 120_000);
});

describe('js-fetch-grid: a product grid fetched as JSON, then its images', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('is rendered though the text it adds is short, and the export shows the grid offline', async () => {
    const dir = path.join(FIXTURES, 'js-fetch-grid');
    const products = JSON.parse(fs.readFileSync(path.join(dir, 'products.json'), 'utf8')) as {
      name: string;
      image: string;
    }[];
    // The names are all the text the grid adds: far below the old rule's `textLength * 1.5 + 200`.
    expect(products.map((p) => p.name).join(' ').length).toBeLessThan(50);
    const origin = await serveFixture(dir, {}, { template: false });
    servers.push(origin);
    const store = createMemoryBlobStore();
    const manifest = await mirror({ url: origin.origin, store, allowPrivateNetworks: true });
    const home = manifest.entries.find((e) => e.path === '/')!;
    expect(home.replayed).toBe(true);
    expect(manifest.stats.rendered).toBe(1);
    // products.json is a path string of grid.js: the crawl guessed it, so only the images count.
    expect(home.renderReason).toMatch(
      /fetched 12 files the crawl had not found \(p01\.png, p02\.png, p03\.png, …\)/,
    );
    const paths = manifest.entries.map((e) => e.path);
    expect(paths).toContain('/products.json');
    for (const p of products) expect(paths).toContain(`/${p.image}`);
    expect(manifest.notes.join('\n')).toMatch(
      /^Rendered 1 of 1 pages with scripts; 1 template: 1 showed evidence/m,
    );

    const original = await visit(browser, `${origin.origin}/`, [origin.origin]);
    const out = tempDir();
    await exportStatic(manifest, store, out);
    await origin.close();
    const copy = await serveDirectory(out);
    servers.push(copy);
    const result = await visit(browser, `${copy.origin}/`, [copy.origin]);
    const difference = pixelDifference(original.screenshot, result.screenshot);
    expect(result.failed).toEqual([]);
    expect(result.foreign).toEqual([]);
    expect(difference, `differs by ${(difference * 100).toFixed(2)}%`).toBeLessThanOrEqual(0.005);
  }, 60_000);
});
