import { putBytes, readBlob } from '../storage/blob-utils.js';
import type { BlobStore, CaptureRecord, Manifest, ManifestEntry } from '../types.js';

/** The first line of a capture log (`Manifest.capture`): its format and what asked. */
interface CaptureLogHead {
  format: 'mirror-capture-1';
  userAgent: string;
}

/**
 * Each response as the origin answered it (when, its status line and headers), kept beside the
 * manifest in one blob so that a version can be written out as WARC (docs/archives.md): the bodies
 * as fetched are the entries' `sourceHash`. One JSON line per file, with the head line first; the
 * manifest the sites host reads on every request stays as lean as before. Each record is held as
 * its JSON line from the moment it is answered: a run of 12,000 files holds 12,000 short strings,
 * not 12,000 header lists.
 */
export class CaptureLog {
  private readonly lines = new Map<string, string>();

  /** `kept` false: a log that records nothing and writes nothing (`MirrorOptions.captureLog`). */
  constructor(
    private readonly userAgent: string,
    private readonly kept = true,
  ) {}

  /** A response answered at `at` (default: now). */
  response(
    url: string,
    status: number,
    headers: Record<string, string>,
    at: Date = new Date(),
  ): void {
    if (!this.kept) return;
    const record: CaptureRecord = {
      url,
      at: at.toISOString(),
      status,
      headers: Object.entries(headers),
    };
    this.lines.set(url, JSON.stringify(record));
  }

  /** A 304 answer: the earlier response (its line in the previous log) stands, revalidated now. */
  revalidated(url: string, earlier: string | undefined, fallbackAt: string): void {
    if (!this.kept) return;
    const revalidatedAt = new Date().toISOString();
    const record: CaptureRecord = earlier
      ? { ...(JSON.parse(earlier) as CaptureRecord), revalidatedAt }
      : { url, at: fallbackAt, status: 200, headers: [], revalidatedAt };
    this.lines.set(url, JSON.stringify(record));
  }

  /** Writes the log of the kept entries into the store; undefined when none was captured. */
  async write(
    store: BlobStore,
    entries: readonly ManifestEntry[],
  ): Promise<Manifest['capture'] | undefined> {
    const head: CaptureLogHead = { format: 'mirror-capture-1', userAgent: this.userAgent };
    const lines = [JSON.stringify(head)];
    for (const entry of entries) {
      const line = this.lines.get(entry.url);
      if (line) lines.push(line);
    }
    if (lines.length === 1) return undefined;
    const stored = await putBytes(store, Buffer.from(lines.join('\n') + '\n'));
    return { hash: stored.hash, size: stored.size };
  }
}

/** A version's capture log, read back: its user agent and its records by URL. */
export interface CapturedResponses {
  userAgent: string;
  records: Map<string, CaptureRecord>;
}

/** Reads a manifest's capture log; an empty one for a manifest written before logs existed. */
export async function readCaptureLog(
  store: BlobStore,
  manifest: Pick<Manifest, 'capture'>,
): Promise<CapturedResponses> {
  const records = new Map<string, CaptureRecord>();
  const { userAgent } = await eachCaptureLine(store, manifest, (record) =>
    records.set(record.url, record),
  );
  return { userAgent, records };
}

/**
 * A manifest's capture log as its JSON lines by URL: what a re-mirror holds of the previous run's
 * log (a line is parsed again only for a file that answers 304).
 */
export async function readCaptureLines(
  store: BlobStore,
  manifest: Pick<Manifest, 'capture'>,
): Promise<Map<string, string>> {
  const lines = new Map<string, string>();
  await eachCaptureLine(store, manifest, (record, line) => lines.set(record.url, line));
  return lines;
}

async function eachCaptureLine(
  store: BlobStore,
  manifest: Pick<Manifest, 'capture'>,
  visit: (record: CaptureRecord, line: string) => void,
): Promise<{ userAgent: string }> {
  if (!manifest.capture || !(await store.has(manifest.capture.hash))) return { userAgent: '' };
  const lines = (await readBlob(store, manifest.capture.hash)).toString('utf8').split('\n');
  let userAgent = '';
  for (const [i, line] of lines.entries()) {
    if (line === '') continue;
    const value = JSON.parse(line) as CaptureLogHead | CaptureRecord;
    if (i === 0 && 'format' in value) userAgent = value.userAgent;
    else if ('url' in value) visit(value, line);
  }
  return { userAgent };
}

/**
 * A file's response as the origin answered it: from the capture log, else (a manifest older than
 * capture logs) from the entry's kept headers at the version's date.
 */
export function capturedResponseOf(
  entry: ManifestEntry,
  captured: CapturedResponses,
  createdAt: string,
): CaptureRecord {
  const logged = captured.records.get(entry.url);
  if (logged) return logged;
  const headers: [string, string][] = [];
  const type = entry.sourceContentType ?? entry.contentType;
  if (type) headers.push(['content-type', type]);
  for (const [name, value] of Object.entries(entry.headers)) {
    // A kept location is the copy's rewritten one; the original's is the redirect's target URL.
    if (name !== 'location') headers.push([name, value]);
  }
  if (entry.status >= 300 && entry.status < 400 && entry.headers['location'])
    headers.push(['location', new URL(entry.headers['location'], entry.url).href]);
  if (entry.etag) headers.push(['etag', entry.etag]);
  if (entry.lastModified) headers.push(['last-modified', entry.lastModified]);
  return { url: entry.url, at: createdAt, status: entry.status, headers };
}
