import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser } from 'playwright-core';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpClient, type HttpClient } from '../net/http-client.js';
import { createUrlMapper } from '../url-map.js';
import { RENDERED_ATTRIBUTE } from './in-page.js';
import { createRenderer, type RecordedResponse, type Renderer } from './renderer.js';
import { BLOCKED_SOCKET_PATH, runtimeShim, toCopyUrl } from './runtime-shim.js';

const CHROMIUM = '/usr/bin/chromium';
/** Other hosts the copy in '/shim' holds files of. */
const HELD = ['http://other.test:1234', 'https://cdn.other.test'];

const PIXEL = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);
/** An 8×8 picture: big enough to be content. */
const PHOTO = PNG.sync.write(
  Object.assign(new PNG({ width: 8, height: 8 }), { data: Buffer.alloc(8 * 8 * 4, 200) }),
);

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

interface Fixture {
  base: string;
  port: number;
  /** Method and path of every request (and `UPGRADE <path>` for WebSockets), in order. */
  hits: string[];
  count(path: string): number;
  close(): Promise<void>;
}

function send(type: string, body: string | Buffer, delayMs = 0): Handler {
  return (_req, res) => {
    setTimeout(() => {
      res.writeHead(200, { 'content-type': type, 'cache-control': 'no-store' });
      res.end(body);
    }, delayMs);
  };
}

const html = (body: string | ((f: Fixture) => string)) => (f: Fixture) =>
  send('text/html; charset=utf-8', typeof body === 'string' ? body : body(f));

