/**
 * Reads a WACZ (a zip): its WARCs under `archive/`, its pages list and its datapackage.json,
 * whose sha256 of each file is checked against the bytes read. Zip bombs are refused before
 * inflating (declared sizes over the limit, absurd ratios) and while inflating (an entry that
 * inflates past its declared size: yauzl checks it).
 */
import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import yauzl from 'yauzl';
import type { BlobStore } from '../types.js';
import { ArchiveError } from './errors.js';
import { inflateWarc } from './inflate.js';
import type { ArchivePage } from './types.js';
import { BOMB_RATIO, IndexBuilder, scanWarc, targetUrl, type ScanLimits } from './warc-scan.js';

const MAX_TEXT_BYTES = 64 * 1024 * 1024;
const MAX_ENTRIES = 100_000;

export async function readWacz(
  path: string,
  store: BlobStore,
  limits: ScanLimits,
): Promise<{ builder: IndexBuilder; pages: ArchivePage[] | null }> {
  let zip: yauzl.ZipFile;
  try {
    zip = await yauzl.openPromise(path, {
      lazyEntries: true,
      validateEntrySizes: true,
      autoClose: false,
      strictFileNames: false,
    });
  } catch (error) {
    throw new ArchiveError(
      'truncated',
      'The zip cannot be read: it was cut short or is damaged (no central directory).',
      { cause: error },
    );
  }
  try {
    const entries: yauzl.Entry[] = [];
    try {
      for await (const entry of zip.eachEntry()) {
        entries.push(entry);
        if (entries.length > MAX_ENTRIES) {
          throw new ArchiveError('too-large', `The zip holds more than ${MAX_ENTRIES} files.`);
        }
      }
    } catch (error) {
      if (error instanceof ArchiveError) throw error;
      throw new ArchiveError('bad-record', "The zip's list of files is damaged.", { cause: error });
    }
    const warcs = entries.filter((entry) => /^archive\/[^/]+\.warc(\.gz)?$/i.test(entry.fileName));
    if (warcs.length === 0) {
      throw new ArchiveError(
        'not-an-archive',
        'The zip holds no WARC file under archive/: it is not a WACZ.',
      );
    }
    let total = 0;
    for (const entry of warcs) {
      checkSizes(entry, limits.maxBytes);
      total += entry.uncompressedSize;
    }
    if (total > limits.maxBytes) {
      throw new ArchiveError(
        'too-large',
        `The archive's WARC files add up to ${total} bytes, more than the ${limits.maxBytes} allowed.`,
      );
    }

    const hashes = await readHashes(zip, entries);
    const builder = new IndexBuilder(store, limits, 'wacz');
    if (hashes.software !== undefined) builder.info.software = hashes.software;
    if (hashes.title !== undefined) builder.info.title = hashes.title;

    for (const entry of warcs) {
      const hasher = createHash('sha256');
      const { gzipped, bytes } = await sniffGzip(tee(await openEntry(zip, entry), hasher));
      const source = gzipped ? inflateWarc(bytes, limits.maxBytes) : bytes;
      await scanWarc(source, builder, entry.fileName, gzipped ? entry.uncompressedSize : undefined);
      checkHash(hashes.byPath, entry.fileName, `sha256:${hasher.digest('hex')}`);
    }

    const pagesEntry = entries.find((entry) => entry.fileName === 'pages/pages.jsonl');
    const pages =
      pagesEntry === undefined ? null : await readPages(zip, pagesEntry, hashes.byPath, limits);
    return { builder, pages };
  } finally {
    zip.close();
  }
}

/** Declared sizes: over the limit, or a ratio no real archive has, is refused before inflating. */
function checkSizes(entry: yauzl.Entry, maxBytes: number): void {
  const ratio = entry.uncompressedSize / Math.max(entry.compressedSize, 1);
  if (entry.uncompressedSize > 1024 * 1024 && ratio > BOMB_RATIO) {
    throw new ArchiveError(
      'zip-bomb',
      `The zip's ${entry.fileName} inflates from ${entry.compressedSize} to ${entry.uncompressedSize} bytes: it is a zip bomb.`,
    );
  }
  if (entry.uncompressedSize > maxBytes) {
    throw new ArchiveError(
      'too-large',
      `The zip's ${entry.fileName} is ${entry.uncompressedSize} bytes, more than the ${maxBytes} allowed.`,
    );
  }
}

async function openEntry(
  zip: yauzl.ZipFile,
  entry: yauzl.Entry,
): Promise<AsyncIterable<Uint8Array>> {
  let stream: Readable;
  try {
    stream = await zip.openReadStreamPromise(entry);
  } catch (error) {
    throw new ArchiveError(
      'bad-record',
      `The zip's ${entry.fileName} cannot be read: the zip is damaged.`,
      {
        cause: error,
      },
    );
  }
  return entryBytes(stream, entry);
}

