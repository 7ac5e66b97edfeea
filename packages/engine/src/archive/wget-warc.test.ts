/**
 * A WARC as `wget --warc-file` writes it (wire bytes: chunked transfer-encoding, gzip
 * content-encoding, sha1 base32 digests), of a tiny site on loopback, read back.
 */
import { execFile } from 'node:child_process';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { createMemoryBlobStore } from '../storage/memory-blob-store.js';
import { createArchiveClient } from './archive-client.js';
import { openArchive } from './open-archive.js';
import { collect, tempDir } from './test-helpers.fixture.js';

function hasWget(): boolean {
  try {
    return execFileSync('wget', ['--help'], { encoding: 'utf8' }).includes('--warc-file');
  } catch {
    return false;
  }
}

const HOME = `<!doctype html><html><head><title>Fixture</title><link rel="stylesheet" href="/style.css"></head><body><a href="/page2">Two</a> <a href="/old">Old</a> ${'lorem ipsum '.repeat(2000)}</body></html>`;
const PAGE2 = '<!doctype html><html><head><title>Two</title></head><body>second page</body></html>';
const CSS = 'body { color: #123456 }';

describe.skipIf(!hasWget())('wget --warc-file (skipped when wget is absent)', () => {
  it('reads a WARC written by wget: chunked and gzipped pages decode, redirects stay', async () => {
    const server = http.createServer((req, res) => {
      if (req.url === '/') {
        // Chunked (no length), gzipped, in several writes.
        res.writeHead(200, { 'Content-Type': 'text/html', 'Content-Encoding': 'gzip' });
        const gz = zlib.gzipSync(HOME);
        res.write(gz.subarray(0, 100));
        res.write(gz.subarray(100, 400));
        res.end(gz.subarray(400));
      } else if (req.url === '/page2') {
        res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
        res.write(PAGE2.slice(0, 20));
        res.end(PAGE2.slice(20));
      } else if (req.url === '/style.css') {
        res.writeHead(200, { 'Content-Type': 'text/css', 'Content-Length': String(CSS.length) });
        res.end(CSS);
      } else if (req.url === '/old') {
        res.writeHead(301, { Location: '/page2', 'Content-Length': '0' });
        res.end();
      } else {
        res.writeHead(404, { 'Content-Type': 'text/plain' });
        res.end('not found');
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const origin = `http://127.0.0.1:${port}`;
    const dir = await tempDir();
    try {
      await promisify(execFile)(
        'wget',
        [
          '--no-verbose',
          '-e',
          'robots=off',
          '--no-proxy',
          `--warc-file=${path.join(dir, 'site')}`,
          '-P',
          path.join(dir, 'out'),
          // Listed, not crawled: wget does not parse a page it saved gzipped (--compression=none).
          `${origin}/`,
          `${origin}/page2`,
          `${origin}/style.css`,
          `${origin}/old`,
        ],
        { timeout: 60_000 },
      ).catch((error: unknown) => {
        // wget exits 8 when a URL answered an error (none here, but robots.txt is a 404).
        if ((error as { code?: unknown }).code !== 8) throw error;
      });
      const file = path.join(dir, 'site.warc.gz');
      const archive = await openArchive(file, {
        store: createMemoryBlobStore(),
        maxBytes: 10 * 1024 * 1024,
      });
      expect(archive.info.format).toBe('warc.gz');
      expect(archive.info.software).toMatch(/^Wget/);
      const home = archive.get(`${origin}/`)!;
      expect(home.status).toBe(200);
      expect((await collect(home.body())).toString()).toBe(HOME);
      expect(home.headers['content-encoding']).toBeUndefined();
      expect(home.headers['transfer-encoding']).toBeUndefined();
      expect(home.headers['content-length']).toBe(String(Buffer.byteLength(HOME)));
      expect((await collect(archive.get(`${origin}/page2`)!.body())).toString()).toBe(PAGE2);
      expect((await collect(archive.get(`${origin}/style.css`)!.body())).toString()).toBe(CSS);
      expect(archive.get(`${origin}/old`)).toMatchObject({ status: 301 });
      expect(archive.pages().map((page) => page.url)).toEqual([`${origin}/`, `${origin}/page2`]);

      // With the origin gone, the client answers from the archive alone.
      await new Promise<void>((resolve) => server.close(() => resolve()));
      const client = createArchiveClient(archive);
      const res = await client.request(`${origin}/old`);
      expect(res.url).toBe(`${origin}/page2`);
      expect((await collect(res.body)).toString()).toBe(PAGE2);
    } finally {
      server.close();
      await fs.rm(dir, { recursive: true, force: true });
    }
  });
});