async function serve(
  routes: Record<string, (f: Fixture) => Handler>,
  host = '127.0.0.1',
): Promise<Fixture> {
  const hits: string[] = [];
  const server = createServer((req, res) => {
    hits.push(`${req.method} ${req.url}`);
    const route = routes[req.url ?? ''];
    if (route) route(fixture)(req, res);
    else {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('not found');
    }
  });
  server.on('upgrade', (req, socket) => {
    hits.push(`UPGRADE ${req.url}`);
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const port = (server.address() as AddressInfo).port;
  const fixture: Fixture = {
    base: `http://${host}:${port}`,
    port,
    hits,
    count: (path) => hits.filter((hit) => hit.split(' ')[1] === path).length,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return fixture;
}

const redirect =
  (location: string | ((f: Fixture) => string), status = 302) =>
  (f: Fixture): Handler =>
  (_req, res) => {
    res.writeHead(status, { location: typeof location === 'string' ? location : location(f) });
    res.end();
  };

let site: Fixture;
let other: Fixture;
let renderer: Renderer;
let verifier: Browser;
/** The policy: loopback refused, except the site's own address. */
const client = createHttpClient({ allowAddresses: ['127.0.0.1'] });
const askedUrls: string[] = [];
/** The client, noting every URL the renderer asks it for. */
const noting: HttpClient = {
  request: (url, options) => {
    askedUrls.push(String(url));
    return client.request(url, options);
  },
  close: () => client.close(),
};

const sitePages: Record<string, (f: Fixture) => Handler> = {
  '/spa': html(`<!doctype html><html><head><title>SPA</title></head><body>
    <div id="root"></div><p id="sw">sw:pending</p>
    <script>
      fetch('/api/items.json').then((r) => r.json()).then((items) => {
        const ul = document.createElement('ul');
        for (const item of items) { const li = document.createElement('li'); li.textContent = item.name; ul.append(li); }
        document.getElementById('root').append(ul);
      });
      const sw = (t) => { document.getElementById('sw').textContent = 'sw:' + t; };
      if ('serviceWorker' in navigator) navigator.serviceWorker.register('/sw.js').then(() => sw('registered'), () => sw('refused'));
      else sw('unavailable');
    </script></body></html>`),
  '/api/items.json': () =>
    send('application/json', JSON.stringify([{ name: 'Alpha item' }, { name: 'Beta item' }]), 300),
  '/sw.js': () => send('text/javascript', 'self.addEventListener("fetch", () => {});'),

  '/features':
    html(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Features</title></head><body>
    <div class="box">styled</div>
    <div class="adopted">adopted</div>
    <x-card></x-card>
    <x-secret></x-secret>
    <canvas id="paint" class="chart" width="40" height="20" style="border: 1px solid black"></canvas>
    <form>
      <input id="name" value="initial"><input id="agree" type="checkbox"><input id="pw" type="password">
      <select id="pick"><option>a</option><option>b</option></select><textarea id="note">old note</textarea>
    </form>
    <script>
      const style = document.createElement('style');
      document.head.append(style);
      style.sheet.insertRule('.box { color: rgb(1, 2, 3) }');
      const sheet = new CSSStyleSheet();
      sheet.replaceSync('.adopted { color: rgb(7, 8, 9) }');
      document.adoptedStyleSheets = [sheet];
      customElements.define('x-card', class extends HTMLElement {
        constructor() {
          super();
          const root = this.attachShadow({ mode: 'open' });
          root.innerHTML = '<p class="inner">shadow text</p>';
          const own = new CSSStyleSheet();
          own.replaceSync('.inner { color: rgb(10, 11, 12) }');
          root.adoptedStyleSheets = [own];
        }
      });
      customElements.define('x-secret', class extends HTMLElement {
        constructor() { super(); this.attachShadow({ mode: 'closed' }).innerHTML = '<span>closed text</span>'; }
      });
      const ctx = document.getElementById('paint').getContext('2d');
      ctx.fillStyle = 'rgb(255, 0, 0)';
      ctx.fillRect(0, 0, 40, 20);
      document.getElementById('name').value = 'typed';
      document.getElementById('agree').checked = true;
      document.getElementById('pw').value = 'hunter2';
      document.getElementById('pick').value = 'b';
      document.getElementById('note').value = 'new note';
    </script></body></html>`),

  '/quiet': html(`<!doctype html><html><head><title>Quiet</title></head><body>
    <button id="toggle" aria-expanded="false">Menu</button>
    <nav id="menu" class="closed"><a href="/about">About</a></nav>
    <img src="/quiet.png" alt=""><canvas width="30" height="10"></canvas>
    <script>
      document.getElementById('toggle').addEventListener('click', (event) => {
        const open = document.getElementById('menu').classList.toggle('closed');
        event.target.setAttribute('aria-expanded', String(!open));
      });
    </script></body></html>`),
  '/quiet.png': () => send('image/png', PIXEL),
  '/routed': html(`<!doctype html><html><body><main id="view">Home</main>
    <script>history.pushState({ view: 'inner' }, '', '/routed/inner');</script></body></html>`),
  '/hash': html(`<!doctype html><html><body><main id="view">Home</main>
    <script>window.addEventListener('hashchange', () => {});</script></body></html>`),
  '/built': html(`<!doctype html><html><body><main id="view"><p>Static words stay.</p></main>
    <script>
      const view = document.getElementById('view');
      view.insertAdjacentHTML('beforeend', '<p>Static words stay.</p><p>Three new words</p>' +
        '<p style="display: none">Hidden words never count</p>' +
        '<a href="/next">Next</a><a href="#top">Top</a><img src="/photo.png?v=2" alt="">' +
        // A tracking pixel shows nothing: no evidence.
        '<img src="/lazy.png?v=3" width="1" height="1" alt="">');
    </script></body></html>`),

  '/lazy': html(`<!doctype html><html><body>
    <div style="height: 3000px">tall</div>
    <img id="lazy" data-src="/lazy.png" width="10" height="10" alt="">
    <script>
      new IntersectionObserver((entries, observer) => {
        for (const entry of entries) {
          if (entry.isIntersecting) { entry.target.src = entry.target.dataset.src; observer.unobserve(entry.target); }
        }
      }).observe(document.getElementById('lazy'));
    </script></body></html>`),
  '/lazy.png': () => send('image/png', PIXEL),
  '/photo.png?v=2': () => send('image/png', PHOTO),

  '/policy': html(
    () => `<!doctype html><html><head><link rel="stylesheet" href="/style.css"></head><body>
    <p id="out"></p>
    <img src="${other.base}/pixel.png" alt="">
    <script>
      document.getElementById('out').textContent = 'color:' + getComputedStyle(document.body).color;
      fetch('${other.base}/api').catch(() => {});
      fetch('/bounce').catch(() => {});
    </script></body></html>`,
  ),
  '/style.css': () => send('text/css', 'body { color: rgb(200, 0, 0) }'),
  '/bounce': redirect(() => `${other.base}/secret`),

  '/old': redirect('/new', 301),
  '/new': html(
    `<!doctype html><html><body><p>moved here</p><script src="/r/app.js"></script></body></html>`,
  ),
  '/r/app.js': redirect('/app.js'),
  '/app.js': () => send('text/javascript', 'document.body.dataset.app = "ran";'),
  '/escape': redirect(() => `${other.base}/secret`),

  '/post': html(`<!doctype html><html><body><p id="out"></p><script>
    fetch('/echo', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'hello from the page' })
      .then((r) => r.text()).then((t) => { document.getElementById('out').textContent = 'echo:' + t; });
  </script></body></html>`),
  '/echo': () => (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end(`${req.method} ${Buffer.concat(chunks).toString()}`);
    });
  },

  '/slow': html(
    `<!doctype html><html><body><p id="p">visible before load</p><img src="/hang" alt=""></body></html>`,
  ),
  '/hang': () => () => undefined,

  '/shim': html(`<!doctype html><html><head>
    <script>${runtimeShim('http://example.com', HELD)}</script>
    <script>window.firstFetch = window.fetch;</script>
    <script>${runtimeShim('http://example.com', HELD)}</script>
    </head><body><p id="out"></p>
    <script>
      const xhr = (url) => new Promise((resolve) => {
        const x = new XMLHttpRequest(); x.open('GET', url); x.onloadend = resolve; x.send();
      });
      navigator.sendBeacon('http://tracker.test/beacon', 'x');
      let socketUrl = 'none';
      try { socketUrl = new WebSocket('ws://other.test/socket').url; } catch {}
      Promise.allSettled([
        fetch('http://other.test:1234/a?b'),
        fetch('http://uncaptured.test/api/stars.json'),
        fetch('http://example.com/api/data.json?x=1'),
        fetch(new Request('https://cdn.other.test/r.json')),
        fetch(new URL('/relative', location.href)),
        xhr('http://example.com/xhr?y'),
      ]).then(() => {
        document.getElementById('out').textContent = 'idempotent:' + (window.fetch === window.firstFetch) + ' socket:' + socketUrl;
      });
    </script></body></html>`),
};

const find = (responses: RecordedResponse[], url: string) => responses.find((r) => r.url === url);

beforeAll(async () => {
  site = await serve(sitePages);
  // Another loopback address (Linux routes all of 127/8 to lo): refused by the policy.
  other = await serve(
    {
      '/pixel.png': () => send('image/png', PIXEL),
      '/api': () => send('text/plain', 'x'),
    },
    '127.0.0.3',
  );
  renderer = createRenderer({
    chromiumPath: CHROMIUM,
    timeoutMs: 15_000,
    client: noting,
    captured: async (url) =>
      url === `${site.base}/style.css`
        ? {
            status: 200,
            headers: { 'content-type': 'text/css' },
            body: Buffer.from('body { color: rgb(4, 5, 6) }'),
          }
        : undefined,
  });
  verifier = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu'],
  });
}, 30_000);

afterAll(async () => {
  await renderer?.close();
  await verifier?.close();
  await site?.close();
  await other?.close();
  await client.close();
});

describe('createRenderer', () => {
  it('renders a client-side app and records the API response it read', async () => {
    const result = await renderer.render(`${site.base}/spa`);
    expect(result.html.startsWith('<!DOCTYPE html>')).toBe(true);
    expect(result.html).toContain('<li>Alpha item</li><li>Beta item</li>');
    expect(result.html).toContain(`${RENDERED_ATTRIBUTE}=""`);
    expect(result.html).toContain("fetch('/api/items.json')"); // scripts are kept
    expect(result.finalUrl).toBe(`${site.base}/spa`);
    expect(result.textLength).toBeGreaterThan(10);
    const api = find(result.responses, `${site.base}/api/items.json`);
    expect(api?.status).toBe(200);
    expect(api?.method).toBe('GET');
    expect(api?.resourceType).toBe('fetch');
    expect(api?.headers['content-type']).toBe('application/json');
    expect(JSON.parse(api?.body.toString() ?? 'null')).toHaveLength(2);
    expect(find(result.responses, `${site.base}/spa`)?.resourceType).toBe('document');
    // Each response once.
    const urls = result.responses.map((r) => r.url);
    expect(new Set(urls).size).toBe(urls.length);
    // (f) service workers are blocked.
    expect(site.count('/sw.js')).toBe(0);
    expect(find(result.responses, `${site.base}/sw.js`)).toBeUndefined();
  }, 20_000);

  it('reports the evidence: new requests, text, images, links, shadow roots, styles, canvases', async () => {
    const rendered = await renderer.render(`${site.base}/spa`);
    const spa = rendered.evidence;
    expect(spa.newRequests).toEqual([`${site.base}/api/items.json`]);
    // Whitespace does not count; 'sw:pending' became another word.
    const sw = /sw:\w+/.exec(rendered.html)![0];
    expect(spa.addedText).toBe('AlphaitemBetaitem'.length + sw.length);
    expect(spa).toMatchObject({ addedImages: 0, shadowRoots: 0, clientRouting: false });

    const built = (await renderer.render(`${site.base}/built`)).evidence;
    // Words the static HTML already has count only where they appear more often.
    expect(built.addedText).toBe('Staticwordsstay.ThreenewwordsNextTop'.length);
    expect(built.addedImages).toBe(1);
    expect(built.addedLinks).toEqual([`${site.base}/next`]);

    const features = (await renderer.render(`${site.base}/features`)).evidence;
    expect(features.shadowRoots).toBe(2);
    // An inserted <style> edited through the CSSOM, and three constructed sheets (one adopted by
    // the document, one by a shadow root; the shadow root's own <style> counts as inserted).
    expect(features.insertedStyles).toBeGreaterThanOrEqual(4);
    expect(features.drawnCanvases).toBe(1);
  }, 30_000);

  it('finds no evidence where scripts wait for a click, and sees client routing', async () => {
    const quiet = await renderer.render(`${site.base}/quiet`);
    expect(quiet.evidence).toEqual({
      // quiet.png is a 1×1 pixel: fetched, but no evidence.
      newRequests: [],
      addedText: 0,
      addedImages: 0,
      addedLinks: [],
      shadowRoots: 0,
      insertedStyles: 0,
      drawnCanvases: 0,
      clientRouting: false,
      trackers: [],
    });
    const routed = await renderer.render(`${site.base}/routed`);
    expect(routed.finalUrl).toBe(`${site.base}/routed/inner`);
    expect(routed.evidence.clientRouting).toBe(true);
    // A hashchange listener is a scroll-spy's or a tab's as often as a router's.
    expect((await renderer.render(`${site.base}/hash`)).evidence.clientRouting).toBe(false);
    expect(site.hits.filter((hit) => hit.includes('favicon'))).toEqual([]);
  }, 30_000);

  it('serializes CSSOM rules, adopted sheets, shadow roots, canvases and form state', async () => {
    const { html: out } = await renderer.render(`${site.base}/features`);
    expect(out).toMatch(/<style>\.box \{ color: rgb\(1, 2, 3\); \}<\/style>/);
    expect(out).toMatch(
      /<style data-mirror-adopted="">\.adopted \{ color: rgb\(7, 8, 9\); \}<\/style>/,
    );
    expect(out).toMatch(
      /<x-card><template shadowrootmode="open"><p class="inner">shadow text<\/p><style data-mirror-adopted="">\.inner \{ color: rgb\(10, 11, 12\); \}<\/style><\/template><\/x-card>/,
    );
    expect(out).toContain(
      '<x-secret><template shadowrootmode="closed"><span>closed text</span></template></x-secret>',
    );
    expect(out).not.toContain('<canvas');
    expect(out).toMatch(
      /<img id="paint" class="chart" [^>]*data-mirror-canvas="" [^>]*src="data:image\/png;base64,/,
    );
    expect(out).toContain('value="typed"');
    expect(out).toMatch(/id="agree" type="checkbox" checked=""/);
    expect(out).toContain('<input id="pw" type="password">'); // passwords never written out
    expect(out).toContain('<option selected="">b</option>');
    expect(out).toContain('<textarea id="note">new note</textarea>');

    // The copy, scripts removed, still looks the same in a fresh browser.
    const page = await verifier.newPage();
    try {
      await page.setContent(out.replace(/<script\b[\s\S]*?<\/script>/g, ''));
      const seen = (await page.evaluate(`({
        box: getComputedStyle(document.querySelector('.box')).color,
        adopted: getComputedStyle(document.querySelector('.adopted')).color,
        inner: getComputedStyle(document.querySelector('x-card').shadowRoot.querySelector('.inner')).color,
        img: document.querySelector('#paint').src,
      })`)) as { box: string; adopted: string; inner: string; img: string };
      expect(seen.box).toBe('rgb(1, 2, 3)');
      expect(seen.adopted).toBe('rgb(7, 8, 9)');
      expect(seen.inner).toBe('rgb(10, 11, 12)');
      const png = PNG.sync.read(Buffer.from(seen.img.split(',')[1] ?? '', 'base64'));
      expect([png.width, png.height]).toEqual([40, 20]);
      expect(Array.from(png.data.subarray(0, 4))).toEqual([255, 0, 0, 255]);
    } finally {
      await page.close();
    }
  }, 20_000);

  it('scrolls so lazily loaded images are requested and recorded', async () => {
    const result = await renderer.render(`${site.base}/lazy`);
    expect(site.count('/lazy.png')).toBe(1);
    expect(find(result.responses, `${site.base}/lazy.png`)?.resourceType).toBe('image');
    expect(result.html).toContain('src="/lazy.png"');
  }, 20_000);

  it('serves captured bodies without a request and aborts what the policy refuses', async () => {
    const before = askedUrls.length;
    const result = await renderer.render(`${site.base}/policy`);
    expect(result.html).toContain('color:rgb(4, 5, 6)');
    expect(site.count('/style.css')).toBe(0);
    expect(find(result.responses, `${site.base}/style.css`)).toBeUndefined();
    // Refused directly, and refused at the redirect hop.
    expect(other.hits).toEqual([]);
    const asked = askedUrls.slice(before);
    expect(asked).toContain(`${other.base}/pixel.png`);
    expect(asked).toContain(`${other.base}/api`);
    expect(asked).toContain(`${other.base}/secret`);
    expect(find(result.responses, `${site.base}/bounce`)?.status).toBe(302);
  }, 20_000);

  it('follows redirects hop by hop, each one through the policy', async () => {
    const result = await renderer.render(`${site.base}/old`);
    expect(result.finalUrl).toBe(`${site.base}/new`);
    expect(result.html).toContain('data-app="ran"');
    expect(find(result.responses, `${site.base}/old`)).toMatchObject({
      status: 301,
      headers: { location: '/new' },
    });
    expect(find(result.responses, `${site.base}/r/app.js`)?.status).toBe(302);
    expect(find(result.responses, `${site.base}/app.js`)?.status).toBe(200);
    await expect(renderer.render(`${site.base}/escape`)).rejects.toThrow();
    expect(other.hits).toEqual([]);
  }, 20_000);

  it("replays the page's POSTs with their bodies and records the answers", async () => {
    const result = await renderer.render(`${site.base}/post`);
    expect(result.html).toContain('echo:POST hello from the page');
    expect(find(result.responses, `${site.base}/echo`)).toMatchObject({
      method: 'POST',
      status: 200,
      resourceType: 'fetch',
    });
  }, 20_000);

  it('returns what rendered when a subresource holds the load event back', async () => {
    const quick = createRenderer({
      chromiumPath: CHROMIUM,
      timeoutMs: 6_000,
      client,
      captured: async () => undefined,
    });
    try {
      const started = Date.now();
      const result = await quick.render(`${site.base}/slow`);
      expect(result.html).toContain('visible before load');
      expect(Date.now() - started).toBeLessThan(8_000);
    } finally {
      await quick.close();
    }
  }, 20_000);
});

describe('runtimeShim', () => {
  it('maps URLs exactly as the url map lays out files', () => {
    for (const siteOrigin of ['http://example.com', 'https://www.example.com:8443']) {
      const mapper = createUrlMapper(`${siteOrigin}/start`);
      for (const url of [
        `${siteOrigin}/api/a.json?x=1#frag`,
        'http://other.test:1234/a?b',
        'https://cdn.other.test/lib.js',
        'http://cdn.other.test/lib.js',
        'https://example.com/',
        'http://[::1]:8080/x',
      ]) {
        expect(toCopyUrl(url, siteOrigin), url).toBe(mapper.toCopyPath(new URL(url)));
      }
    }
    expect(toCopyUrl('data:text/plain,hi', 'http://example.com')).toBe('data:text/plain,hi');
  });

  it('is small, self-contained and safe to inline', () => {
    const shim = runtimeShim('https://example.com/</script>', ['https://cdn.example/</script>']);
    expect(shim.length).toBeLessThan(4096);
    expect(shim).not.toMatch(/<\/script/i);
    expect(() => new Function(shim)).not.toThrow();
  });

  it('sends the kept scripts to the copy, never to other hosts', async () => {
    const before = askedUrls.length;
    const result = await renderer.render(`${site.base}/shim`);
    expect(result.html).toContain('idempotent:true');
    // Refused sockets go to a dead path on the copy itself (Chromium never opens WebSockets while
    // rendering, since the document is fulfilled from Node, so only the URL is observable here).
    expect(result.html).toContain(`socket:ws://127.0.0.1:${site.port}${BLOCKED_SOCKET_PATH}`);
    expect(site.hits).toEqual(
      expect.arrayContaining([
        'GET /_x/other.test:1234/a?b',
        'GET /api/data.json?x=1',
        'GET /_x/cdn.other.test/r.json',
        'GET /relative',
        'GET /xhr?y',
      ]),
    );
    const asked = askedUrls.slice(before);
    // A host the copy holds nothing of keeps its address, as uncaptured files do in the rewrite.
    expect(asked.filter((url) => new URL(url).hostname !== '127.0.0.1')).toEqual([
      'http://uncaptured.test/api/stars.json',
    ]);
    expect(site.hits.some((hit) => hit.includes('uncaptured.test'))).toBe(false);
    expect(asked.some((url) => url.includes('tracker.test'))).toBe(false);
  }, 20_000);
});
