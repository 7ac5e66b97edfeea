import { createArchiveClient } from '../archive/index.js';
import type { ArchivedResponse, ArchiveIndex } from '../archive/index.js';
import { capturedResponseOf, readCaptureLog } from '../crawl/capture-log.js';
import { FALLBACK_PATH } from '../crawl/defaults.js';
import type { HttpClient } from '../net/http-client.js';
import type { BlobStore, Manifest } from '../types.js';

/** Headers of the wire that a body kept decoded no longer matches. */
const WIRE_HEADERS = new Set(['content-encoding', 'transfer-encoding', 'content-length']);

/**
 * An HttpClient that answers each URL of a version with its response as the origin answered it
 * (the capture log's status and headers, the body as fetched): the site as it was when the copy
 * was made, with no network. A copy imported from an archive is checked against it (its fidelity
 * report), as a live copy is against the live site.
 */
export async function createVersionClient(
  manifest: Manifest,
  store: BlobStore,
): Promise<HttpClient> {
  const captured = await readCaptureLog(store, manifest);
  const byUrl = new Map<string, ArchivedResponse>();
  for (const entry of manifest.entries) {
    if (entry.path === FALLBACK_PATH) continue;
    const redirect = entry.status >= 300 && entry.status < 400;
    const hash = redirect ? '' : (entry.sourceHash ?? entry.hash);
    if (!redirect && !hash) continue;
    const record = capturedResponseOf(entry, captured, manifest.createdAt);
    const headers: Record<string, string> = {};
    for (const [name, value] of record.headers)
      if (!WIRE_HEADERS.has(name.toLowerCase())) headers[name.toLowerCase()] = value;
    // A body the copy rewrote has a size of its own; the one fetched is measured as it streams.
    const size = redirect ? 0 : hash === entry.hash ? entry.size : 0;
    byUrl.set(entry.url, {
      url: entry.url,
      date: new Date(record.at),
      status: record.status,
      statusText: '',
      headers,
      hash,
      size,
      body: () => (redirect ? empty() : store.read(hash)),
    });
  }
  const index: ArchiveIndex = {
    info: {
      format: 'warc',
      records: byUrl.size,
      responses: byUrl.size,
      revisits: 0,
      skipped: 0,
      payloadBytes: 0,
      warnings: [],
    },
    responses: () => byUrl.values(),
    get: (url) => byUrl.get(url.split('#')[0]!),
    pages: () => [],
  };
  return createArchiveClient(index);
}

async function* empty(): AsyncIterable<Uint8Array> {}
