/**
 * Opens a web archive (`.warc`, `.warc.gz` of any number of gzip members, `.wacz`) for a copy to
 * be made from it (issue 35, docs/archives.md).
 *
 * Design: the archive is read once, streamed; each response's payload is decoded (dechunked,
 * un-gzipped: what a browser sees) and put in the BlobStore handed in, content-addressed; memory
 * keeps only the index (URL → status, headers, payload hash and size). So a 200 MB archive costs
 * its payloads in the store (which the copy stores anyway: the same blobs, once) and a few MB of
 * index, whatever the size of its bodies.
 *
 * On error an `ArchiveError` is thrown and no index is returned; payloads already put in the
 * store are then referenced by nothing, and the store's garbage collection removes them.
 */
import { open as openFile } from 'node:fs/promises';
import { createReadStream } from 'node:fs';
import type { BlobStore } from '../types.js';
import { ArchiveError } from './errors.js';
import type { ArchiveIndex, ArchivePage, ArchivedResponse } from './types.js';
import { readWacz } from './wacz-reader.js';
import { inflateWarc } from './inflate.js';
import { IndexBuilder, scanWarc } from './warc-scan.js';

export interface OpenArchiveOptions {
  /** Where the payloads go (sha256, content-addressed). */
  store: BlobStore;
  /**
   * The most bytes read: the file, the WARC inflated, and the payloads decoded, each. Past it the
   * archive is refused ('too-large', or 'zip-bomb' when it inflates absurdly).
   */
  maxBytes: number;
  /** The most WARC records read; default 1,000,000. */
  maxRecords?: number;
}

const DEFAULT_MAX_RECORDS = 1_000_000;

export async function openArchive(
  path: string,
  options: OpenArchiveOptions,
): Promise<ArchiveIndex> {
  const limits = {
    maxBytes: options.maxBytes,
    maxRecords: options.maxRecords ?? DEFAULT_MAX_RECORDS,
  };
  const { kind, size } = await sniff(path);
  const name = path.split(/[\\/]/).pop() ?? path;
  if (size > limits.maxBytes) {
    throw new ArchiveError(
      'too-large',
      `The archive is ${size} bytes, more than the ${limits.maxBytes} bytes allowed.`,
    );
  }
  let builder: IndexBuilder;
  let listed: ArchivePage[] | null = null;
  if (kind === 'zip') {
    const wacz = await readWacz(path, options.store, limits);
    builder = wacz.builder;
    listed = wacz.pages;
  } else {
    builder = new IndexBuilder(options.store, limits, kind === 'gzip' ? 'warc.gz' : 'warc');
    const file = createReadStream(path);
    const source = kind === 'gzip' ? inflateWarc(file, limits.maxBytes) : file;
    await scanWarc(source, builder, name, kind === 'gzip' ? size : undefined);
  }
  builder.finish();
  if (builder.byUrl.size === 0) {
    throw new ArchiveError(
      'no-pages',
      'The archive holds no web response a copy could be made from.',
    );
  }
  return makeIndex(builder, listed);
}

type Kind = 'gzip' | 'zip' | 'warc';

async function sniff(path: string): Promise<{ kind: Kind; size: number }> {
  const handle = await openFile(path, 'r');
  try {
    const { size } = await handle.stat();
    const head = Buffer.alloc(8);
    const { bytesRead } = await handle.read(head, 0, 8, 0);
    if (bytesRead === 0) {
      throw new ArchiveError('not-an-archive', 'The file is empty: it is not a web archive.');
    }
    if (head[0] === 0x1f && head[1] === 0x8b) return { kind: 'gzip', size };
    if (head.subarray(0, 4).equals(Buffer.from('PK\u0003\u0004', 'latin1')))
      return { kind: 'zip', size };
    if (head.subarray(0, 5).toString('latin1') === 'WARC/') return { kind: 'warc', size };
    throw new ArchiveError(
      'not-an-archive',
      'The file is not a web archive: expected a WARC, a gzipped WARC or a WACZ.',
    );
  } finally {
    await handle.close();
  }
}

function makeIndex(builder: IndexBuilder, listed: ArchivePage[] | null): ArchiveIndex {
  const store = builder.store;
  const responses = new Map<string, ArchivedResponse>();
  for (const candidate of builder.byUrl.values()) {
    const { rank, ...kept } = candidate;
    void rank;
    responses.set(kept.url, { ...kept, body: () => store.read(kept.hash) });
  }
  const present = listed?.filter((page) => responses.has(page.url)) ?? [];
  const pages: ArchivePage[] =
    present.length > 0
      ? present
      : [...responses.values()]
          .filter((response) => response.status === 200 && isHtml(response.headers['content-type']))
          .map((response) => ({ url: response.url, ts: response.date }));
  return {
    info: builder.info,
    responses: () => responses.values(),
    get(url) {
      try {
        const key = new URL(url);
        key.hash = '';
        return responses.get(key.href);
      } catch {
        return undefined;
      }
    },
    pages: () => pages.map((page) => ({ ...page })),
  };
}

function isHtml(contentType: string | undefined): boolean {
  const type = (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  return type === 'text/html' || type === 'application/xhtml+xml';
}
