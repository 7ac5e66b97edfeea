/**
 * The bodies of site files kept in memory: small identity bodies (read once from the blob store)
 * and compressed variants (gzip, brotli; made once per file). Both caches are bounded by bytes
 * with second-chance eviction (`SiteCache`); concurrent requests for the same body share one read
 * or one compression. Bodies are content-addressed (by blob hash), so they are never stale.
 *
 * The sync getters (`body`, `compressedBody`) are what the hot path asks; the loaders return a
 * promise only when a body is not in memory yet.
 */
import { promisify } from 'node:util';
import { brotliCompress, constants as zlib, gzip } from 'node:zlib';
import type { BlobStore } from '@mirror/engine';
import { SiteCache } from './site-cache.js';
import { ENCODING_GZIP, type Encoding } from './site-http.js';

/** What the cache needs to know of a file (a site index's `Resource` is one). */
export interface CachedFile {
  readonly hash: string;
  readonly size: number;
  /** Keys of the compressed bodies in the compressed cache, built on first use. */
  keys: readonly [string, string, string] | null;
  /** Compression was tried and did not pay off (or would not fit the cache), per encoding. */
  noGain: [boolean, boolean, boolean];
}

export interface BodyCacheOptions {
  /** Bodies up to this size are kept in memory (default 256 KiB). */
  smallBodyBytes?: number;
  /** Memory budget of uncompressed small bodies (default 64 MiB). */
  bodyCacheBytes?: number;
  /** Memory budget of compressed bodies (default 64 MiB). */
  compressedCacheBytes?: number;
}

const gzipAsync = promisify(gzip);
const brotliAsync = promisify(brotliCompress);

export class BodyCache {
  /** Files up to this size are read whole and kept; larger ones are streamed by the caller. */
  readonly smallBodyBytes: number;
  private readonly bodies: SiteCache<string, Buffer>;
  private readonly compressed: SiteCache<string, Buffer>;
  private readonly loading = new Map<string, Promise<Buffer>>();
  private readonly compressing = new Map<string, Promise<Buffer | null>>();

  constructor(
    private readonly blobs: BlobStore,
    options: BodyCacheOptions = {},
  ) {
    this.smallBodyBytes = options.smallBodyBytes ?? 256 * 1024;
    this.bodies = new SiteCache(options.bodyCacheBytes ?? 64 * 1024 * 1024);
    this.compressed = new SiteCache(options.compressedCacheBytes ?? 64 * 1024 * 1024);
  }

  /** The identity body of a small file, when it is in memory. */
  body(hash: string): Buffer | undefined {
    return this.bodies.get(hash);
  }

  /** The compressed body of a file in this encoding (gzip or br), when it is in memory. */
  compressedBody(file: CachedFile, encoding: Encoding): Buffer | undefined {
    return this.compressed.get(keyOf(file, encoding));
  }

  /** The whole identity body: from memory for small files, else read (kept when small). */
  load(file: CachedFile): Promise<Buffer> {
    const { hash } = file;
    const cached = this.bodies.get(hash);
    if (cached !== undefined) return Promise.resolve(cached);
    let pending = this.loading.get(hash);
    if (pending === undefined) {
      pending = this.readWhole(file)
        .then((body) => {
          if (body.length <= this.smallBodyBytes) this.bodies.set(hash, body, body.length);
          return body;
        })
        .finally(() => this.loading.delete(hash));
      this.loading.set(hash, pending);
    }
    return pending;
  }

  /**
   * The body compressed in this encoding, made once and kept; null when it does not pay off
   * (< 5% saved) or does not fit the cache, and `file.noGain` then says so for later requests.
   */
  loadCompressed(file: CachedFile, encoding: Encoding): Promise<Buffer | null> {
    const key = keyOf(file, encoding);
    let pending = this.compressing.get(key);
    if (pending === undefined) {
      pending = this.load(file)
        .then((body) => compress(body, encoding))
        .then((out) => {
          if (out.length > file.size * 0.95 || !this.compressed.set(key, out, out.length)) {
            file.noGain[encoding] = true;
            return null;
          }
          return out;
        })
        .finally(() => this.compressing.delete(key));
      this.compressing.set(key, pending);
    }
    return pending;
  }

  /**
   * The body, checked against the size the manifest gives: a blob store that is still writing
   * the same content (two workers storing one file; an object store without atomic writes) can
   * answer short once. A short body is read again, then refused, never cached or sent.
   */
  private async readWhole(file: CachedFile): Promise<Buffer> {
    const body = await this.readAll(file.hash);
    if (body.length === file.size) return body;
    const again = await this.readAll(file.hash);
    if (again.length === file.size) return again;
    throw new Error(`blob ${file.hash} is ${again.length} bytes; its manifest says ${file.size}`);
  }

  private async readAll(hash: string): Promise<Buffer> {
    const chunks: Uint8Array[] = [];
    for await (const chunk of this.blobs.read(hash)) chunks.push(chunk);
    return chunks.length === 1 && Buffer.isBuffer(chunks[0]) ? chunks[0] : Buffer.concat(chunks);
  }
}

function keyOf(file: CachedFile, encoding: Encoding): string {
  file.keys ??= ['', `${file.hash}:gz`, `${file.hash}:br`];
  return file.keys[encoding];
}

async function compress(body: Buffer, encoding: Encoding): Promise<Buffer> {
  if (encoding === ENCODING_GZIP) return gzipAsync(body, { level: 9 });
  // Brotli's best quality is slow (~1 MB/s); it is paid once per file, then cached.
  const quality = body.length <= 64 * 1024 ? 11 : body.length <= 1024 * 1024 ? 9 : 5;
  return brotliAsync(body, {
    params: {
      [zlib.BROTLI_PARAM_QUALITY]: quality,
      [zlib.BROTLI_PARAM_SIZE_HINT]: body.length,
      [zlib.BROTLI_PARAM_MODE]: zlib.BROTLI_MODE_TEXT,
    },
  });
}
