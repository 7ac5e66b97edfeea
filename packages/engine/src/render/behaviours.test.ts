import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../../test/browser.js';
import { runBehaviours, type BehaviourOptions, type BehaviourReport } from './behaviours.js';
import { INIT_SCRIPT } from './in-page.js';

interface Site {
  base: string;
  /** `METHOD /path?query` of every request, in order. */
  hits: string[];
  close(): Promise<void>;
}

type Routes = Record<string, string | (() => string)>;

const TYPES: Record<string, string> = {
  '.js': 'text/javascript',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
};

/** Serves `routes` by path (the query is ignored), HTML unless the extension says otherwise. */
async function serve(routes: Routes): Promise<Site> {
  const hits: string[] = [];
  const server = createServer((req, res) => {
    hits.push(`${req.method} ${req.url}`);
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const route = routes[path];
    if (route === undefined) return void res.writeHead(404).end('not found');
    const ext = /\.[a-z]+$/.exec(path)?.[0] ?? '';
    res.writeHead(200, {
      'content-type': TYPES[ext] ?? 'text/html; charset=utf-8',
      'cache-control': 'no-store',
    });
    res.end(typeof route === 'string' ? route : route());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const site: Site = {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    hits,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return site;
}

const page = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body>${body}</body></html>`;

/** Every link prefetches its payload on hover, as Docusaurus or Gatsby do. */
const PREFETCH_ON_HOVER = `<script>
  for (const a of document.querySelectorAll('a[href]'))
    a.addEventListener('mouseenter', () => fetch(a.href + (a.href.includes('?') ? '&' : '?') + 'prefetch').then((r) => r.text()).catch(() => {}));
</script>`;

/** What a client router registers: the page routes on the client. */
const ROUTED = `<script>addEventListener('popstate', () => {});</script>`;

const routes: Routes = {
  // (a) A search dialog whose bundle is imported, from a path built at run time, on typing.
  '/search-dialog/': page(
    'Lighthouse docs',
    `<header><button class="navbar-search" aria-label="Search">Search <kbd>Ctrl K</kbd></button></header>
    <main><h1>Lighthouse keepers</h1>
    <p>A lighthouse guides ships. Every lighthouse has a lamp. The lighthouse keeper trims the lamp.</p></main>
    <div id="dialog" role="dialog" hidden><input id="q" placeholder="Search docs"><ul id="results"></ul></div>
    <script>
      const dialog = document.getElementById('dialog');
      const q = document.getElementById('q');
      document.querySelector('.navbar-search').addEventListener('click', () => { dialog.hidden = false; q.focus(); });
      document.addEventListener('keydown', (e) => { if (e.key === 'Escape') dialog.hidden = true; });
      let engine;
      q.addEventListener('input', () => {
        if (!q.value) return;
        engine = engine || import('/assets/' + ['search', 'bundle'].join('-') + '.js');
        engine.then((m) => m.search(q.value)).then((hits) => { document.getElementById('results').textContent = hits.join(', '); });
      });
    </script>`,
  ),
  '/assets/search-bundle.js': `export async function search(q) {
    const response = await fetch('/search-index.json?q=' + encodeURIComponent(q));
    return response.json();
  }`,
  '/search-index.json': '["Lighthouse keepers"]',

  // (a) A search that only a keyboard shortcut opens (Ctrl+K / ⌘K).
  '/search-shortcut/': page(
    'Gardening',
    `<main><h1>Tomatoes</h1><p>Tomatoes need sun. Water tomatoes daily. Prune tomatoes weekly.</p></main>
    <div id="palette" hidden><input id="box"></div>
    <script>
      const palette = document.getElementById('palette');
      const box = document.getElementById('box');
      document.addEventListener('keydown', (e) => {
        if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === 'k') { e.preventDefault(); palette.hidden = false; box.focus(); }
        if (e.key === 'Escape') palette.hidden = true;
      });
      box.addEventListener('input', () => { if (box.value) import('/assets/' + 'palette' + '.js'); });
    </script>`,
  ),
  '/assets/palette.js': 'export default 1;',

  // (b) Payloads prefetched on hover; the page does not route on the client.
  '/hover/': page(
    'Hover',
    `<nav><a href="/hover/a">Alpha</a> <a href="/hover/b">Beta</a> <a href="/hover/c">Gamma</a></nav>
    <main><p>Intro</p><div style="height: 3000px"></div><a href="/hover/far">Far below</a></main>
    ${PREFETCH_ON_HOVER}`,
  ),
  '/hover/a': page('A', 'a'),
  '/hover/b': page('B', 'b'),
  '/hover/c': page('C', 'c'),
  '/hover/far': page('Far', 'far'),

  // (c) A pushState router that fetches a route's payload on client navigation only.
  '/app/': page(
    'App',
    `<nav><a href="/app/">Home</a> <a href="/app/guide">Guide</a></nav><main id="view">Home view</main>
    <script>
      const view = document.getElementById('view');
      const render = async (path) => {
        if (path === '/app/') { view.textContent = 'Home view'; return; }
        const data = await (await fetch(path + '/payload.json')).json();
        view.textContent = data.title;
      };
      document.addEventListener('click', (e) => {
        const a = e.target.closest('a');
        if (!a || a.origin !== location.origin) return;
        e.preventDefault();
        history.pushState(null, '', a.href);
        render(a.pathname);
      });
      addEventListener('popstate', () => render(location.pathname));
    </script>`,
  ),
  '/app/guide': page('Guide', 'full guide page'),
  '/app/guide/payload.json': '{"title":"Guide view"}',

  // (d) Tabs, a <details> and a menu button that load their content when opened.
  '/widgets/': page(
    'Widgets',
    `<div role="tablist">
      <button role="tab" aria-selected="true" id="t1">Overview</button>
      <button role="tab" aria-selected="false" data-panel="specs">Specs</button>
      <button role="tab" aria-selected="false" data-panel="reviews">Reviews</button>
    </div>
    <div id="panel">Overview text</div>
    <details id="more"><summary>More</summary><div id="more-body"></div></details>
    <button id="menu" aria-expanded="false">Products</button><ul id="menu-list" hidden></ul>
    <script>
      const panel = document.getElementById('panel');
      for (const tab of document.querySelectorAll('[role=tab]')) tab.addEventListener('click', async () => {
        for (const t of document.querySelectorAll('[role=tab]')) t.setAttribute('aria-selected', String(t === tab));
        // The selected tab is kept in the fragment, replacing the history entry.
        history.replaceState(null, '', '#' + (tab.dataset.panel || 'overview'));
        if (!tab.dataset.panel) { panel.textContent = 'Overview text'; return; }
        panel.textContent = (await (await fetch('/tabs/' + tab.dataset.panel + '.json')).json()).text;
      });
      const more = document.getElementById('more');
      more.addEventListener('toggle', () => { if (more.open) fetch('/details/more.json').then((r) => r.text()); });
      const menu = document.getElementById('menu');
      menu.addEventListener('click', () => {
        const open = menu.getAttribute('aria-expanded') !== 'true';
        menu.setAttribute('aria-expanded', String(open));
        document.getElementById('menu-list').hidden = !open;
        if (open) fetch('/menu/items.json').then((r) => r.text());
      });
    </script>`,
  ),
  '/tabs/specs.json': '{"text":"Specs text"}',
  '/tabs/reviews.json': '{"text":"Reviews text"}',
  '/details/more.json': '{}',
  '/menu/items.json': '[]',

  // (e) A theme switch cycling light → dark → system, with a logo per theme.
  '/theme/': `<!doctype html><html data-theme="light" data-theme-choice="light"><head><title>Theme</title></head><body>
    <button id="switch" aria-label="Switch between dark and light mode">◐</button>
    <img id="logo" src="/img/logo-light.svg" alt="logo">
    <script>
      const order = ['light', 'dark', 'system'];
      document.getElementById('switch').addEventListener('click', () => {
        const root = document.documentElement;
        const choice = order[(order.indexOf(root.dataset.themeChoice) + 1) % order.length];
        root.dataset.themeChoice = choice;
        root.dataset.theme = choice === 'dark' ? 'dark' : 'light';
        document.getElementById('logo').src = '/img/logo-' + root.dataset.theme + '.svg';
      });
    </script></body></html>`,
  '/img/logo-light.svg': '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>',
  '/img/logo-dark.svg': '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>',

  // (f) Destructive buttons and a form: never clicked, never submitted.
  '/account/': page(
    'Account',
    `<nav><a href="/logout">Log out</a></nav>
    <button id="del" aria-expanded="false">Delete account</button>
    <button aria-expanded="false" class="btn">Sign out</button>
    <form action="/submitted" method="post">
      <input name="q" placeholder="Search orders">
      <button role="tab" aria-selected="false">Advanced</button>
      <button aria-expanded="false">More options</button>
      <input type="submit" value="Go">
    </form>
    <button aria-expanded="false" id="help">Help topics</button>
    <script>
      document.getElementById('del').addEventListener('click', () => fetch('/api/delete-account', { method: 'POST' }));
      document.querySelector('.btn').addEventListener('click', () => fetch('/api/signout'));
      const help = document.getElementById('help');
      help.addEventListener('click', () => {
        help.setAttribute('aria-expanded', String(help.getAttribute('aria-expanded') !== 'true'));
        fetch('/help.json').then((r) => r.text());
      });
    </script>
    ${PREFETCH_ON_HOVER}${ROUTED}`,
  ),
  '/help.json': '[]',
  '/submitted': page('Submitted', 'submitted'),
  '/logout': page('Logged out', 'bye'),

  // (g) Links that are never followed nor hovered: another origin, a download, a new window.
  '/links/': () =>
    page(
      'Links',
      `<nav>
        <a href="${other.base}/elsewhere">Partner</a>
        <a href="/files/report.zip" download>Download</a>
        <a href="/popup" target="_blank">Popup</a>
        <a href="#section">Section</a>
      </nav><h2 id="section">Section</h2>
      ${PREFETCH_ON_HOVER}${ROUTED}`,
    ),
  '/files/report.zip': 'zip',
  '/popup': page('Popup', 'popup'),

  // (h) A router whose click handler makes a full navigation.
  '/full/': page(
    'Full',
    `<nav><a href="/full/next">Next</a></nav><main>Start page</main>
    <script>
      document.querySelector('a').addEventListener('click', (e) => { e.preventDefault(); location.href = '/full/next?via=script'; });
    </script>${ROUTED}`,
  ),
  '/full/next': page('Next', '<main>Next page</main>'),
};

let browser: Browser;
let site: Site;
let other: Site;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  browser = await launchBrowser();
  site = await serve(routes);
  other = await serve({ '/elsewhere': page('Elsewhere', 'elsewhere') });
});

afterAll(async () => {
  await Promise.all(contexts.map((c) => c.close().catch(() => undefined)));
  await browser?.close();
  await site?.close();
  await other?.close();
});

function sleep(ms: number) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

interface Run {
  page: Page;
  report: BehaviourReport;
  url: string;
  ms: number;
  /** Requests the site saw during the behaviours. */
  hits: string[];
}

/**
 * Loads `path` as the renderer does (its init script, load, network idle), then runs the
 * behaviours with a network-idle wait like the renderer's.
 */
async function behave(
  path: string,
  options: Partial<BehaviourOptions> & { budgetMs?: number; abortAfterMs?: number } = {},
): Promise<Run> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  contexts.push(context);
  await context.addInitScript({ content: INIT_SCRIPT });
  const p = await context.newPage();
  let inFlight = 0;
  let last = Date.now();
  context.on('request', () => {
    inFlight++;
    last = Date.now();
  });
  const done = () => {
    inFlight = Math.max(0, inFlight - 1);
    last = Date.now();
  };
  context.on('requestfinished', done);
  context.on('requestfailed', done);
  const waitForIdle = async () => {
    const until = Date.now() + 3_000;
    while (Date.now() < until) {
      if (inFlight === 0 && Date.now() - last >= 250) return;
      await sleep(25);
    }
  };
  const url = `${site.base}${path}`;
  await p.goto(url, { waitUntil: 'load' });
  await waitForIdle();
  const from = site.hits.length;
  const started = Date.now();
  const { budgetMs = 15_000, abortAfterMs, ...rest } = options;
  if (abortAfterMs !== undefined) {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), abortAfterMs);
    rest.signal = controller.signal;
  }
  const report = await runBehaviours(p, { deadline: started + budgetMs, waitForIdle, ...rest });
  return { page: p, report, url, ms: Date.now() - started, hits: site.hits.slice(from) };
}

describe('runBehaviours', () => {
  it('opens the search, types a frequent word of the page, and closes it', async () => {
    const run = await behave('/search-dialog/');
    expect(run.report.searched).toBe(true);
    expect(run.report.typed).toBe('lighthouse');
    expect(run.hits).toContain('GET /assets/search-bundle.js');
    expect(run.hits).toContain('GET /search-index.json?q=lighthouse');
    expect(await run.page.evaluate('document.getElementById("dialog").hidden')).toBe(true);
    // The serializer keeps form values: the query is emptied again.
    expect(await run.page.evaluate('document.getElementById("q").value')).toBe('');
    expect(run.page.url()).toBe(run.url);
  });

  it('opens a search that only a keyboard shortcut opens', async () => {
    const run = await behave('/search-shortcut/');
    expect(run.report).toMatchObject({ searched: true, typed: 'tomatoes' });
    expect(run.report.shortcuts).toBeGreaterThan(0);
    expect(run.hits).toContain('GET /assets/palette.js');
    expect(await run.page.evaluate('document.getElementById("palette").hidden')).toBe(true);
  });

  it('hovers same-origin links so prefetch-on-hover payloads load, without navigating', async () => {
    const run = await behave('/hover/');
    for (const name of ['a', 'b', 'c']) expect(run.hits).toContain(`GET /hover/${name}?prefetch`);
    // Neither in the viewport nor in navigation.
    expect(run.hits).not.toContain('GET /hover/far?prefetch');
    expect(run.report.hovered).toBe(3);
    // Nothing listens for keys: no search shortcut is pressed (each would wait for an input).
    expect(run.report).toMatchObject({ searched: false, shortcuts: 0 });
    // The page does not route on the client: no link is clicked.
    expect(run.report.navigated).toBe(0);
    expect(run.hits.filter((hit) => /^GET \/hover\/[a-z]+$/.test(hit))).toEqual([]);
    expect(run.page.url()).toBe(run.url);
  });

  it('follows one internal link through the client router and comes back', async () => {
    const run = await behave('/app/');
    expect(run.hits).toContain('GET /app/guide/payload.json');
    // A client route, not a page load.
    expect(run.hits).not.toContain('GET /app/guide');
    expect(run.report.navigated).toBe(1);
    expect(run.page.url()).toBe(run.url);
    expect(await run.page.evaluate('document.getElementById("view").textContent')).toBe(
      'Home view',
    );
  });

  it('opens tabs, details and menus, loading their content, then restores them', async () => {
    const run = await behave('/widgets/');
    for (const file of [
      '/tabs/specs.json',
      '/tabs/reviews.json',
      '/details/more.json',
      '/menu/items.json',
    ])
      expect(run.hits).toContain(`GET ${file}`);
    expect(run.report.opened).toBe(4);
    expect(
      await run.page.evaluate(`[
        document.getElementById('t1').getAttribute('aria-selected'),
        document.getElementById('more').open,
        document.getElementById('menu').getAttribute('aria-expanded'),
      ]`),
    ).toEqual(['true', false, 'false']);
    // The page replaced its own address (no entry pushed): left as it is, and never reloaded.
    expect(run.page.url()).toBe(`${run.url}#overview`);
    expect(run.hits).not.toContain('GET /widgets/');
  });

  it('switches the theme and switches it back, through a three-state cycle', async () => {
    const run = await behave('/theme/');
    expect(run.hits).toContain('GET /img/logo-dark.svg');
    expect(run.report.opened).toBe(1);
    expect(
      await run.page.evaluate(
        '[document.documentElement.dataset.theme, document.documentElement.dataset.themeChoice, document.getElementById("logo").getAttribute("src")]',
      ),
    ).toEqual(['light', 'light', '/img/logo-light.svg']);
  });

  it('never clicks destructive buttons, submits forms or follows a log-out link', async () => {
    const run = await behave('/account/');
    // The harmless menu button is opened: the behaviours did run here.
    expect(run.hits).toContain('GET /help.json');
    expect(run.report.searched).toBe(true);
    // The word typed is a word of the page, not one of its destructive labels.
    expect(run.report.typed).toBe('account');
    for (const hit of run.hits) {
      expect(hit).not.toMatch(/delete-account|signout|submitted|logout/);
      expect(hit).not.toMatch(/^POST/);
    }
    expect(run.report.navigated).toBe(0);
    expect(run.page.url()).toBe(run.url);
  });

  it('never hovers or follows links to other origins, downloads or new windows', async () => {
    const run = await behave('/links/');
    expect(other.hits).toEqual([]);
    expect(run.hits.filter((hit) => /report\.zip|popup/.test(hit))).toEqual([]);
    expect(run.report).toMatchObject({ hovered: 0, navigated: 0 });
    expect(run.page.url()).toBe(run.url);
  });

  it('goes back when a click loads another page', async () => {
    const run = await behave('/full/');
    expect(run.hits).toContain('GET /full/next?via=script');
    expect(run.report.navigated).toBe(1);
    expect(run.page.url()).toBe(run.url);
    expect(await run.page.title()).toBe('Full');
  });

  it('does nothing past the deadline or once aborted', async () => {
    const late = await behave('/widgets/', { deadline: Date.now() - 1 });
    expect(late.report).toEqual({
      searched: false,
      hovered: 0,
      navigated: 0,
      opened: 0,
      shortcuts: 0,
      errors: 0,
    });
    expect(late.hits).toEqual([]);
    const controller = new AbortController();
    controller.abort();
    const aborted = await behave('/widgets/', { signal: controller.signal });
    expect(aborted.report.opened).toBe(0);
    expect(aborted.hits).toEqual([]);
  });

  it('stops at a short deadline or when aborted, and swallows failures of its waits', async () => {
    const short = await behave('/widgets/', { budgetMs: 800 });
    // Waits end at the deadline; the clean-up after it (mouse, focus, scroll) takes 500 ms at most.
    expect(short.ms).toBeLessThan(800 + 2_000);
    // Aborted while it works: it returns at once.
    const aborted = await behave('/widgets/', { abortAfterMs: 500 });
    expect(aborted.ms).toBeLessThan(500 + 1_000);
    // Each widget waits for a quiet network (250 ms) after it opens: a busy machine may open one
    // before the abort, never all four.
    expect(aborted.report.opened).toBeLessThan(4);
    const failing = await behave('/search-dialog/', {
      waitForIdle: () => Promise.reject(new Error('idle failed')),
    });
    expect(failing.report.searched).toBe(true);
    expect(failing.report.errors).toBeGreaterThan(0);
    expect(failing.hits).toContain('GET /assets/search-bundle.js');
  });
});
