import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FALLBACK_PATH } from '../src/crawl/mirror.js';
import { exportStatic, mirror } from '../src/index.js';
import { readBlob } from '../src/storage/blob-utils.js';
import { createMemoryBlobStore } from '../src/storage/memory-blob-store.js';
import type { Manifest } from '../src/types.js';

/**
 * What a copy does where the original had nothing to give: files another host could not deliver
 * during the run, and addresses the site does not have (an app's deep links, a custom 404 page).
 */
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

type Route = (req: http.IncomingMessage, res: http.ServerResponse) => void;

async function serve(route: Route): Promise<string> {
  const server = http.createServer(route);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function html(res: http.ServerResponse, body: string, status = 200): void {
  res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' }).end(body);
}

async function run(url: string) {
  const store = createMemoryBlobStore();
  const manifest = await mirror({ url, store, allowPrivateNetworks: true, render: 'never' });
  const text = async (copyPath: string) => {
    const entry = manifest.entries.find((e) => e.path === copyPath)!;
    return (await readBlob(store, entry.hash)).toString('utf8');
  };
  return { store, manifest, text };
}

async function exported(manifest: Manifest, store: ReturnType<typeof createMemoryBlobStore>) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mirror-fallback-'));
  cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
  await exportStatic(manifest, store, dir);
  return dir;
}

describe('files another host could not deliver', () => {
  it('keep their original address in the copy, and are listed with the failures', async () => {
    const cdn = await serve((req, res) => {
      if (req.url === '/ok.png')
        return res.writeHead(200, { 'content-type': 'image/png' }).end('png');
      res.writeHead(500).end('down for a moment');
    });
    const site = await serve((req, res) => {
      if (req.url !== '/') return res.writeHead(404).end();
      html(
        res,
        `<!doctype html><link rel="stylesheet" href="${cdn}/down.css"><img src="${cdn}/ok.png"><img src="${cdn}/down.png"><img src="/gone.png">`,
      );
    });
    const { manifest, text } = await run(`${site}/`);
    const page = await text('/');
    const cdnHost = new URL(cdn).host;
    expect(page).toContain(`src="/_x/${cdnHost}/ok.png"`);
    // Not captured: the copy asks the CDN itself, as the original page does.
    expect(page).toContain(`href="${cdn}/down.css"`);
    expect(page).toContain(`src="${cdn}/down.png"`);
    // The site's own file that failed stays a path of the copy: a copy never calls its original.
    expect(page).toContain('src="/gone.png"');
    expect(manifest.failures.map((f) => f.url).sort()).toEqual(
      [`${cdn}/down.css`, `${cdn}/down.png`, `${site}/gone.png`].sort(),
    );
  });
});

describe('addresses the site does not have', () => {
  const shell = (assets: string) =>
    `<!doctype html><html><head><title>App</title><script type="module" src="${assets}/app.js"></script></head><body><div id="app"></div></body></html>`;

  it('an app that routes on the client: its shell is kept for deep links (export: 404.html and a catch-all rewrite)', async () => {
    const site = await serve((req, res) => {
      if (req.url === '/assets/app.js')
        return res
          .writeHead(200, { 'content-type': 'text/javascript' })
          .end('document.getElementById("app").textContent = location.pathname;');
      if (req.url === '/robots.txt') return res.writeHead(404).end();
      html(res, shell('/assets'));
    });
    const { manifest, store, text } = await run(`${site}/`);
    expect(manifest.fallback).toEqual({ path: FALLBACK_PATH, status: 200 });
    expect(await text(FALLBACK_PATH)).toContain('src="/assets/app.js"');
    // The shell is not counted as a page of the site.
    expect(manifest.stats.pages).toBe(1);

    const dir = await exported(manifest, store);
    expect(fs.readFileSync(path.join(dir, '404.html'), 'utf8')).toContain('<div id="app">');
    expect(fs.readFileSync(path.join(dir, '_redirects'), 'utf8')).toBe(`/* ${FALLBACK_PATH} 200\n`);
  });

  it('a site with its own 404 page: the page and its image are kept, and answered with 404', async () => {
    const site = await serve((req, res) => {
      if (req.url === '/') return html(res, '<!doctype html><h1>Home</h1>');
      if (req.url === '/lost.svg')
        return res.writeHead(200, { 'content-type': 'image/svg+xml' }).end('<svg/>');
      html(res, '<!doctype html><h1>Lost?</h1><img src="lost.svg">', 404);
    });
    const { manifest, store, text } = await run(`${site}/`);
    expect(manifest.fallback).toEqual({ path: FALLBACK_PATH, status: 404 });
    // Its relative image resolves against the address asked for, and is in the copy.
    expect(await text(FALLBACK_PATH)).toContain('src="/lost.svg"');
    expect(manifest.entries.map((e) => e.path)).toContain('/lost.svg');
    const dir = await exported(manifest, store);
    expect(fs.readFileSync(path.join(dir, '404.html'), 'utf8')).toContain('Lost?');
    expect(fs.existsSync(path.join(dir, '_redirects'))).toBe(false);
  });

  it('a site whose unknown addresses answer a bare 404 or a redirect: nothing is kept', async () => {
    for (const answer of [
      (res: http.ServerResponse) => res.writeHead(404, { 'content-type': 'text/plain' }).end('no'),
      (res: http.ServerResponse) => res.writeHead(302, { location: '/' }).end(),
    ]) {
      const site = await serve((req, res) =>
        req.url === '/' ? html(res, '<!doctype html><h1>Home</h1>') : answer(res),
      );
      const { manifest } = await run(`${site}/`);
      expect(manifest.fallback).toBeUndefined();
      expect(manifest.entries.map((e) => e.path)).toEqual(['/']);
    }
  });
});
