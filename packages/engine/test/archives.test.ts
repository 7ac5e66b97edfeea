/**
 * Web archives (issue 35, docs/archives.md): a run keeps each response as the origin answered it;
 * a version is written out as WARC and WACZ with the payloads as fetched; a WACZ (ours) or a WARC
 * (wget's) is made into a copy again with the origin stopped.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { PNG } from 'pngjs';
import { openArchive } from '../src/archive/index.js';
import { readCaptureLog } from '../src/crawl/capture-log.js';
import { importArchive } from '../src/crawl/import-archive.js';
import { mirror } from '../src/crawl/mirror.js';
import { writeVersionArchive } from '../src/export/export-archive.js';
import { exportStatic } from '../src/export/export-static.js';
import { verifyExport } from '../src/fidelity/verify-export.js';
import { createFsBlobStore } from '../src/storage/fs-blob-store.js';
import { createMemoryBlobStore } from '../src/storage/memory-blob-store.js';
import type { Manifest } from '../src/types.js';
import { FIXTURES, serveFixture, type FixtureServer } from './fixture-server.js';

const run = promisify(execFile);
const servers: FixtureServer[] = [];
const dirs: string[] = [];
afterAll(async () => {
  for (const server of servers) await server.close();
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mirror-archives-'));
  dirs.push(dir);
  return dir;
}

async function startBasic(): Promise<{ origin: FixtureServer; cdn: FixtureServer }> {
  const cdn = await serveFixture(path.join(FIXTURES, 'cdn'));
  const origin = await serveFixture(
    path.join(FIXTURES, 'basic'),
    // A moved page, as the basic fixture's home links to it.
    { '/old-page': (_req, res) => void res.writeHead(301, { location: '/about.html' }).end() },
    { cache: true },
  );
  origin.vars.CDN = cdn.origin;
  servers.push(origin, cdn);
  return { origin, cdn };
}

/** The files of a copy a visitor gets with a body, by URL: their bodies as fetched. */
function fetchedBodies(manifest: Manifest): Map<string, string> {
  return new Map(
    manifest.entries
      .filter((e) => e.status === 200 && e.sourceHash)
      .map((e) => [e.url, e.sourceHash!]),
  );
}

