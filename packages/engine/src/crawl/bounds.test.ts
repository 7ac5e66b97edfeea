import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemoryBlobStore } from '../storage/memory-blob-store.js';
import { failedCount } from '../types.js';
import { Deque } from './deque.js';
import { FAILURES_KEPT_PER_REASON } from './failure-log.js';
import { DEFAULTS, mirror } from './mirror.js';

describe('Deque', () => {
  it('keeps order through pushes, shifts and unshifts across growth', () => {
    const deque = new Deque<number>();
    const model: number[] = [];
    for (let i = 0; i < 5_000; i++) {
      if (i % 7 === 3) {
        deque.unshift(-i);
        model.unshift(-i);
      } else {
        deque.push(i);
        model.push(i);
      }
      if (i % 5 === 0) expect(deque.shift()).toBe(model.shift());
    }
    expect(deque.length).toBe(model.length);
    expect(deque.clear()).toEqual(model);
    expect(deque.length).toBe(0);
    expect(deque.shift()).toBeUndefined();
  });
});

/**
 * Sites built to overwhelm a crawler: a page with a quarter of a million links, a page with tens
 * of thousands of images. The run ends quickly and its manifest stays small; what was left out is
 * counted.
 */
const LINKS = 250_000;
const IMAGES = 30_000;
let server: http.Server;
let origin = '';

beforeAll(async () => {
  const links = Array.from({ length: LINKS }, (_, i) => `<a href="/p/${i}">${i}</a>`).join('\n');
  // Broken links, a redirect and a file first, then good pages: what a real site's menu holds.
  const mixed = [
    ...[0, 1, 2, 3].map((i) => `<a href="/p/${i}">gone</a>`),
    '<a href="/moved/a">moved</a>',
    '<a href="/file.pdf">file</a>',
    ...Array.from({ length: 10 }, (_, i) => `<a href="/ok/${i}">${i}</a>`),
  ].join('\n');
  const images = Array.from({ length: IMAGES }, (_, i) => `<img src="/i/${i}.png">`).join('\n');
  server = http.createServer((req, res) => {
    const url = req.url ?? '/';
    if (url === '/links') return res.writeHead(200, { 'content-type': 'text/html' }).end(links);
    if (url === '/images') return res.writeHead(200, { 'content-type': 'text/html' }).end(images);
    if (url === '/mixed') return res.writeHead(200, { 'content-type': 'text/html' }).end(mixed);
    if (url.startsWith('/moved/'))
      return res.writeHead(301, { location: url.replace('/moved/', '/ok/') }).end();
    if (url.startsWith('/ok/'))
      return res.writeHead(200, { 'content-type': 'text/html' }).end(`<h1>${url}</h1>`);
    if (url === '/file.pdf')
      return res.writeHead(200, { 'content-type': 'application/pdf' }).end('%PDF');
    if (url.startsWith('/p/'))
      return res.writeHead(404, { 'content-type': 'text/html' }).end('gone');
    if (url.startsWith('/i/'))
      return res.writeHead(200, { 'content-type': 'image/png' }).end('png');
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe('bounded runs', () => {
  it('a page with 250,000 links: follows a capped number, counts the rest, keeps a small manifest', async () => {
    const manifest = await mirror({
      url: `${origin}/links`,
      store: createMemoryBlobStore(),
      allowPrivateNetworks: true,
      render: 'never',
      maxPages: 10,
    });
    expect(manifest.entries.filter((e) => e.kind === 'page' && e.status === 200)).toHaveLength(1);
    // Every link the crawl saw was either fetched (the 404s), over the page limit, or counted.
    // A 404 gives its slot of the page limit back, up to the limit once more: 9 + 10 fetched.
    const counts = manifest.failureCounts!;
    expect(counts['http-error']).toBe(19);
    expect((counts['http-error'] ?? 0) + (counts.limit ?? 0)).toBe(
      DEFAULTS.maxPageLinksPerDocument,
    );
    expect(manifest.failures.length).toBeLessThanOrEqual(FAILURES_KEPT_PER_REASON * 10);
    expect(failedCount(manifest)).toBeGreaterThan(manifest.failures.length);
    expect(manifest.notes.join(' ')).toContain(
      `${(LINKS - DEFAULTS.maxPageLinksPerDocument).toLocaleString('en-US')} of them were not followed`,
    );
    expect(JSON.stringify(manifest).length).toBeLessThan(200_000);
  });

  it('counts pages copied against the page limit: a 404, a redirect or a file gives its slot back', async () => {
    // Six links copy no page: each gives its slot back (the limit allows as many give-backs).
    for (const maxPages of [6, 8]) {
      const manifest = await mirror({
        url: `${origin}/mixed`,
        store: createMemoryBlobStore(),
        allowPrivateNetworks: true,
        render: 'never',
        maxPages,
      });
      expect(manifest.stats.pages).toBe(maxPages);
      const copied = manifest.entries.filter((e) => e.kind === 'page' && e.status === 200);
      expect(copied.map((e) => new URL(e.url).pathname)).toContain('/mixed');
      expect(copied).toHaveLength(maxPages);
    }
  });

  it('a page with 30,000 images: stops at the file limit and says so', async () => {
    const manifest = await mirror({
      url: `${origin}/images`,
      store: createMemoryBlobStore(),
      allowPrivateNetworks: true,
      render: 'never',
      maxPages: 10,
      maxFiles: 200,
    });
    expect(manifest.entries.length).toBeLessThanOrEqual(200);
    expect(manifest.failureCounts?.limit).toBeGreaterThan(4_000);
    expect(manifest.failures.filter((f) => f.reason === 'limit').length).toBe(
      FAILURES_KEPT_PER_REASON,
    );
    expect(manifest.failures.find((f) => f.reason === 'limit')?.detail).toBe(
      'file limit of 200 reached',
    );
  });
});
