import { createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { decodeHTML } from 'entities';
import { writeWacz, writeWarc, type WarcInput } from '../archive/index.js';
import { capturedResponseOf, readCaptureLog } from '../crawl/capture-log.js';
import { DEFAULTS, FALLBACK_PATH } from '../crawl/defaults.js';
import { readBlob } from '../storage/blob-utils.js';
import type { BlobStore, Manifest, ManifestEntry } from '../types.js';

export type ArchiveFormat = 'warc' | 'wacz';

export interface VersionArchiveOptions {
  manifest: Manifest;
  store: BlobStore;
  /** The file written: a `.warc.gz` or a `.wacz`. */
  file: string;
  format: ArchiveFormat;
  /** Named in `warcinfo` and `datapackage.json`, e.g. "Mirror 0.1.0". */
  software: string;
  /** The archive's title (a WACZ's `title`): the site's name. */
  title?: string;
}

export interface VersionArchiveResult {
  /** Bytes of the file written. */
  bytes: number;
  /** WARC records, `warcinfo` included. */
  records: number;
  /** Pages listed (a WACZ's `pages.jsonl`). */
  pages: number;
}

/** The head of a page read for its `<title>`. */
const TITLE_HEAD_BYTES = 64 * 1024;

/** Headers that describe the wire bytes of a body the engine kept decoded. */
const WIRE_HEADERS = new Set(['content-encoding', 'transfer-encoding', 'content-length']);

/**
 * Writes a version of a copy as a web archive (docs/archives.md): each file as the origin answered
 * it (status, headers and body as fetched, before any rewrite) with the request that asked for it,
 * at its fetch time; a 304 of a re-mirror also as a `server-not-modified` revisit, and a body the
 * file already holds as an `identical-payload-digest` revisit. A WACZ adds its pages, index and
 * package hashes. Files of a manifest older than capture logs get their headers from the manifest
 * and the version's date.
 */
export async function writeVersionArchive(
  options: VersionArchiveOptions,
): Promise<VersionArchiveResult> {
  const { manifest, store, format } = options;
  const captured = await readCaptureLog(store, manifest);
  const userAgent = captured.userAgent || DEFAULTS.userAgent;
  const pages: { url: string; title?: string; ts: Date }[] = [];

  async function* records(): AsyncIterable<WarcInput> {
    for (const entry of manifest.entries) {
      const record = capturedResponseOf(entry, captured, manifest.createdAt);
      const date = new Date(record.at);
      const body = entry.sourceHash ?? entry.hash;
      const redirect = entry.status >= 300 && entry.status < 400;
      if (!redirect && !body) continue;
      if (isListedPage(entry))
        pages.push({ url: entry.url, ts: date, ...(await titleOf(store, entry)) });
      yield {
        type: 'response',
        url: entry.url,
        date,
        status: record.status,
        headers: payloadHeaders(record.headers, redirect ? 0 : entry.size),
        payload: () => (redirect ? emptyBody() : bodyOf(store, body, entry.size)),
        ...(!redirect && body ? { payloadSha256: body } : {}),
        request: {
          method: 'GET',
          headers: [
            ['host', new URL(entry.url).host],
            ['user-agent', userAgent],
            ['accept', '*/*'],
          ],
        },
      };
      if (record.revalidatedAt)
        yield {
          type: 'revisit',
          profile: 'server-not-modified',
          url: entry.url,
          date: new Date(record.revalidatedAt),
          refersToDate: date,
          status: 304,
          headers: record.headers.filter(([name]) => name === 'etag' || name === 'last-modified'),
        };
    }
  }

  const info = {
    software: options.software,
    isPartOf: options.title ?? manifest.title ?? manifest.startUrl,
    description: `A copy of ${manifest.startUrl} made by ${options.software} on ${manifest.createdAt}`,
  };
  if (format === 'warc') {
    const written = await writeWarc(records(), createWriteStream(options.file), info);
    return { bytes: written.bytes, records: written.records, pages: pages.length };
  }
  const scratch = await fs.mkdtemp(path.join(os.tmpdir(), 'mirror-wacz-'));
  try {
    const warcPath = path.join(scratch, 'data.warc.gz');
    const written = await writeWarc(records(), createWriteStream(warcPath), info);
    const entry = pages.find((p) => p.url === manifest.startUrl) ?? pages[0];
    const ordered = entry ? [entry, ...pages.filter((p) => p !== entry)] : pages;
    await writeWacz(options.file, {
      warcPath,
      index: written.index,
      pages: ordered,
      title: info.isPartOf,
      software: options.software,
    });
    const { size } = await fs.stat(options.file);
    return { bytes: size, records: written.records, pages: pages.length };
  } finally {
    await fs.rm(scratch, { recursive: true, force: true });
  }
}

/** A page a visitor opens: a 200 HTML page of the site, not the "page not found" answer. */
function isListedPage(entry: ManifestEntry): boolean {
  return entry.kind === 'page' && entry.status === 200 && entry.path !== FALLBACK_PATH;
}

/** The headers as answered, describing the decoded payload the archive holds. */
function payloadHeaders(headers: [string, string][], size: number): [string, string][] {
  return [
    ...headers.filter(([name]) => !WIRE_HEADERS.has(name.toLowerCase())),
    ['content-length', String(size)],
  ];
}

async function titleOf(store: BlobStore, entry: ManifestEntry): Promise<{ title?: string }> {
  const head = (await readBlob(store, entry.sourceHash ?? entry.hash))
    .subarray(0, TITLE_HEAD_BYTES)
    .toString('utf8');
  const match = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(head);
  const title = match ? decodeHTML(match[1]!).replace(/\s+/g, ' ').trim() : '';
  return title ? { title } : {};
}

async function* emptyBody(): AsyncIterable<Uint8Array> {}

/** Bodies up to this size are read in one call, where the store can (most of a site's files). */
const READ_WHOLE_BYTES = 1024 * 1024;

/** A stored body, read whole when small and the store can (one trip to the disk, not three). */
async function* bodyOf(store: BlobStore, hash: string, size: number): AsyncIterable<Uint8Array> {
  if (store.readAll && size <= READ_WHOLE_BYTES) yield await store.readAll(hash);
  else yield* store.read(hash);
}
