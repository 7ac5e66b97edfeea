import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NetError } from '../net/errors.js';
import { createMemoryBlobStore } from '../storage/memory-blob-store.js';
import { createArchiveClient } from './archive-client.js';
import { openArchive } from './open-archive.js';
import { collect, response, tempDir, writeWarcFile } from './test-helpers.fixture.js';
import type { ArchiveIndex } from './types.js';

let dir: string;
let archive: ArchiveIndex;
beforeAll(async () => {
  dir = await tempDir();
  const file = path.join(dir, 'site.warc.gz');
  await writeWarcFile(file, [
    response('https://example.com/', '<a href="/about">About</a>'),
    response('https://example.com/about', 'about'),
    response('https://example.com/old', '', { status: 301, headers: [['Location', '/about']] }),
    response('https://example.com/loop', '', { status: 302, headers: [['Location', '/loop']] }),
    response('https://example.com/q?', 'empty query'),
    response('https://example.com/big', 'x'.repeat(1000)),
  ]);
  archive = await openArchive(file, { store: createMemoryBlobStore(), maxBytes: 1024 * 1024 });
});
afterAll(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

describe('createArchiveClient', () => {
  it('answers archived responses, streamed, with no network', async () => {
    const client = createArchiveClient(archive);
    const res = await client.request('https://example.com/#top');
    expect(res.status).toBe(200);
    expect(res.url).toBe('https://example.com/');
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect((await collect(res.body)).toString()).toBe('<a href="/about">About</a>');
    expect(() => res.body[Symbol.asyncIterator]()).toThrow(NetError);
    await client.close();
  });

  it('follows redirects and records the hops, or returns them as is', async () => {
    const client = createArchiveClient(archive);
    const followed = await client.request('https://example.com/old');
    expect(followed.status).toBe(200);
    expect(followed.url).toBe('https://example.com/about');
    expect(followed.redirects).toEqual([
      { from: 'https://example.com/old', to: 'https://example.com/about', status: 301 },
    ]);
    const kept = await client.request('https://example.com/old', { followRedirects: false });
    expect(kept.status).toBe(301);
    expect(kept.headers['location']).toBe('/about');
    await kept.discard();
    await expect(client.request('https://example.com/loop')).rejects.toMatchObject({
      code: 'EREDIRECTLOOP',
    });
  });

  it('answers 404 with an empty body for what the archive does not hold, and for POST', async () => {
    const client = createArchiveClient(archive);
    for (const [url, method] of [
      ['https://example.com/missing', 'GET'],
      ['https://example.com/missing', 'HEAD'],
      ['https://example.com/about', 'POST'],
      ['https://other.example/', 'GET'],
    ] as const) {
      const res = await client.request(url, { method });
      expect(res.status).toBe(404);
      expect((await collect(res.body)).length).toBe(0);
    }
    const head = await client.request('https://example.com/about', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect((await collect(head.body)).length).toBe(0);
  });

  it('matches a URL with or without an empty query', async () => {
    const client = createArchiveClient(archive);
    expect((await client.request('https://example.com/q')).status).toBe(200);
    expect((await client.request('https://example.com/about?')).status).toBe(200);
    expect((await client.request('https://example.com:443/about')).status).toBe(200);
  });

  it('enforces maxBytes with the real client ETOOLARGE', async () => {
    const client = createArchiveClient(archive);
    await expect(
      client.request('https://example.com/big', { maxBytes: 100 }),
    ).rejects.toMatchObject({ code: 'ETOOLARGE' });
    const ok = await client.request('https://example.com/big', { maxBytes: 1000 });
    expect((await collect(ok.body)).length).toBe(1000);
    await expect(client.request('not a url')).rejects.toMatchObject({ code: 'EINVALIDURL' });
  });
});
