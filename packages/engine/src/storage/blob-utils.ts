import type { BlobStore } from '../types.js';

export async function readBlob(store: BlobStore, hash: string): Promise<Buffer> {
  if (store.readAll) return store.readAll(hash);
  const chunks: Uint8Array[] = [];
  for await (const chunk of store.read(hash)) chunks.push(chunk);
  return Buffer.concat(chunks);
}

export async function* bytesOf(data: Uint8Array | string): AsyncIterable<Uint8Array> {
  yield typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
}

export function putBytes(store: BlobStore, data: Uint8Array | string) {
  return store.put(bytesOf(data));
}
