/**
 * Scans the records of a WARC (already inflated) once, in order: each response's payload is
 * decoded to what a browser sees and streamed into the BlobStore; only an index (URL → status,
 * headers, payload hash) stays in memory.
 */
import type { BlobStore } from '../types.js';
import { Block, ByteReader, EndOfData, LineTooLong } from './byte-reader.js';
import { ArchiveError } from './errors.js';
import { decodePayload, parseHttpHead, type HttpHead } from './http-payload.js';
import type { ArchivedResponse, ArchiveInfo } from './types.js';

/** Longest WARC or HTTP header line, and whole header block, read. */
const MAX_LINE = 64 * 1024;
const MAX_HEAD = 256 * 1024;
const MAX_WARNINGS = 50;
/** Inflated bytes per compressed byte past which a body over the limit is a bomb, not just big. */
export const BOMB_RATIO = 100;

export interface ScanLimits {
  maxBytes: number;
  maxRecords: number;
}

interface Candidate extends Omit<ArchivedResponse, 'body'> {
  /** Responses under 400 beat resources, which beat errors and partial content. */
  rank: number;
}

interface PendingRevisit {
  url: string;
  date: Date;
  digest: string;
  refersTo: string | undefined;
  head: HttpHead | null;
}

/** What a scan builds: the index, the counts and the digests of the payloads stored. */
export class IndexBuilder {
  readonly byUrl = new Map<string, Candidate>();
  /** WARC-Payload-Digest as recorded → the payload stored for it. */
  private readonly byDigest = new Map<string, { hash: string; size: number }>();
  private readonly pending: PendingRevisit[] = [];
  readonly info: ArchiveInfo;

  constructor(
    readonly store: BlobStore,
    readonly limits: ScanLimits,
    format: ArchiveInfo['format'],
  ) {
    this.info = {
      format,
      records: 0,
      responses: 0,
      revisits: 0,
      skipped: 0,
      payloadBytes: 0,
      warnings: [],
    };
  }

  warn(message: string): void {
    this.info.skipped++;
    if (this.info.warnings.length < MAX_WARNINGS) this.info.warnings.push(message);
  }

  offer(candidate: Candidate): void {
    const current = this.byUrl.get(candidate.url);
    if (
      current === undefined ||
      candidate.rank > current.rank ||
      (candidate.rank === current.rank && candidate.date >= current.date)
    ) {
      this.byUrl.set(candidate.url, candidate);
    }
  }

  remember(digest: string | undefined, payload: { hash: string; size: number }): void {
    if (digest !== undefined && !this.byDigest.has(digest)) this.byDigest.set(digest, payload);
  }

  revisit(pending: PendingRevisit): void {
    this.pending.push(pending);
  }

  /** Resolves identical-payload-digest revisits once every original has been seen. */
  finish(): void {
    for (const revisit of this.pending) {
      const payload =
        this.byDigest.get(revisit.digest) ??
        (revisit.refersTo === undefined ? undefined : this.byUrl.get(revisit.refersTo));
      if (payload === undefined) {
        this.warn(`${revisit.url}: a revisit of a payload the archive does not hold`);
        continue;
      }
      const original =
        revisit.refersTo === undefined ? undefined : this.byUrl.get(revisit.refersTo);
      const head = revisit.head ?? original;
      if (head === undefined) {
        this.warn(
          `${revisit.url}: a revisit without headers of a response the archive does not hold`,
        );
        continue;
      }
      this.info.revisits++;
      this.offer({
        url: revisit.url,
        date: revisit.date,
        status: head.status,
        statusText: head.statusText,
        headers: payloadHeaders(head.headers, payload.size),
        hash: payload.hash,
        size: payload.size,
        rank: rankOf(head.status),
      });
    }
    this.pending.length = 0;
    this.info.responses = this.byUrl.size;
  }
}

/** Scans every record of one WARC stream into the builder. */
export async function scanWarc(
  source: AsyncIterable<Uint8Array>,
  builder: IndexBuilder,
  name: string,
  /** Bytes of the gzipped file the source inflates, when it is gzipped. */
  compressedSize?: number,
): Promise<void> {
  const reader = new ByteReader(source);
  let number = 0;
  for (;;) {
    const first = await nextRecordLine(reader, number, name);
    if (first === null) return;
    number++;
    builder.info.records++;
    if (builder.info.records > builder.limits.maxRecords) {
      throw new ArchiveError(
        'too-large',
        `The archive holds more than ${builder.limits.maxRecords} records, the most allowed.`,
      );
    }
    const headers = await readWarcHeaders(reader, number, name);
    const length = Number(headers.get('content-length'));
    if (!/^\d+$/.test(headers.get('content-length') ?? '')) {
      throw new ArchiveError(
        'bad-record',
        `Record ${number} of ${name} has no valid Content-Length, so its end cannot be found.`,
      );
    }
    if (length > builder.limits.maxBytes) {
      throw tooLongRecord(number, name, length, builder.limits.maxBytes, compressedSize);
    }
    const block = new Block(reader, length);
    try {
      await readRecord(headers, block, builder, `record ${number} of ${name}`);
      await block.drain();
    } catch (error) {
      throw asArchiveError(error, number, name);
    }
  }
}

