import { createHash } from 'node:crypto';
import type { BlobStore } from '../types.js';

/** In-memory blobs, for tests and small one-off runs. */
export function createMemoryBlobStore(): BlobStore & { size(): number } {
  const blobs = new Map<string, Uint8Array>();
  return {
    size: () => blobs.size,
    async put(body) {
      const hasher = createHash('sha256');
      const chunks: Uint8Array[] = [];
      for await (const chunk of body) {
        hasher.update(chunk);
        chunks.push(chunk);
      }
      const data = Buffer.concat(chunks);
      const hash = hasher.digest('hex');
      if (!blobs.has(hash)) blobs.set(hash, data);
      return { hash, size: data.length };
    },
    async *read(hash) {
      const data = blobs.get(hash);
      if (!data) throw new Error(`no blob ${hash}`);
      yield data;
    },
    async has(hash) {
      return blobs.has(hash);
    },
  };
}
