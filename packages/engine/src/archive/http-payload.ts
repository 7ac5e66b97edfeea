/**
 * An archived HTTP response as a browser sees it. Tools record different bytes: wget writes the
 * wire bytes (chunked transfer-encoding, then gzip or brotli content-encoding, as sent), warcio
 * and Browsertrix write them dechunked but still compressed, Mirror writes the decoded payload.
 * This undoes what is still on: dechunk, then each content-encoding, outermost first.
 */
import { decode, decodingChain } from '../net/http-client.js';
import { ByteReader } from './byte-reader.js';

export interface HttpHead {
  status: number;
  statusText: string;
  /** Names lower-case, repeats joined with ', ' (set-cookie too, as HttpResponse does). */
  headers: Record<string, string>;
}

/** Reads `HTTP/1.1 200 OK` and its header lines; null when the status line is not HTTP's. */
export function parseHttpHead(statusLine: string, lines: readonly string[]): HttpHead | null {
  const match = /^HTTP\/\d(?:\.\d)?\s+(\d{3})(?:\s+(.*))?$/i.exec(statusLine.trim());
  if (match === null) return null;
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    const previous = headers[name];
    headers[name] = previous === undefined ? value : `${previous}, ${value}`;
  }
  return { status: Number(match[1]), statusText: match[2] ?? '', headers };
}

/**
 * The payload a browser sees, and the headers that then describe it: transfer-encoding and
 * content-encoding dropped when undone. (content-length is set by the caller, who counts.)
 */
export function decodePayload(
  raw: AsyncIterable<Uint8Array>,
  head: HttpHead,
): { body: AsyncIterable<Uint8Array>; headers: Record<string, string> } {
  const headers = { ...head.headers };
  let body = raw;
  const transfer = headers['transfer-encoding'];
  if (transfer !== undefined) {
    if (/\bchunked\b/i.test(transfer)) body = dechunk(body);
    delete headers['transfer-encoding'];
  }
  const chain = decodingChain(headers['content-encoding']);
  if (chain !== null && chain.length > 0) {
    for (const encoding of chain) body = decode(body, encoding);
    delete headers['content-encoding'];
  }
  return { body, headers };
}

const CHUNK_LINE = /^([0-9a-f]+)[ \t]*(?:;.*)?$/i;
const FIRST_CHUNK = /^[0-9a-f]{1,16}[ \t]*(?:;[^\r\n]*)?\r?\n/i;

/**
 * Undoes chunked transfer-encoding. A body that does not start like a chunk (a tool recorded it
 * dechunked but kept the header, as several do) is passed through as is.
 */
export async function* dechunk(source: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
  const reader = new ByteReader(source);
  if (!FIRST_CHUNK.test((await reader.peek(1024)).toString('latin1'))) {
    yield* reader.remaining();
    return;
  }
  for (;;) {
    const line = await reader.readLine(1024);
    if (line === null) return; // Cut short after a whole chunk: keep what came, as browsers do.
    const match = CHUNK_LINE.exec(line.toString('latin1'));
    if (match === null) throw new Error('A chunk of a chunked body has no valid size line');
    const size = parseInt(match[1] ?? '0', 16);
    if (size === 0) return; // Trailers, if any, are not part of the payload.
    yield* reader.take(size);
    await reader.readLine(2); // The CRLF after the chunk's data.
  }
}
