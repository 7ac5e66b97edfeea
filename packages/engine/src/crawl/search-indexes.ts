import { gunzipSync } from 'node:zlib';

/**
 * Pagefind's search index, read so a copy holds all of it. `pagefind.js` loads
 * `pagefind-entry.json` beside it, then the language's `pagefind.<hash>.pf_meta` (gzip of
 * `pagefind_dcd` + CBOR), and only the index chunks, filter files and page fragments one query
 * needs: a crawl that watches a search sees a few of them, a copy needs every one. Pure parsing:
 * bytes in, URLs out, nothing thrown on a malformed file.
 */

/** Decompressed metadata read at most (a pf_meta of 100,000 pages is a few MB). */
export const MAX_PAGEFIND_META_BYTES = 50 * 1024 ** 2;
/** Files one entry file or metadata file names at most. */
export const MAX_PAGEFIND_FILES = 20_000;

const SIGNATURE = Buffer.from('pagefind_dcd');
/** What a hash or language may be: it names a file beside the index (`en_5b9bd67bb5`). */
const NAME = /^[A-Za-z0-9_-]{1,200}$/;
const ENTRY_FILE = /\/pagefind-entry\.json$/;
const META_FILE = /\/pagefind(?:\.[A-Za-z0-9_-]+)?\.pf_meta$/;
const SCRIPT_FILE = /\/pagefind\.js$/;

/** Whether `url` is Pagefind's entry file (`…/pagefind/pagefind-entry.json`). */
export function isPagefindEntry(url: URL): boolean {
  return ENTRY_FILE.test(url.pathname);
}

/** Whether `url` is a Pagefind metadata file (`…/pagefind.en_5b9bd67bb5.pf_meta`). */
export function isPagefindMeta(url: URL): boolean {
  return META_FILE.test(url.pathname);
}

/**
 * Files `pagefind.js` at `url` loads beside it whatever the query: the entry file and its web
 * worker (1.5+; without it search runs on the main thread). Empty for any other URL.
 */
export function pagefindScriptFiles(url: URL): string[] {
  if (!SCRIPT_FILE.test(url.pathname)) return [];
  return ['pagefind-entry.json', 'pagefind-worker.js'].map((name) => new URL(name, url).href);
}

/**
 * Files an entry file names, resolved against its URL: each language's metadata and WebAssembly
 * (`wasm.unknown.pagefind` for a language Pagefind has no stemmer for), and the entry file itself
 * without the query `pagefind.js` adds (`?ts=…`, a new one each load), which a static host
 * answers for any query. Empty when it is no JSON of that shape.
 */
export function pagefindEntryFiles(body: Buffer, entryUrl: string): string[] {
  let entry: unknown;
  try {
    entry = JSON.parse(body.toString('utf8'));
  } catch {
    return [];
  }
  const languages = isObject(entry) ? entry['languages'] : undefined;
  if (!isObject(languages)) return [];
  const files = new Set<string>();
  for (const language of Object.values(languages)) {
    if (files.size >= MAX_PAGEFIND_FILES) break;
    if (!isObject(language)) continue;
    const { hash, wasm } = language;
    if (typeof hash === 'string' && NAME.test(hash)) files.add(`pagefind.${hash}.pf_meta`);
    files.add(`wasm.${typeof wasm === 'string' && NAME.test(wasm) ? wasm : 'unknown'}.pagefind`);
  }
  if (files.size > 0 && entryUrl.includes('?')) files.add('pagefind-entry.json');
  return resolveAll(files, entryUrl);
}

/**
 * Files a metadata file names, resolved against its URL: every index chunk
 * (`index/<hash>.pf_index`), page fragment (`fragment/<hash>.pf_fragment`, or the fragment group a
 * page belongs to) and filter (`filter/<hash>.pf_filter`). Read as Pagefind 1.x writes it
 * (`[version, [[page, words, group?]…], [[from, to, chunk]…], [[filter, hash]…], sorts, …]`) or
 * 0.x (`[version, [page…], stop words, chunks, filters]`). Empty when it is none of these.
 */
export function pagefindMetaFiles(body: Buffer, metaUrl: string): string[] {
  const top = decodeMeta(body);
  if (!Array.isArray(top) || typeof top[0] !== 'string' || !Array.isArray(top[1])) return [];
  const legacy = top[1].length > 0 && typeof top[1][0] === 'string';
  const pages = top[1];
  const chunks = top[legacy ? 3 : 2];
  const filters = top[legacy ? 4 : 3];
  const files = new Set<string>();
  const add = (file: string) => {
    if (files.size < MAX_PAGEFIND_FILES) files.add(file);
  };
  for (const page of pages) {
    const hash = legacy ? page : Array.isArray(page) ? page[0] : undefined;
    const group = !legacy && Array.isArray(page) ? page[2] : undefined;
    // A page in a fragment group is read from the group's file (Pagefind 1.6).
    if (typeof group === 'string' && NAME.test(group)) add(`fragment/${group}.pf_fragment`);
    else if (typeof hash === 'string' && NAME.test(hash)) add(`fragment/${hash}.pf_fragment`);
  }
  for (const chunk of Array.isArray(chunks) ? chunks : []) {
    const hash = Array.isArray(chunk) ? chunk[2] : undefined;
    if (typeof hash === 'string' && NAME.test(hash)) add(`index/${hash}.pf_index`);
  }
  for (const filter of Array.isArray(filters) ? filters : []) {
    const hash = Array.isArray(filter) ? filter[1] : undefined;
    if (typeof hash === 'string' && NAME.test(hash)) add(`filter/${hash}.pf_filter`);
  }
  return resolveAll(files, metaUrl);
}