/** The `WARC/1.x` line of the next record, past the blank lines that end the previous one. */
async function nextRecordLine(
  reader: ByteReader,
  number: number,
  name: string,
): Promise<string | null> {
  for (;;) {
    let line: Buffer | null;
    try {
      line = await reader.readLine(MAX_LINE);
    } catch (error) {
      if (!(error instanceof LineTooLong)) throw error;
      line = Buffer.from('(binary)');
    }
    if (line === null) return null;
    const text = line.toString('latin1');
    if (text.trim() === '') continue;
    if (/^WARC\/\d\.\d+\s*$/.test(text)) return text;
    if (number === 0) {
      throw new ArchiveError(
        'not-an-archive',
        `${name} is not a WARC file: it does not start with a WARC record.`,
      );
    }
    throw new ArchiveError(
      'bad-record',
      `Record ${number} of ${name} is not followed by the next record: its Content-Length is wrong.`,
    );
  }
}

async function readWarcHeaders(
  reader: ByteReader,
  number: number,
  name: string,
): Promise<Map<string, string>> {
  const headers = new Map<string, string>();
  let total = 0;
  for (;;) {
    let line: Buffer | null;
    try {
      line = await reader.readLine(MAX_LINE);
    } catch (error) {
      if (error instanceof LineTooLong) {
        throw new ArchiveError(
          'bad-record',
          `Record ${number} of ${name} has a header line too long to be one.`,
        );
      }
      throw error;
    }
    if (line === null) {
      throw new ArchiveError(
        'truncated',
        `The archive ends in the middle of record ${number}'s headers: it was cut short.`,
      );
    }
    if (line.length === 0) return headers;
    total += line.length;
    if (total > MAX_HEAD) {
      throw new ArchiveError(
        'bad-record',
        `Record ${number} of ${name} has a header block too large to be one.`,
      );
    }
    const text = line.toString('utf8');
    const colon = text.indexOf(':');
    if (colon <= 0) continue;
    const key = text.slice(0, colon).trim().toLowerCase();
    if (!headers.has(key)) headers.set(key, text.slice(colon + 1).trim());
  }
}

async function readRecord(
  headers: Map<string, string>,
  block: Block,
  builder: IndexBuilder,
  where: string,
): Promise<void> {
  const type = (headers.get('warc-type') ?? '').toLowerCase();
  const url = targetUrl(headers.get('warc-target-uri'));
  const date = parseDate(headers.get('warc-date'));
  if (type === 'warcinfo') {
    if (block.length <= MAX_HEAD) await readWarcinfo(block, builder);
    return;
  }
  if (url === undefined) return; // dns:, urn:, metadata of a crawl: nothing to serve.
  if (type === 'response') {
    const head = await readHttpHead(block);
    if (head === null) {
      builder.warn(`${url}: its response record does not hold an HTTP response`);
      return;
    }
    if (head.status === 304 || head.status < 200) return; // Nothing to serve from these.
    const digest = headers.get('warc-payload-digest');
    const stored = await storePayload(block, head, builder, url, where);
    if (stored === null) return;
    builder.remember(digest, stored);
    builder.offer({
      url,
      date,
      status: head.status,
      statusText: head.statusText,
      headers: payloadHeaders(stored.headers, stored.size),
      hash: stored.hash,
      size: stored.size,
      rank: rankOf(head.status),
    });
  } else if (type === 'resource') {
    const contentType = headers.get('content-type') ?? 'application/octet-stream';
    const head: HttpHead = {
      status: 200,
      statusText: 'OK',
      headers: { 'content-type': contentType },
    };
    const stored = await storePayload(block, head, builder, url, where);
    if (stored === null) return;
    builder.remember(headers.get('warc-payload-digest'), stored);
    builder.offer({
      url,
      date,
      status: 200,
      statusText: 'OK',
      headers: payloadHeaders(stored.headers, stored.size),
      hash: stored.hash,
      size: stored.size,
      rank: 2,
    });
  } else if (type === 'revisit') {
    const profile = headers.get('warc-profile') ?? '';
    const digest = headers.get('warc-payload-digest');
    // server-not-modified: the URL's earlier response stands; nothing new to keep.
    if (!profile.includes('identical-payload-digest') || digest === undefined) return;
    const head = block.length > 0 ? await readHttpHead(block) : null;
    builder.revisit({
      url,
      date,
      digest,
      refersTo: targetUrl(headers.get('warc-refers-to-target-uri')),
      head,
    });
  }
}

async function readWarcinfo(block: Block, builder: IndexBuilder): Promise<void> {
  for (;;) {
    const line = await block.readLine(MAX_LINE).catch(() => null);
    if (line === null) return;
    const match = /^software:\s*(.+)$/i.exec(line.toString('utf8'));
    if (match?.[1] !== undefined && builder.info.software === undefined) {
      builder.info.software = match[1].trim();
    }
  }
}

