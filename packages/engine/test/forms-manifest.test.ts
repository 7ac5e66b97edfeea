import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { siteFormsOf } from '../src/forms/index.js';
import { mirror } from '../src/index.js';
import { createMemoryBlobStore } from '../src/storage/memory-blob-store.js';
import type { Manifest } from '../src/types.js';
import { FIXTURES, serveFixture, type FixtureServer, type Handler } from './fixture-server.js';

const servers: FixtureServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

const PAGES: Record<string, string> = {
  '/': `<!doctype html><title>Home</title>
    <a href="/contact">Contact</a> <a href="/about">About</a>
    <form role="search" action="/search" method="get"><input type="search" name="q"></form>`,
  '/contact': `<!doctype html><title>Contact</title>
    <h1>Write to us</h1>
    <form action="contact.php" method="post">
      <input name="name" required><input type="email" name="email" required>
      <textarea name="message"></textarea><button>Send</button>
    </form>
    <form action="/login" method="post"><input name="user"><input type="password" name="pass"></form>`,
  '/about': `<!doctype html><title>About</title><p>No forms here, only the word form.</p>`,
};

/** Pages with validators, so a second run revalidates them (304) and reads them back. */
function pages(): Record<string, Handler> {
  const routes: Record<string, Handler> = {};
  for (const [path, html] of Object.entries(PAGES)) {
    const etag = `"${path.length}-${html.length}"`;
    routes[path] = (req, res) => {
      if (req.headers['if-none-match'] === etag) return void res.writeHead(304, { etag }).end();
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', etag }).end(html);
    };
  }
  return routes;
}

function entry(manifest: Manifest, path: string) {
  const found = manifest.entries.find((e) => e.path === path);
  expect(found, path).toBeDefined();
  return found!;
}

describe('mirror: forms in the manifest', () => {
  it("lists a page's forms on its entry, none on a page without, also after a re-mirror", async () => {
    const site = await serveFixture(null, pages());
    servers.push(site);
    const store = createMemoryBlobStore();
    const options = {
      url: `${site.origin}/`,
      store,
      allowPrivateNetworks: true,
      render: 'never' as const,
    };
    const first = await mirror(options);

    const contact = entry(first, '/contact');
    expect(contact.forms).toEqual([
      {
        id: 'form-1',
        index: 0,
        action: `${site.origin}/contact.php`,
        method: 'POST',
        enctype: 'application/x-www-form-urlencoded',
        fields: [
          { name: 'name', type: 'text', required: true, holds: 'name' },
          { name: 'email', type: 'email', required: true, holds: 'email' },
          { name: 'message', type: 'textarea', required: false, holds: 'message' },
        ],
        kind: 'contact',
        capturable: true,
        sameSite: true,
        serverScript: true,
        submitLabel: 'Send',
      },
      expect.objectContaining({
        id: 'form-2',
        kind: 'login',
        capturable: false,
        refusal: 'password',
      }),
    ]);
    expect(entry(first, '/').forms).toEqual([
      expect.objectContaining({ kind: 'search', action: `${site.origin}/search`, method: 'GET' }),
    ]);
    // No empty arrays in manifests: a page without forms has no field at all.
    expect('forms' in entry(first, '/about')).toBe(false);

    // A re-mirror reads unchanged pages back from the store (304) and lists the same forms.
    const second = await mirror({ ...options, previous: first });
    expect(second.stats.notModified).toBeGreaterThanOrEqual(3);
    for (const path of ['/', '/contact', '/about'])
      expect(entry(second, path).forms, path).toEqual(entry(first, path).forms);
    expect('forms' in entry(second, '/about')).toBe(false);
  });

  it('lists the forms of the rendered DOM for a page the copy keeps as rendered', async () => {
    const send =
      (type: string, body: string): Handler =>
      (_req, res) =>
        void res.writeHead(200, { 'content-type': type }).end(body);
    const site = await serveFixture(null, {
      '/': send(
        'text/html; charset=utf-8',
        `<!doctype html><html><head><title>Quote</title></head><body>
        <form role="search" action="/search"><input type="search" name="q"></form>
        <blockquote id="quote">Loading…</blockquote><div id="signup"></div>
        <script src="/quote.js"></script></body></html>`,
      ),
      // A query that differs on every visit: a replay of the server's HTML cannot show the quote,
      // so the copy keeps the rendered DOM, with the form the script built.
      '/quote.js': send(
        'text/javascript',
        `fetch('/api/quote?at=' + Date.now() + Math.random())
          .then((r) => r.json())
          .then((q) => {
            document.getElementById('quote').textContent = q.text;
            document.getElementById('signup').innerHTML =
              '<h2>Newsletter</h2><form action="/subscribe" method="post"><input type="email" name="email"><button>Subscribe</button></form>';
          })
          .catch(() => {});`,
      ),
      '/api/quote': send(
        'application/json',
        JSON.stringify({
          text: 'Simplicity is prerequisite for reliability, said Dijkstra in 1975.',
        }),
      ),
    });
    servers.push(site);
    const manifest = await mirror({
      url: `${site.origin}/`,
      store: createMemoryBlobStore(),
      allowPrivateNetworks: true,
    });
    const home = entry(manifest, '/');
    expect(home.rendered).toBe(true);
    expect(home.forms).toEqual([
      expect.objectContaining({ kind: 'search', action: `${site.origin}/search` }),
      expect.objectContaining({
        kind: 'newsletter',
        action: `${site.origin}/subscribe`,
        submitLabel: 'Subscribe',
      }),
    ]);
  }, 90_000);

  it('knows, from the render, which forms a script sends, and the copy takes them', async () => {
    // One page, six forms none of which names a method (fixtures/forms-scripted): a listener on
    // the form, jQuery's delegated handler on the document, a React-like root container (with a
    // search form under it), a click listener on a form's button, and a plain GET form no script
    // handles (an analytics-like listener in the capture phase counts for none).
    const site = await serveFixture(path.join(FIXTURES, 'forms-scripted'), {}, { template: false });
    servers.push(site);
    const manifest = await mirror({
      url: `${site.origin}/`,
      store: createMemoryBlobStore(),
      allowPrivateNetworks: true,
      render: 'always',
    });
    const home = entry(manifest, '/');
    expect(home.replayed || home.rendered).toBe(true);
    const scripted = (id: string) => home.forms?.find((f) => f.id === id)?.scriptSubmits ?? false;
    expect(home.forms?.map((f) => [f.id, f.kind, f.method, f.scriptSubmits ?? false])).toEqual([
      ['quote', 'other', 'GET', true],
      ['rsvp', 'other', 'GET', true],
      ['survey', 'other', 'GET', true],
      ['form-4', 'search', 'GET', true],
      ['browse', 'other', 'GET', false],
      ['visit', 'other', 'GET', true],
    ]);
    expect(scripted('browse')).toBe(false);
    // The manifest keeps no `false`: absent unless a script handles the form.
    expect('scriptSubmits' in home.forms!.find((f) => f.id === 'browse')!).toBe(false);

    const captured = Object.fromEntries(siteFormsOf(manifest).map((f) => [f.id, f.captured]));
    expect(captured).toEqual({
      quote: true,
      rsvp: true,
      survey: true,
      // A search form stays a search of the copy; a form no script sends is no submission.
      'form-4': false,
      browse: false,
      visit: true,
    });
  }, 90_000);
});
