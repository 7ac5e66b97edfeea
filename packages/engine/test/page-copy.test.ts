import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { mirror } from '../src/index.js';
import { FORM_MARK_TAG } from '../src/forms/mark-forms.js';
import { readBlob } from '../src/storage/blob-utils.js';
import { createMemoryBlobStore } from '../src/storage/memory-blob-store.js';
import type { BlobStore, Manifest } from '../src/types.js';
import { serveFixture, type FixtureServer, type Handler } from './fixture-server.js';

// The crawl makes each page's copy as it reads the page, on a guess of which files of other hosts
// the copy will hold; the rewrite keeps that copy only when the crawl's end bears the guess out.
// These pages are read before the crawl knows what their references to another host come to.

const servers: FixtureServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

/** A page with a validator: a second run revalidates it (304) and reads it back from the store. */
const html =
  (body: (cdn: string) => string, cdn: () => string): Handler =>
  (req, res) => {
    const page = `<!doctype html><html><head><title>T</title></head><body>${body(cdn())}</body></html>`;
    const etag = `"${createHash('sha256').update(page).digest('hex').slice(0, 16)}"`;
    if (req.headers['if-none-match'] === etag) return void res.writeHead(304, { etag }).end();
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', etag }).end(page);
  };

async function serveSites() {
  const cdn = await serveFixture(null, {
    '/ok.css': (_req, res) => void res.writeHead(200, { 'content-type': 'text/css' }).end('p{}'),
    // gone.css answers 404: the copy keeps its address.
    '/framed.html': html(
      () => '<p>Framed</p>',
      () => '',
    ),
  });
  servers.push(cdn);
  const at = () => cdn.origin;
  const site = await serveFixture(null, {
    '/': html(
      (c) => `<link rel="stylesheet" href="${c}/ok.css"><link rel="stylesheet" href="${c}/gone.css">
        <a href="https://example.invalid/x">Elsewhere</a>
        <a href="/links.html">Links</a> <a href="/contact.html">Contact</a>`,
      at,
    ),
    // Read before the crawl knows of /frames.html, which has it fetch framed.html.
    '/links.html': html(
      (c) => `<link rel="stylesheet" href="${c}/ok.css"><a href="${c}/framed.html#top">Framed</a>
        <a href="/frames.html">Frames</a>`,
      at,
    ),
    '/frames.html': html(
      (c) => `<iframe src="${c}/framed.html"></iframe><a href="/links.html">Links</a>`,
      at,
    ),
    // Every guess holds: the copy made on reading is the one kept.
    '/contact.html': html(
      (c) => `<link rel="stylesheet" href="${c}/ok.css"><a href="https://example.invalid/y">Map</a>
        <form action="/send.php" method="post"><input name="email" type="email"><textarea name="message"></textarea><button>Send</button></form>`,
      at,
    ),
  });
  servers.push(site);
  return { site, cdn };
}

async function page(store: BlobStore, manifest: Manifest, path: string): Promise<string> {
  const entry = manifest.entries.find((e) => e.path === path);
  expect(entry, path).toBeDefined();
  return (await readBlob(store, entry!.hash)).toString('utf8');
}

describe('mirror: pages copied as they are read', () => {
  it("points each page's references where the crawl's end puts them, whatever it guessed", async () => {
    const { site, cdn } = await serveSites();
    const store = createMemoryBlobStore();
    const references = new Map<string, ReadonlySet<string>>();
    const manifest = await mirror({
      url: `${site.origin}/`,
      store,
      allowPrivateNetworks: true,
      render: 'never',
      markForms: true,
      onDocumentReferences: (path, copyPaths) => references.set(path, copyPaths),
    });
    const foreign = `/_x/${cdn.host}`;

    const home = await page(store, manifest, '/');
    expect(home).toContain(`href="${foreign}/ok.css"`);
    // Guessed held (a style sheet the crawl fetches), but it answered 404.
    expect(home).toContain(`href="${cdn.origin}/gone.css"`);
    expect(home).toContain('href="https://example.invalid/x"');
    expect([...references.get('/')!].sort()).toEqual(
      ['/contact.html', '/links.html', `${foreign}/ok.css`].sort(),
    );

    // Guessed lacked (a link elsewhere), but a page read later framed it: the copy holds it.
    const links = await page(store, manifest, '/links.html');
    expect(links).toContain(`href="${foreign}/framed.html#top"`);
    expect([...references.get('/links.html')!].sort()).toEqual(
      ['/frames.html', `${foreign}/framed.html`, `${foreign}/ok.css`].sort(),
    );

    const contact = await page(store, manifest, '/contact.html');
    expect(contact).toContain(`href="${foreign}/ok.css"`);
    expect(contact).toContain('href="https://example.invalid/y"');
    expect(contact).toContain('action="/send.php"');
    // The form the sites host takes is marked in the copy.
    expect(contact).toContain(`<${FORM_MARK_TAG}`);
    expect([...references.get('/contact.html')!].sort()).toEqual(
      ['/send.php', `${foreign}/ok.css`].sort(),
    );

    // Started at the frames page, the crawl knows framed.html before it reads the links page, and
    // its guess holds: the copy made on reading is the rewrite's of the first run.
    const again = createMemoryBlobStore();
    const second = await mirror({
      url: `${site.origin}/frames.html`,
      store: again,
      allowPrivateNetworks: true,
      render: 'never',
      markForms: true,
    });
    expect(await page(again, second, '/links.html')).toBe(links);

    // A re-mirror reads the unchanged pages back (304) and makes the same copies of them.
    const third = await mirror({
      url: `${site.origin}/`,
      store,
      allowPrivateNetworks: true,
      render: 'never',
      markForms: true,
      previous: manifest,
    });
    expect(third.stats.notModified).toBeGreaterThanOrEqual(4);
    for (const [path, copy] of [
      ['/', home],
      ['/links.html', links],
      ['/contact.html', contact],
    ] as const)
      expect(await page(store, third, path), path).toBe(copy);
  });

  it('copies a page as the rewrite would when its forms are not marked', async () => {
    const { site, cdn } = await serveSites();
    const store = createMemoryBlobStore();
    const manifest = await mirror({
      url: `${site.origin}/contact.html`,
      store,
      allowPrivateNetworks: true,
      render: 'never',
    });
    const contact = await page(store, manifest, '/contact.html');
    expect(contact).toContain(`href="/_x/${cdn.host}/ok.css"`);
    expect(contact).not.toContain(FORM_MARK_TAG);
  });
});