describe('archives: what a run keeps, and a version written out', () => {
  it('logs each response as answered, revalidations too, and writes WARC and WACZ that read back byte for byte', async () => {
    const { origin, cdn } = await startBasic();
    const store = createFsBlobStore(tempDir());
    const before = Date.now();
    const first = await mirror({
      url: `${origin.origin}/`,
      store,
      allowPrivateNetworks: true,
      render: 'never',
    });
    expect(first.capture).toBeDefined();
    const log = await readCaptureLog(store, first);
    expect(log.userAgent).toMatch(/MirrorBot/);
    const css = log.records.get(`${origin.origin}/style.css`)!;
    expect(css.status).toBe(200);
    expect(Object.fromEntries(css.headers)['content-type']).toBe('text/css; charset=utf-8');
    expect(Object.fromEntries(css.headers)['etag']).toMatch(/^"/);
    expect(Date.parse(css.at)).toBeGreaterThanOrEqual(before - 1000);
    // A redirect is kept as answered: its status and the Location the origin sent.
    const redirect = first.entries.find((e) => e.status === 301)!;
    const answered = log.records.get(redirect.url)!;
    expect(answered.status).toBe(301);
    expect(Object.fromEntries(answered.headers)['location']).toBeTruthy();

    // A re-mirror: unchanged files answer 304, and keep their first fetch with the revalidation.
    const second = await mirror({
      url: `${origin.origin}/`,
      store,
      allowPrivateNetworks: true,
      render: 'never',
      previous: first,
    });
    expect(second.stats.notModified).toBeGreaterThan(5);
    const again = (await readCaptureLog(store, second)).records.get(`${origin.origin}/style.css`)!;
    expect(again.at).toBe(css.at);
    expect(again.revalidatedAt).toBeDefined();

    const dir = tempDir();
    const warcFile = path.join(dir, 'site.warc.gz');
    const waczFile = path.join(dir, 'site.wacz');
    const warc = await writeVersionArchive({
      manifest: second,
      store,
      file: warcFile,
      format: 'warc',
      software: 'Mirror test',
    });
    const wacz = await writeVersionArchive({
      manifest: second,
      store,
      file: waczFile,
      format: 'wacz',
      software: 'Mirror test',
    });
    expect(warc.bytes).toBe(fs.statSync(warcFile).size);
    expect(wacz.pages).toBeGreaterThanOrEqual(4);

    const bodies = fetchedBodies(second);
    for (const file of [warcFile, waczFile]) {
      const readStore = createMemoryBlobStore();
      const archive = await openArchive(file, { store: readStore, maxBytes: 1e9 });
      expect(archive.info.format).toBe(file.endsWith('.wacz') ? 'wacz' : 'warc.gz');
      for (const [url, hash] of bodies) {
        const response = archive.get(url);
        expect(response, url).toBeDefined();
        // The payload as fetched, before any rewrite: the very bytes of the run's source blob.
        expect(response!.hash, url).toBe(hash);
        expect(await readStore.has(hash)).toBe(true);
      }
      expect(archive.get(`${cdn.origin}/cdn/cdn.css`)?.status).toBe(200);
      const home = archive.pages().find((p) => p.url === `${origin.origin}/`);
      expect(home).toBeDefined();
      if (file === waczFile) expect(home!.title).toBe('Fixture home');
    }
    // Every revalidation is a server-not-modified revisit beside its response.
    const text = (await run('sh', ['-c', `gzip -dc ${warcFile}`], { maxBuffer: 64e6 })).stdout;
    const revisits = text.match(/WARC-Profile: [^\r\n]*server-not-modified/g) ?? [];
    expect(revisits.length).toBe(second.stats.notModified);
  });
});

describe('archives: a copy made from an archive', () => {
  it('imports its own WACZ with the origin stopped: the same files, byte for byte', async () => {
    const { origin, cdn } = await startBasic();
    const store = createFsBlobStore(tempDir());
    const original = await mirror({
      url: `${origin.origin}/`,
      store,
      allowPrivateNetworks: true,
      render: 'never',
    });
    const waczFile = path.join(tempDir(), 'site.wacz');
    await writeVersionArchive({
      manifest: original,
      store,
      file: waczFile,
      format: 'wacz',
      software: 'Mirror test',
    });
    await origin.close();
    await cdn.close();

    const importStore = createFsBlobStore(tempDir());
    const archive = await openArchive(waczFile, { store: importStore, maxBytes: 1e9 });
    const imported = await importArchive({
      archive,
      name: 'site.wacz',
      store: importStore,
      render: 'never',
    });
    expect(imported.importedFrom).toMatchObject({ name: 'site.wacz', format: 'wacz' });
    expect(imported.importedFrom!.software).toBe('Mirror test');
    // The same files at the same paths, each body as fetched identical, and the same copies.
    const want = original.entries.map((e) => [e.path, e.status, e.sourceHash, e.hash]);
    const got = imported.entries.map((e) => [e.path, e.status, e.sourceHash, e.hash]);
    expect(got).toEqual(want);
    // What the original could not copy, the archive does not hold either.
    const failed = (m: Manifest) => m.failures.map((f) => f.url).sort();
    expect(failed(imported)).toEqual(failed(original));
    // The imported copy keeps the original fetch dates, so its own export does too
    const log = await readCaptureLog(importStore, imported);
    const before = await readCaptureLog(store, original);
    // (to the second: WARC-Date's precision)
    expect(log.records.get(`${origin.origin}/style.css`)!.at.slice(0, 19)).toBe(
      before.records.get(`${origin.origin}/style.css`)!.at.slice(0, 19),
    );
  });

  const hasWget = fs.existsSync('/usr/bin/wget');
  const hasChromium = fs.existsSync('/usr/bin/chromium');
  it.skipIf(!hasWget || !hasChromium)(
    "imports wget's WARC (gzip and chunked bodies as on the wire) into a copy that passes the fidelity check",
    { timeout: 120_000 },
    async () => {
      const origin = await startWireSite();
      const dir = tempDir();
      const base = path.join(dir, 'wget');
      await run(
        'wget',
        [
          '--recursive',
          '--level=3',
          '--page-requisites',
          '--no-verbose',
          '--execute=robots=off',
          '--compression=auto',
          `--warc-file=${base}`,
          `--directory-prefix=${path.join(dir, 'files')}`,
          `${origin}/`,
        ],
        { timeout: 60_000 },
      ).catch((err: { code?: number }) => {
        // 8: some file answered an error (the site's own 404 link): the WARC is written.
        if (err.code !== 8) throw err;
      });
      const store = createFsBlobStore(tempDir());
      const archive = await openArchive(`${base}.warc.gz`, { store, maxBytes: 1e9 });
      expect(archive.info.software).toMatch(/Wget/i);
      const manifest = await importArchive({
        archive,
        name: 'wget.warc.gz',
        store,
        render: 'never',
      });
      const pages = manifest.entries.filter((e) => e.kind === 'page' && e.status === 200);
      expect(pages.map((p) => p.path).sort()).toEqual(['/', '/about.html', '/news/']);
      const css = manifest.entries.find((e) => e.path === '/style.css')!;
      expect(css.status).toBe(200);
      // Decoded from the wire's gzip and chunks: the stylesheet as the browser reads it.
      expect(css.size).toBe(WIRE_SITE.css.length);

      const out = path.join(tempDir(), 'copy');
      await exportStatic(manifest, store, out, { placeBlobs: 'copy' });
      const { report } = await verifyExport({
        manifest,
        store,
        dir: out,
        maxPages: 10,
        // Checked against the live origin, which is still running: the original itself.
        mirror: { store, allowPrivateNetworks: true, render: 'never' },
      });
      expect(report.pages.length).toBeGreaterThanOrEqual(3);
      expect(report.summary.belowThreshold).toBe(0);
    },
  );
});

/** A small site served as real servers do: gzip, chunked, with an image and a stylesheet. */
const WIRE_SITE = {
  css: 'body{margin:0;font:16px sans-serif;background:#f4efe6}h1{color:#8a2b0e;padding:24px}.card{display:inline-block;margin:12px;padding:12px;background:#fff}\n'.repeat(
    20,
  ),
  page: (title: string, body: string) =>
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title><link rel="stylesheet" href="/style.css"></head><body><h1>${title}</h1><nav><a href="/">Home</a> <a href="/about.html">About</a> <a href="/news/">News</a> <a href="/gone.html">Gone</a></nav>${body}<img src="/hero.png" width="300" height="120" alt=""></body></html>`,
};

async function startWireSite(): Promise<string> {
  const hero = new PNG({ width: 300, height: 120 });
  for (let i = 0; i < 300 * 120; i++) hero.data.set([30 + (i % 200), 90, 160, 255], i * 4);
  const png = PNG.sync.write(hero);
  const { gzipSync } = await import('node:zlib');
  const files: Record<string, [string, Buffer]> = {
    '/': [
      'text/html; charset=utf-8',
      Buffer.from(WIRE_SITE.page('Bakery', '<p>Fresh bread daily.</p>')),
    ],
    '/about.html': [
      'text/html; charset=utf-8',
      Buffer.from(WIRE_SITE.page('About us', '<div class="card">Since 1921</div>')),
    ],
    '/news/': [
      'text/html; charset=utf-8',
      Buffer.from(WIRE_SITE.page('News', '<div class="card">Rye is back</div>')),
    ],
    '/style.css': ['text/css', Buffer.from(WIRE_SITE.css)],
    '/hero.png': ['image/png', png],
  };
  const server = http.createServer((req, res) => {
    const file = files[req.url ?? '/'];
    if (!file) return void res.writeHead(404, { 'content-type': 'text/html' }).end('<h1>No</h1>');
    const [type, body] = file;
    const gzip = /gzip/.test(String(req.headers['accept-encoding'])) && !type.startsWith('image/');
    // No content-length: Node sends the body chunked, as most dynamic servers do.
    res.writeHead(200, { 'content-type': type, ...(gzip ? { 'content-encoding': 'gzip' } : {}) });
    const payload = gzip ? gzipSync(body) : body;
    res.write(payload.subarray(0, payload.length >> 1));
    res.end(payload.subarray(payload.length >> 1));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push({
    origin: '',
    host: '',
    requests: [],
    vars: {},
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}