/** The status line and headers at the start of a block; null when they are not HTTP's. */
async function readHttpHead(block: Block): Promise<HttpHead | null> {
  const lines: string[] = [];
  let total = 0;
  let status: string | null = null;
  for (;;) {
    let line: Buffer | null;
    try {
      line = await block.readLine(MAX_LINE);
    } catch (error) {
      if (error instanceof LineTooLong) return null;
      throw error;
    }
    if (line === null) break; // A head without body or blank line: all of the block.
    if (line.length === 0) break;
    total += line.length;
    if (total > MAX_HEAD) return null;
    const text = line.toString('latin1');
    if (status === null) status = text;
    else if (/^[ \t]/.test(text) && lines.length > 0) lines[lines.length - 1] += ` ${text.trim()}`;
    else lines.push(text);
  }
  return status === null ? null : parseHttpHead(status, lines);
}

/**
 * Decodes the rest of the block into the store. A payload that does not decode (a damaged gzip
 * body) is left out with a warning; a fault of the archive itself (cut short) throws.
 */
async function storePayload(
  block: Block,
  head: HttpHead,
  builder: IndexBuilder,
  url: string,
  where: string,
): Promise<{ hash: string; size: number; headers: Record<string, string> } | null> {
  const { body, headers } = decodePayload(guarded(block, where), head);
  const counted = count(body, builder);
  try {
    const { hash, size } = await builder.store.put(counted);
    return { hash, size, headers };
  } catch (error) {
    if (error instanceof ArchiveError) throw error;
    const cause = findArchiveError(error);
    if (cause !== undefined) throw cause;
    builder.warn(
      `${url}: its payload does not decode (${error instanceof Error ? error.message : String(error)})`,
    );
    return null;
  }
}

/** The block's bytes; the block ending early is the archive's fault, not the payload's. */
async function* guarded(block: Block, where: string): AsyncGenerator<Uint8Array> {
  try {
    yield* block.rest();
  } catch (error) {
    if (error instanceof EndOfData) throw cutShort(where, error);
    throw error;
  }
}

function cutShort(where: string, cause: EndOfData): ArchiveError {
  return new ArchiveError(
    'truncated',
    `The archive ends in the middle of ${where}: it was cut short, or its Content-Length is wrong.`,
    { cause },
  );
}

/** A record longer than the limit: a wrong length, or (gzipped) a bomb or a big archive. */
function tooLongRecord(
  number: number,
  name: string,
  length: number,
  maxBytes: number,
  compressedSize: number | undefined,
): ArchiveError {
  const what = `Record ${number} of ${name} declares ${length} bytes`;
  if (compressedSize === undefined) {
    return new ArchiveError(
      'bad-record',
      `${what}, more than the archive may hold: its Content-Length is wrong.`,
    );
  }
  if (length / Math.max(compressedSize, 1) > BOMB_RATIO) {
    return new ArchiveError(
      'zip-bomb',
      `${what} inflated from a ${compressedSize}-byte file: it is a compression bomb.`,
    );
  }
  return new ArchiveError('too-large', `${what}, more than the ${maxBytes} bytes allowed.`);
}

/** Counts decoded payload bytes against the limit (a gzip body can inflate without bound). */
async function* count(
  body: AsyncIterable<Uint8Array>,
  builder: IndexBuilder,
): AsyncGenerator<Uint8Array> {
  for await (const chunk of body) {
    builder.info.payloadBytes += chunk.byteLength;
    if (builder.info.payloadBytes > builder.limits.maxBytes) {
      throw new ArchiveError(
        'zip-bomb',
        `The archive's responses inflate past ${builder.limits.maxBytes} bytes, the most allowed: it is a compression bomb or too large.`,
      );
    }
    yield chunk;
  }
}

function findArchiveError(error: unknown): ArchiveError | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current instanceof Error; depth++) {
    if (current instanceof ArchiveError) return current;
    current = current.cause;
  }
  return undefined;
}

function asArchiveError(error: unknown, number: number, name: string): unknown {
  if (error instanceof EndOfData) return cutShort(`record ${number} of ${name}`, error);
  return error;
}

/** Headers of a stored payload: content-length is its decoded size. */
function payloadHeaders(headers: Record<string, string>, size: number): Record<string, string> {
  const out = { ...headers };
  delete out['transfer-encoding'];
  delete out['content-encoding'];
  out['content-length'] = String(size);
  return out;
}

function rankOf(status: number): number {
  return status < 400 && status !== 206 ? 3 : 1;
}

/** An http(s) URL without fragment; undefined for anything else. WARC 1.0 allowed `<…>`. */
export function targetUrl(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const text = value.trim().replace(/^<(.*)>$/, '$1');
  try {
    const url = new URL(text);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
    url.hash = '';
    return url.href;
  } catch {
    return undefined;
  }
}

function parseDate(value: string | undefined): Date {
  const date = new Date(value ?? '');
  return Number.isNaN(date.getTime()) ? new Date(0) : date;
}