/** The entry's bytes; yauzl's size checks become ArchiveErrors. */
async function* entryBytes(stream: Readable, entry: yauzl.Entry): AsyncGenerator<Uint8Array> {
  try {
    for await (const chunk of stream) yield chunk as Buffer;
  } catch (error) {
    if (error instanceof ArchiveError) throw error;
    const message = error instanceof Error ? error.message : String(error);
    if (message.includes('too many bytes')) {
      throw new ArchiveError(
        'zip-bomb',
        `The zip's ${entry.fileName} inflates past the ${entry.uncompressedSize} bytes it declares: it is a zip bomb.`,
        { cause: error },
      );
    }
    if (message.includes('not enough bytes') || /unexpected end/i.test(message)) {
      throw new ArchiveError('truncated', `The zip's ${entry.fileName} is cut short.`, {
        cause: error,
      });
    }
    throw new ArchiveError('bad-record', `The zip's ${entry.fileName} is damaged: ${message}.`, {
      cause: error,
    });
  } finally {
    // Closed early (or failed): late errors of yauzl's inner streams have nowhere to go.
    stream.on('error', () => undefined);
    stream.destroy();
  }
}

async function* tee(
  source: AsyncIterable<Uint8Array>,
  hasher: ReturnType<typeof createHash>,
): AsyncGenerator<Uint8Array> {
  for await (const chunk of source) {
    hasher.update(chunk);
    yield chunk;
  }
}

/** Whether the bytes start like gzip, and the bytes, the first chunk included. */
async function sniffGzip(
  source: AsyncIterable<Uint8Array>,
): Promise<{ gzipped: boolean; bytes: AsyncIterable<Uint8Array> }> {
  const iterator = source[Symbol.asyncIterator]();
  const first = await iterator.next();
  if (first.done === true) return { gzipped: false, bytes: source };
  const head = first.value;
  return {
    gzipped: head[0] === 0x1f && head[1] === 0x8b,
    bytes: (async function* () {
      yield head;
      yield* { [Symbol.asyncIterator]: () => iterator };
    })(),
  };
}

interface PackageHashes {
  byPath: Map<string, string>;
  software?: string;
  title?: string;
}

/** datapackage.json's resources (path → `sha256:…`), software and title; empty when absent. */
async function readHashes(
  zip: yauzl.ZipFile,
  entries: readonly yauzl.Entry[],
): Promise<PackageHashes> {
  const byPath = new Map<string, string>();
  const entry = entries.find((candidate) => candidate.fileName === 'datapackage.json');
  if (entry === undefined) return { byPath };
  const text = (await readBytes(zip, entry, 16 * 1024 * 1024)).toString('utf8');
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new ArchiveError('bad-record', "The WACZ's datapackage.json is not valid JSON.", {
      cause: error,
    });
  }
  const result: PackageHashes = { byPath };
  if (typeof data !== 'object' || data === null) return result;
  const record = data as Record<string, unknown>;
  if (typeof record.software === 'string') result.software = record.software;
  if (typeof record.title === 'string') result.title = record.title;
  if (Array.isArray(record.resources)) {
    for (const resource of record.resources as unknown[]) {
      if (typeof resource !== 'object' || resource === null) continue;
      const { path, hash } = resource as Record<string, unknown>;
      if (typeof path === 'string' && typeof hash === 'string')
        byPath.set(path, hash.toLowerCase());
    }
  }
  return result;
}

function checkHash(byPath: Map<string, string>, path: string, actual: string): void {
  const expected = byPath.get(path);
  if (expected === undefined || !expected.startsWith('sha256:')) return;
  if (expected !== actual) {
    throw new ArchiveError(
      'bad-record',
      `The WACZ's ${path} does not match the hash its datapackage.json records: it was altered or damaged.`,
    );
  }
}

async function readBytes(zip: yauzl.ZipFile, entry: yauzl.Entry, max: number): Promise<Buffer> {
  if (entry.uncompressedSize > max) {
    throw new ArchiveError(
      'too-large',
      `The WACZ's ${entry.fileName} is larger than ${max} bytes.`,
    );
  }
  checkSizes(entry, max);
  const chunks: Uint8Array[] = [];
  for await (const chunk of await openEntry(zip, entry)) chunks.push(chunk);
  return Buffer.concat(chunks);
}

/** pages/pages.jsonl: a header line, then `{url, ts, title}` lines; unreadable lines are left out. */
async function readPages(
  zip: yauzl.ZipFile,
  entry: yauzl.Entry,
  byPath: Map<string, string>,
  limits: ScanLimits,
): Promise<ArchivePage[]> {
  const data = await readBytes(zip, entry, Math.min(limits.maxBytes, MAX_TEXT_BYTES));
  checkHash(byPath, entry.fileName, `sha256:${createHash('sha256').update(data).digest('hex')}`);
  const text = data.toString('utf8');
  const pages: ArchivePage[] = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '' || pages.length >= limits.maxRecords) continue;
    let page: unknown;
    try {
      page = JSON.parse(line);
    } catch {
      continue;
    }
    if (typeof page !== 'object' || page === null) continue;
    const { url, ts, title } = page as Record<string, unknown>;
    const target = typeof url === 'string' ? targetUrl(url) : undefined;
    if (target === undefined) continue;
    const date = new Date(typeof ts === 'string' || typeof ts === 'number' ? ts : 0);
    pages.push({
      url: target,
      ts: Number.isNaN(date.getTime()) ? new Date(0) : date,
      ...(typeof title === 'string' ? { title } : {}),
    });
  }
  return pages;
}
