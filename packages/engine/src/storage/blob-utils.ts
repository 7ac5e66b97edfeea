import type { BlobStore } from '../types.js';

/**
 * How long a store may remember that it holds a blob without looking (and skip writing it again).
 * A garbage collector deletes only blobs last written longer ago than a multiple of this.
 */
export const BLOB_PRESENCE_TTL_MS = 5 * 60_000;

/** Hashes a store has seen stored, each forgotten `BLOB_PRESENCE_TTL_MS` after it was seen. */
export function createPresenceCache(now: () => number = Date.now) {
  const seen = new Map<string, number>();
  return {
    has(hash: string): boolean {
      const at = seen.get(hash);
      if (at === undefined) return false;
      if (now() - at < BLOB_PRESENCE_TTL_MS) return true;
      seen.delete(hash);
      return false;
    },
    add(hash: string): void {
      seen.set(hash, now());
    },
    delete(hash: string): void {
      seen.delete(hash);
    },
  };
}

export async function readBlob(store: BlobStore, hash: string): Promise<Buffer> {
  if (store.readAll) return store.readAll(hash);
  const chunks: Uint8Array[] = [];
  for await (const chunk of store.read(hash)) chunks.push(chunk);
  return Buffer.concat(chunks);
}

/** Node's `TextEncoder` encodes a large text in a third less time than `Buffer.from`. */
const encoder = new TextEncoder();

export async function* bytesOf(data: Uint8Array | string): AsyncIterable<Uint8Array> {
  yield typeof data === 'string' ? encoder.encode(data) : data;
}

export function putBytes(store: BlobStore, data: Uint8Array | string) {
  return store.put(bytesOf(data));
}