/** The CBOR value a metadata file holds (gzipped or not), or undefined when it holds none. */
export function decodeMeta(body: Buffer): unknown {
  let bytes: Buffer;
  try {
    bytes = startsWithSignature(body)
      ? body
      : gunzipSync(body, { maxOutputLength: MAX_PAGEFIND_META_BYTES });
  } catch {
    return undefined;
  }
  if (!startsWithSignature(bytes)) return undefined;
  try {
    return new CborReader(bytes, SIGNATURE.length).read(0);
  } catch {
    return undefined;
  }
}

function startsWithSignature(bytes: Buffer): boolean {
  return bytes.length >= SIGNATURE.length && bytes.subarray(0, SIGNATURE.length).equals(SIGNATURE);
}

function resolveAll(files: Iterable<string>, base: string): string[] {
  const urls: string[] = [];
  for (const file of files) {
    try {
      urls.push(new URL(file, base).href);
    } catch {
      // A base that is no URL names nothing.
    }
  }
  return urls;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Nesting read at most: Pagefind's metadata is three levels deep. */
const MAX_DEPTH = 32;
/** Items read at most, so a forged length cannot make the reader loop for long. */
const MAX_ITEMS = 5_000_000;
const BREAK = Symbol('break');

/**
 * A minimal CBOR (RFC 8949) reader for what Pagefind writes: unsigned and negative integers, byte
 * and text strings, arrays, maps, tags and simple values, definite or indefinite length. Byte
 * strings and floats are read past (returned as null); anything malformed throws.
 */
class CborReader {
  private items = 0;

  constructor(
    private readonly bytes: Buffer,
    private offset: number,
  ) {}

  read(depth: number): unknown {
    const value = this.item(depth);
    if (value === BREAK) throw new Error('unexpected break');
    return value;
  }

  private item(depth: number): unknown {
    if (depth > MAX_DEPTH || ++this.items > MAX_ITEMS) throw new Error('too deep or too long');
    const initial = this.byte();
    const major = initial >> 5;
    const info = initial & 0x1f;
    if (major === 7) return this.simple(info);
    if (info === 31) return this.indefinite(major, depth);
    const arg = this.argument(info);
    switch (major) {
      case 0:
        return arg;
      case 1:
        return -1 - arg;
      case 2:
        this.skip(arg);
        return null;
      case 3: {
        const end = this.skip(arg);
        return this.bytes.toString('utf8', end - arg, end);
      }
      case 4: {
        // Each item takes a byte at least: a longer array than the bytes left is forged.
        if (arg > this.bytes.length - this.offset) throw new Error('array past the end');
        const array: unknown[] = [];
        for (let i = 0; i < arg; i++) array.push(this.read(depth + 1));
        return array;
      }
      case 5: {
        if (arg * 2 > this.bytes.length - this.offset) throw new Error('map past the end');
        const map = new Map<unknown, unknown>();
        for (let i = 0; i < arg; i++) map.set(this.read(depth + 1), this.read(depth + 1));
        return map;
      }
      default:
        // A tag: the tagged value stands for itself.
        return this.read(depth + 1);
    }
  }

  private indefinite(major: number, depth: number): unknown {
    if (major === 2 || major === 3) {
      const parts: string[] = [];
      for (;;) {
        const part = this.item(depth + 1);
        if (part === BREAK) break;
        if (typeof part === 'string') parts.push(part);
        else if (part !== null) throw new Error('bad string chunk');
      }
      return major === 3 ? parts.join('') : null;
    }
    if (major === 4 || major === 5) {
      const values: unknown[] = [];
      for (;;) {
        const value = this.item(depth + 1);
        if (value === BREAK) break;
        values.push(value);
      }
      if (major === 4) return values;
      const map = new Map<unknown, unknown>();
      for (let i = 0; i + 1 < values.length; i += 2) map.set(values[i], values[i + 1]);
      return map;
    }
    throw new Error('indefinite length on a number or tag');
  }

  private simple(info: number): unknown {
    if (info === 31) return BREAK;
    if (info === 20) return false;
    if (info === 21) return true;
    if (info === 25) this.skip(2);
    else if (info === 26) this.skip(4);
    else if (info === 27) this.skip(8);
    else if (info === 24) this.skip(1);
    return null;
  }

  private argument(info: number): number {
    if (info < 24) return info;
    if (info === 24) return this.byte();
    if (info === 25) return this.bytes.readUInt16BE(this.skip(2) - 2);
    if (info === 26) return this.bytes.readUInt32BE(this.skip(4) - 4);
    if (info === 27) {
      const value = this.bytes.readBigUInt64BE(this.skip(8) - 8);
      if (value > BigInt(Number.MAX_SAFE_INTEGER)) throw new Error('integer too large');
      return Number(value);
    }
    throw new Error('reserved additional information');
  }

  private byte(): number {
    if (this.offset >= this.bytes.length) throw new Error('past the end');
    return this.bytes[this.offset++]!;
  }

  /** Moves past `length` bytes; returns the offset after them. */
  private skip(length: number): number {
    if (length > this.bytes.length - this.offset) throw new Error('past the end');
    this.offset += length;
    return this.offset;
  }
}
