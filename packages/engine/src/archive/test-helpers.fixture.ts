/** Helpers for the archive tests (not exported by the package). */
import { createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { WarcInput } from './types.js';
import { writeWarc, type WarcWriteResult } from './warc-writer.js';

export async function tempDir(): Promise<string> {
  return fs.mkdtemp(path.join(os.tmpdir(), 'mirror-archive-test-'));
}

export async function* bytes(...parts: (string | Uint8Array)[]): AsyncGenerator<Uint8Array> {
  for (const part of parts) yield typeof part === 'string' ? Buffer.from(part, 'utf8') : part;
}

export async function* fromArray<T>(items: readonly T[]): AsyncGenerator<T> {
  for (const item of items) yield item;
}

export function response(
  url: string,
  body: string | Uint8Array,
  extra: Partial<Extract<WarcInput, { type: 'response' }>> = {},
): Extract<WarcInput, { type: 'response' }> {
  return {
    type: 'response',
    url,
    date: new Date('2024-05-01T10:20:30Z'),
    status: 200,
    headers: [['Content-Type', url.endsWith('.css') ? 'text/css' : 'text/html; charset=utf-8']],
    payload: () => bytes(body),
    ...extra,
  };
}

export async function writeWarcFile(
  file: string,
  records: readonly WarcInput[],
): Promise<WarcWriteResult> {
  return writeWarc(fromArray(records), createWriteStream(file), {
    software: 'Mirror test',
    isPartOf: 'test',
  });
}

export async function collect(body: AsyncIterable<Uint8Array>): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of body) chunks.push(chunk);
  return Buffer.concat(chunks);
}
