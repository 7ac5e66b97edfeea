import { randomBytes } from 'node:crypto';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { createMemoryBlobStore, type BlobStore } from '@mirror/engine';
import { describe, expect, it, vi } from 'vitest';
import { BodyCache, type CachedFile } from './body-cache.js';
import { ENCODING_BR, ENCODING_GZIP } from './site-http.js';

async function put(store: BlobStore, body: Buffer): Promise<CachedFile> {
  const { hash, size } = await store.put(
    (async function* () {
      yield body;
    })(),
  );
  return { hash, size, keys: null, noGain: [false, false, false] };
}

const text = Buffer.from('.rule{margin:0 auto;padding:1px 2px}\n'.repeat(200));

describe('body cache', () => {
  it('reads a small body once for concurrent requests, then answers it from memory', async () => {
    const store = createMemoryBlobStore();
    const file = await put(store, text);
    const cache = new BodyCache(store);
    const read = vi.spyOn(store, 'read');
    expect(cache.body(file.hash)).toBeUndefined();
    const [a, b] = await Promise.all([cache.load(file), cache.load(file)]);
    expect(a.equals(text)).toBe(true);
    expect(b).toBe(a);
    expect(cache.body(file.hash)).toBe(a);
    expect(read).toHaveBeenCalledTimes(1);
  });

  it('reads a body again when the store answers short, and never keeps or gives a short one', async () => {
    const store = createMemoryBlobStore();
    const file = await put(store, text);
    // An object store still writing the same content (two workers store one file) answers short.
    let shortReads = 1;
    const racing: BlobStore = {
      ...store,
      async *read(hash) {
        if (shortReads-- > 0) {
          yield text.subarray(0, 10);
          return;
        }
        yield* store.read(hash);
      },
    };
    const cache = new BodyCache(racing);
    expect((await cache.load(file)).equals(text)).toBe(true);
    expect(cache.body(file.hash)?.equals(text)).toBe(true);

    shortReads = 2;
    const broken = new BodyCache(racing);
    await expect(broken.load(file)).rejects.toThrow(/manifest says/);
    expect(broken.body(file.hash)).toBeUndefined();
    expect((await broken.load(file)).equals(text)).toBe(true);
  });

  it('does not keep bodies larger than the small-body size', async () => {
    const store = createMemoryBlobStore();
    const file = await put(store, text);
    const cache = new BodyCache(store, { smallBodyBytes: 100 });
    expect((await cache.load(file)).length).toBe(text.length);
    expect(cache.body(file.hash)).toBeUndefined();
  });

  it('compresses once per encoding and keeps the result', async () => {
    const store = createMemoryBlobStore();
    const file = await put(store, text);
    const cache = new BodyCache(store);
    const gz = await cache.loadCompressed(file, ENCODING_GZIP);
    const br = await cache.loadCompressed(file, ENCODING_BR);
    expect(gunzipSync(gz!).equals(text)).toBe(true);
    expect(brotliDecompressSync(br!).equals(text)).toBe(true);
    expect(cache.compressedBody(file, ENCODING_GZIP)).toBe(gz);
    expect(cache.compressedBody(file, ENCODING_BR)).toBe(br);
  });

  it('gives up on compression that does not pay off or does not fit, per file', async () => {
    const store = createMemoryBlobStore();
    const noise = await put(store, randomBytes(4096));
    const cache = new BodyCache(store);
    expect(await cache.loadCompressed(noise, ENCODING_GZIP)).toBeNull();
    expect(noise.noGain).toEqual([false, true, false]);

    const file = await put(store, text);
    const tight = new BodyCache(store, { compressedCacheBytes: 10 });
    expect(await tight.loadCompressed(file, ENCODING_BR)).toBeNull();
    expect(file.noGain[ENCODING_BR]).toBe(true);
  });

  it('stays within its memory budget', async () => {
    const store = createMemoryBlobStore();
    const cache = new BodyCache(store, { bodyCacheBytes: text.length * 2 });
    const files = await Promise.all(
      [1, 2, 3].map((n) => put(store, Buffer.concat([text, Buffer.from([n])]))),
    );
    for (const file of files) await cache.load(file);
    expect(files.filter((file) => cache.body(file.hash) !== undefined)).toHaveLength(1);
  });
});
