/**
 * Writes a WARC 1.1 file (ISO 28500), gzipped record by record so that each record is its own gzip
 * member and an index (CDXJ) can point at it by offset and length.
 *
 * Records are made with warcio's `WARCRecord` (header names, record ids, revisit profiles), but
 * serialized here: warcio's `WARCSerializer` keeps the whole payload (in memory, or in a temp file
 * past 2 MB) to state its length and digests before it. Instead, a payload not seen before in the
 * file is read twice from its source (`payload()` is called twice): once to measure its length and
 * sha256 digests, once to write it through gzip. The cost is a second read of each distinct
 * payload (from the BlobStore, not the network) and one sha256 pass; memory stays at a few chunks.
 *
 * Digests are `sha256:` followed by lowercase hex, as warcio (its default) and Browsertrix Crawler
 * write them; pywb, ReplayWeb.page and python warcio's `check` all accept that form.
 */
import { createHash, randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { Readable, type Writable } from 'node:stream';
import { finished, pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';
import { WARCRecord, WARC_1_1, type WARCType } from 'warcio';
import { surtKey, timestamp14 } from './cdxj.js';
import type {
  CdxjLine,
  HeaderList,
  WarcInput,
  WarcResourceInput,
  WarcResponseInput,
  WarcRevisitInput,
} from './types.js';

export interface WarcWriterInfo {
  /** The tool and its version, e.g. `Mirror 0.1.0`. */
  software: string;
  isPartOf?: string;
  description?: string;
  /** The name the CDXJ lines give the file; default `data.warc.gz` (a WACZ's name for it). */
  filename?: string;
}

export interface WarcWriteResult {
  /** Bytes written to `out`. */
  bytes: number;
  /** Records written, warcinfo and request records included. */
  records: number;
  /** One line per response, revisit and resource record, in file order (unsorted). */
  index: CdxjLine[];
}

const CRLF = Buffer.from('\r\n');
const EMPTY_SHA256 = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';
const SERVER_NOT_MODIFIED = 'http://netpreserve.org/warc/1.1/revisit/server-not-modified';

/**
 * Writes the records to `out` after a `warcinfo` record, then ends `out` and waits until it has
 * flushed (a file stream is complete when this resolves). A response
 * whose payload digest equals that of an earlier response in the file is written as an
 * `identical-payload-digest` revisit (headers, no payload).
 */
export async function writeWarc(
  records: AsyncIterable<WarcInput>,
  out: Writable,
  info: WarcWriterInfo,
): Promise<WarcWriteResult> {
  const filename = info.filename ?? 'data.warc.gz';
  const index: CdxjLine[] = [];
  /** Payload digest (hex) → the first response that had it. */
  const seen = new Map<string, { url: string; date: Date }>();
  let bytes = 0;
  let count = 0;

  async function emit(
    parts: AsyncIterable<Uint8Array>,
  ): Promise<{ offset: number; length: number }> {
    const offset = bytes;
    const length = await writeMember(out, parts);
    bytes += length;
    count++;
    return { offset, length };
  }

  try {
    await emit(warcinfoRecord(info, filename));
    await writeAll();
  } catch (error) {
    out.destroy();
    throw error;
  }
  out.end();
  await finished(out);
  return { bytes, records: count, index };

  async function writeAll(): Promise<void> {
    for await (const input of records) {
      if (input.type === 'response') {
        const done = await writeResponse(input, seen, emit);
        index.push({ ...done.line, filename });
        if (input.request) await emit(requestRecord(input, input.request, done.recordId));
      } else if (input.type === 'revisit') {
        const done = await emit(notModifiedRecord(input));
        index.push({
          urlkey: surtKey(input.url),
          timestamp: timestamp14(input.date),
          url: input.url,
          mime: 'warc/revisit',
          status: input.status,
          digest: '',
          ...done,
          filename,
        });
      } else {
        const { line, parts } = await resourceRecord(input);
        index.push({ ...line, ...(await emit(parts)), filename });
      }
    }
  }
}

type Emit = (parts: AsyncIterable<Uint8Array>) => Promise<{ offset: number; length: number }>;

async function writeResponse(
  input: WarcResponseInput,
  seen: Map<string, { url: string; date: Date }>,
  emit: Emit,
): Promise<{ line: Omit<CdxjLine, 'filename'>; recordId: string }> {
  const headers = cleanHeaders(input.headers);
  const statusline = `HTTP/1.1 ${input.status} ${clean(input.statusText ?? statusText(input.status))}`;
  const mime = mimeOf(headers);
  const base = {
    urlkey: surtKey(input.url),
    timestamp: timestamp14(input.date),
    url: input.url,
    status: input.status,
  };
  const known = input.payloadSha256?.toLowerCase();
  const original = known !== undefined && known !== EMPTY_SHA256 ? seen.get(known) : undefined;
  if (original !== undefined && known !== undefined) {
    const revisit = await emitRevisit(input, headers, statusline, known, original, emit);
    return {
      line: { ...base, mime: 'warc/revisit', digest: known, ...revisit.at },
      recordId: revisit.id,
    };
  }

  // The length and digests come first in a record: one pass over the payload to measure them.
  const record = makeRecord('response', input.url, input.date, statusline, headers);
  const httpBlock = httpBlockOf(record);
  const measured = await measure(input.payload(), httpBlock);
  const duplicate = measured.length > 0 ? seen.get(measured.payloadHex) : undefined;
  if (duplicate !== undefined) {
    const revisit = await emitRevisit(
      input,
      headers,
      statusline,
      measured.payloadHex,
      duplicate,
      emit,
    );
    return {
      line: { ...base, mime: 'warc/revisit', digest: measured.payloadHex, ...revisit.at },
      recordId: revisit.id,
    };
  }
  if (measured.length > 0) seen.set(measured.payloadHex, { url: input.url, date: input.date });
  const declared = headerValue(headers, 'content-length');
  if (declared !== undefined && Number(declared) !== measured.length) {
    // The payload is what a browser sees: a length of other bytes (the compressed ones) would cut
    // it short on replay.
    replaceHeader(record, 'content-length', String(measured.length));
  }
  const block = httpBlockOf(record);
  const payload = (): AsyncIterable<Uint8Array> =>
    measured.held ? fromChunks(measured.held) : input.payload();
  const blockHex = block.equals(httpBlock)
    ? measured.blockHex
    : await blockDigest(block, payload());
  setDigests(
    record,
    `sha256:${measured.payloadHex}`,
    `sha256:${blockHex}`,
    block.length + measured.length,
  );
  const at = await emit(recordParts(record, block, payload()));
  return {
    line: { ...base, mime, digest: measured.payloadHex, ...at },
    recordId: recordIdOf(record),
  };
}

async function emitRevisit(
  input: WarcResponseInput,
  headers: HeaderList,
  statusline: string,
  payloadHex: string,
  original: { url: string; date: Date },
  emit: Emit,
): Promise<{ at: { offset: number; length: number }; id: string }> {
  const record = makeRecord('revisit', input.url, input.date, statusline, headers, {
    refersToUrl: original.url,
    refersToDate: warcDate(original.date),
  });
  const block = httpBlockOf(record);
  setDigests(record, `sha256:${payloadHex}`, `sha256:${sha256Hex(block)}`, block.length);
  const at = await emit(recordParts(record, block));
  return { at, id: recordIdOf(record) };
}

function notModifiedRecord(input: WarcRevisitInput): AsyncIterable<Uint8Array> {
  const headers = cleanHeaders(input.headers);
  const record = makeRecord(
    'revisit',
    input.url,
    input.date,
    `HTTP/1.1 304 Not Modified`,
    headers,
    { refersToUrl: input.url, refersToDate: warcDate(input.refersToDate) },
  );
  record.warcHeaders.headers.set('WARC-Profile', SERVER_NOT_MODIFIED);
  const block = httpBlockOf(record);
  record.warcHeaders.headers.set('WARC-Block-Digest', `sha256:${sha256Hex(block)}`);
  record.warcHeaders.headers.set('Content-Length', String(block.length));
  return recordParts(record, block);
}

async function resourceRecord(input: WarcResourceInput): Promise<{
  line: Omit<CdxjLine, 'filename' | 'offset' | 'length'>;
  parts: AsyncIterable<Uint8Array>;
}> {
  const record = WARCRecord.create({
    url: input.url,
    date: warcDate(input.date),
    type: 'resource',
    warcVersion: WARC_1_1,
    warcHeaders: { 'Content-Type': clean(input.contentType) },
  });
  const measured = await measure(input.payload(), Buffer.alloc(0));
  const digest = `sha256:${measured.payloadHex}`;
  setDigests(record, digest, digest, measured.length);
  return {
    line: {
      urlkey: surtKey(input.url),
      timestamp: timestamp14(input.date),
      url: input.url,
      mime: input.contentType.split(';')[0]?.trim() ?? '',
      digest: measured.payloadHex,
    },
    parts: recordParts(record, Buffer.alloc(0), input.payload()),
  };
}

function requestRecord(
  input: WarcResponseInput,
  request: { method: string; headers: HeaderList },
  responseId: string,
): AsyncIterable<Uint8Array> {
  const url = new URL(input.url);
  const headers = cleanHeaders(request.headers);
  if (headerValue(headers, 'host') === undefined) headers.unshift(['Host', url.host]);
  const record = makeRecord(
    'request',
    input.url,
    input.date,
    `${clean(request.method).toUpperCase()} ${url.pathname}${url.search} HTTP/1.1`,
    headers,
  );
  record.warcHeaders.headers.set('WARC-Concurrent-To', responseId);
  const block = httpBlockOf(record);
  record.warcHeaders.headers.set('WARC-Block-Digest', `sha256:${sha256Hex(block)}`);
  record.warcHeaders.headers.set('Content-Length', String(block.length));
  return recordParts(record, block);
}

function warcinfoRecord(info: WarcWriterInfo, filename: string): AsyncIterable<Uint8Array> {
  const fields: [string, string | undefined][] = [
    ['software', info.software],
    ['format', 'WARC File Format 1.1'],
    [
      'conformsTo',
      'http://iipc.github.io/warc-specifications/specifications/warc-format/warc-1.1/',
    ],
    ['isPartOf', info.isPartOf],
    ['description', info.description],
  ];
  const text = fields
    .filter((field): field is [string, string] => field[1] !== undefined)
    .map(([name, value]) => `${name}: ${clean(value)}\r\n`)
    .join('');
  const block = Buffer.from(text, 'utf8');
  const record = WARCRecord.create({
    type: 'warcinfo',
    filename,
    date: warcDate(new Date()),
    warcVersion: WARC_1_1,
  });
  record.warcHeaders.headers.set('WARC-Block-Digest', `sha256:${sha256Hex(block)}`);
  record.warcHeaders.headers.set('Content-Length', String(block.length));
  return recordParts(record, block);
}

function makeRecord(
  type: WARCType,
  url: string,
  date: Date,
  statusline: string,
  headers: HeaderList,
  refers: { refersToUrl?: string; refersToDate?: string } = {},
): WARCRecord {
  return WARCRecord.create({
    type,
    url,
    date: warcDate(date),
    warcVersion: WARC_1_1,
    statusline,
    httpHeaders: headers,
    keepHeadersCase: true,
    warcHeaders: { 'WARC-Record-ID': `<urn:uuid:${randomUUID()}>` },
    ...refers,
  });
}

/** The HTTP status line and headers, and the blank line after them. */
function httpBlockOf(record: WARCRecord): Buffer {
  return record.httpHeaders === null
    ? Buffer.alloc(0)
    : Buffer.from(`${record.httpHeaders.toString()}\r\n`, 'utf8');
}

function replaceHeader(record: WARCRecord, name: string, value: string): void {
  const headers = record.httpHeaders?.headers;
  if (headers === undefined) return;
  for (const key of [...headers.keys()]) {
    if (key.toLowerCase() === name) headers.set(key, value);
  }
}

function setDigests(record: WARCRecord, payload: string, block: string, length: number): void {
  record.warcHeaders.headers.set('WARC-Payload-Digest', payload);
  record.warcHeaders.headers.set('WARC-Block-Digest', block);
  record.warcHeaders.headers.set('Content-Length', String(length));
}

function recordIdOf(record: WARCRecord): string {
  return record.warcHeaders.headers.get('WARC-Record-ID') ?? '';
}

/** WARC header block, blank line, the block (HTTP head, then the payload), two CRLFs. */
async function* recordParts(
  record: WARCRecord,
  head: Buffer,
  payload?: AsyncIterable<Uint8Array>,
): AsyncGenerator<Uint8Array> {
  yield Buffer.from(`${record.warcHeaders.toString()}\r\n`, 'utf8');
  if (head.length > 0) yield head;
  if (payload !== undefined) yield* payload;
  yield CRLF;
  yield CRLF;
}

/**
 * A record up to this size is gzipped in one synchronous call, and a payload up to it is read once
 * (held between measuring and writing): most of a site's files, written without a stream per
 * record (a gzip stream's set-up and its trips to the thread pool cost more than the compression).
 */
const SMALL_RECORD = 1024 * 1024;

/** Gzips the parts as one member onto `out`, with backpressure; returns the member's size. */
async function writeMember(out: Writable, parts: AsyncIterable<Uint8Array>): Promise<number> {
  const iterator = parts[Symbol.asyncIterator]();
  const held: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const next = await iterator.next();
    if (next.done) {
      const member = zlib.gzipSync(Buffer.concat(held));
      if (!out.write(member)) await once(out, 'drain');
      return member.length;
    }
    held.push(next.value);
    size += next.value.byteLength;
    if (size > SMALL_RECORD) break;
  }
  async function* rest(): AsyncGenerator<Uint8Array> {
    yield* held;
    for (;;) {
      const next = await iterator.next();
      if (next.done) return;
      yield next.value;
    }
  }
  let length = 0;
  await pipeline(
    Readable.from(rest()),
    zlib.createGzip(),
    async (source: AsyncIterable<Buffer>) => {
      for await (const chunk of source) {
        length += chunk.length;
        if (!out.write(chunk)) await once(out, 'drain');
      }
    },
  );
  return length;
}

/** Length and digests of a payload; a small one is held (`SMALL_RECORD`) so it is read once. */
async function measure(
  payload: AsyncIterable<Uint8Array>,
  head: Buffer,
): Promise<{ length: number; payloadHex: string; blockHex: string; held?: Uint8Array[] }> {
  const payloadHash = createHash('sha256');
  const blockHash = createHash('sha256').update(head);
  let length = 0;
  let held: Uint8Array[] | undefined = [];
  for await (const chunk of payload) {
    payloadHash.update(chunk);
    blockHash.update(chunk);
    length += chunk.byteLength;
    if (held && length <= SMALL_RECORD) held.push(chunk);
    else held = undefined;
  }
  return {
    length,
    payloadHex: payloadHash.digest('hex'),
    blockHex: blockHash.digest('hex'),
    ...(held ? { held } : {}),
  };
}

async function* fromChunks(chunks: readonly Uint8Array[]): AsyncGenerator<Uint8Array> {
  yield* chunks;
}

async function blockDigest(head: Buffer, payload: AsyncIterable<Uint8Array>): Promise<string> {
  return (await measure(payload, head)).blockHex;
}

function sha256Hex(data: Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

/** WARC-Date: UTC to the second (WARC 1.1 allows fractions; every reader takes seconds). */
function warcDate(date: Date): string {
  return date.toISOString().replace(/\.\d+Z$/, 'Z');
}

/** Header names and values on one line: a CR or LF in them would end the header block. */
function clean(text: string): string {
  return text.replace(/[\r\n]+/g, ' ');
}

/**
 * Headers as recorded, minus Transfer-Encoding: the payload is written whole, never chunked, so a
 * reader must not try to dechunk it.
 */
function cleanHeaders(headers: HeaderList): HeaderList {
  return headers
    .filter(([name]) => name.toLowerCase() !== 'transfer-encoding')
    .map(([name, value]): [string, string] => [clean(name), clean(value)]);
}

function headerValue(headers: HeaderList, name: string): string | undefined {
  return headers.find(([key]) => key.toLowerCase() === name)?.[1];
}

function mimeOf(headers: HeaderList): string {
  return (headerValue(headers, 'content-type') ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
}

const STATUS_TEXT: Record<number, string> = {
  200: 'OK',
  201: 'Created',
  204: 'No Content',
  206: 'Partial Content',
  301: 'Moved Permanently',
  302: 'Found',
  303: 'See Other',
  304: 'Not Modified',
  307: 'Temporary Redirect',
  308: 'Permanent Redirect',
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  410: 'Gone',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

function statusText(status: number): string {
  return STATUS_TEXT[status] ?? '';
}
