import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import {
  MAX_PAGEFIND_FILES,
  decodeMeta,
  isPagefindEntry,
  isPagefindMeta,
  pagefindEntryFiles,
  pagefindMetaFiles,
  pagefindScriptFiles,
} from './search-indexes.js';
import { PAGEFIND_FIXTURE } from './search-indexes.fixture.js';

const BASE = 'https://docs.example/pagefind/';
const meta = (name: keyof typeof PAGEFIND_FIXTURE.metas) =>
  Buffer.from(PAGEFIND_FIXTURE.metas[name], 'base64');
const relative = (urls: string[]) => urls.map((u) => u.slice(BASE.length)).sort();

/** CBOR for the subset Pagefind writes: unsigned integers, text strings, arrays. */
function cbor(value: unknown): Buffer {
  const head = (major: number, n: number) => {
    if (n < 24) return Buffer.from([(major << 5) | n]);
    if (n < 0x100) return Buffer.from([(major << 5) | 24, n]);
    if (n < 0x10000) return Buffer.from([(major << 5) | 25, n >> 8, n & 0xff]);
    const b = Buffer.alloc(5);
    b[0] = (major << 5) | 26;
    b.writeUInt32BE(n, 1);
    return b;
  };
  if (typeof value === 'number') return head(0, value);
  if (typeof value === 'string') {
    const bytes = Buffer.from(value, 'utf8');
    return Buffer.concat([head(3, bytes.length), bytes]);
  }
  if (Array.isArray(value)) return Buffer.concat([head(4, value.length), ...value.map(cbor)]);
  throw new Error('unsupported');
}
const metaOf = (value: unknown, gzip = true) => {
  const raw = Buffer.concat([Buffer.from('pagefind_dcd'), cbor(value)]);
  return gzip ? gzipSync(raw) : raw;
};

describe('Pagefind search index files', () => {
  it('recognises the entry, metadata and script URLs', () => {
    expect(isPagefindEntry(new URL(`${BASE}pagefind-entry.json?ts=1`))).toBe(true);
    expect(isPagefindEntry(new URL('https://docs.example/entry.json'))).toBe(false);
    expect(isPagefindMeta(new URL(`${BASE}pagefind.en_3bcfb7e849.pf_meta`))).toBe(true);
    expect(isPagefindMeta(new URL('https://docs.example/_pagefind/pagefind.pf_meta'))).toBe(true);
    expect(isPagefindMeta(new URL(`${BASE}index/en_1.pf_index`))).toBe(false);
    expect(pagefindScriptFiles(new URL(`${BASE}pagefind.js`))).toEqual([
      `${BASE}pagefind-entry.json`,
      `${BASE}pagefind-worker.js`,
    ]);
    expect(pagefindScriptFiles(new URL(`${BASE}pagefind-ui.js`))).toEqual([]);
  });

  it("reads a real entry file: each language's metadata and WebAssembly", () => {
    const files = pagefindEntryFiles(
      Buffer.from(PAGEFIND_FIXTURE.entry),
      `${BASE}pagefind-entry.json`,
    );
    expect(relative(files)).toEqual([
      'pagefind.en_3bcfb7e849.pf_meta',
      'pagefind.fr_844a8f5be8.pf_meta',
      'wasm.en.pagefind',
      'wasm.fr.pagefind',
    ]);
    // Fetched with `?ts=…`: the plain entry file is what a static copy answers.
    const queried = pagefindEntryFiles(
      Buffer.from(PAGEFIND_FIXTURE.entry),
      `${BASE}pagefind-entry.json?ts=1795894982645`,
    );
    expect(relative(queried)).toContain('pagefind-entry.json');
  });

  it('reads real pf_meta files: every index chunk, page fragment and filter', () => {
    const en = pagefindMetaFiles(
      meta('pagefind.en_3bcfb7e849.pf_meta'),
      `${BASE}pagefind.en_3bcfb7e849.pf_meta`,
    );
    const fr = pagefindMetaFiles(
      meta('pagefind.fr_844a8f5be8.pf_meta'),
      `${BASE}pagefind.fr_844a8f5be8.pf_meta`,
    );
    expect(relative(en)).toEqual([
      'filter/en_7015293.pf_filter',
      'fragment/en_10e5d72.pf_fragment',
      'fragment/en_6618adb.pf_fragment',
      'fragment/en_79b24dc.pf_fragment',
      'index/en_40593a7.pf_index',
    ]);
    const all = [...relative(en), ...relative(fr), 'wasm.en.pagefind', 'wasm.fr.pagefind'].sort();
    expect(all).toEqual(PAGEFIND_FIXTURE.files);
  });

  it('reads fragment groups, uncompressed metadata and the 0.x layout', () => {
    const v16 = [
      '1.6.0',
      [
        ['en_a', 10, 'en_group1'],
        ['en_b', 300, 'en_group1'],
        ['en_c', 7, ''],
      ],
      [
        ['a', 'm', 'en_i1'],
        ['n', 'z', 'en_i2'],
      ],
      [],
      [],
      ['title'],
    ];
    expect(relative(pagefindMetaFiles(metaOf(v16, false), `${BASE}pagefind.en_x.pf_meta`))).toEqual(
      [
        'fragment/en_c.pf_fragment',
        'fragment/en_group1.pf_fragment',
        'index/en_i1.pf_index',
        'index/en_i2.pf_index',
      ],
    );
    const legacy = ['0.12.0', ['p1', 'p2'], ['the'], [['a', 'z', 'i1']], [['tag', 'f1']]];
    expect(relative(pagefindMetaFiles(metaOf(legacy), `${BASE}pagefind.pf_meta`))).toEqual([
      'filter/f1.pf_filter',
      'fragment/p1.pf_fragment',
      'fragment/p2.pf_fragment',
      'index/i1.pf_index',
    ]);
  });

  it('queues nothing from a malformed file and nothing outside the index folder', () => {
    const url = `${BASE}pagefind.en.pf_meta`;
    for (const body of [
      Buffer.alloc(0),
      Buffer.from('not gzip'),
      gzipSync('pagefind_dc'),
      gzipSync('something else entirely'),
      metaOf('just a string'),
      Buffer.concat([
        Buffer.from('pagefind_dcd'),
        Buffer.from([0x9b, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]),
      ]),
      Buffer.concat([Buffer.from('pagefind_dcd'), Buffer.from([0x85, 0x61])]),
      Buffer.concat([Buffer.from('pagefind_dcd'), Buffer.alloc(100, 0x81)]),
    ])
      expect(pagefindMetaFiles(body, url)).toEqual([]);
    expect(decodeMeta(Buffer.from('pagefind_dcd'))).toBeUndefined();
    // Hashes name files beside the index: a path in one is no hash.
    const hostile = [
      '1',
      [
        ['../../etc/passwd', 1, ''],
        ['en_ok', 1, '/abs'],
      ],
      [['a', 'z', 'x/../../y']],
      [],
      [],
    ];
    expect(relative(pagefindMetaFiles(metaOf(hostile), url))).toEqual([
      'fragment/en_ok.pf_fragment',
    ]);
    for (const text of [
      '',
      '{',
      'null',
      '[]',
      '{"languages":5}',
      '{"languages":{"en":{"hash":"../x"}}}',
    ])
      expect(pagefindEntryFiles(Buffer.from(text), `${BASE}pagefind-entry.json`)).toEqual(
        text.includes('../x') ? [`${BASE}wasm.unknown.pagefind`] : [],
      );
  });

  it('bounds what it unpacks and what it names', () => {
    // 60 MB of zeros after the signature: gzip keeps it small, unpacking stops at 50 MB.
    const bomb = gzipSync(
      Buffer.concat([Buffer.from('pagefind_dcd'), Buffer.alloc(60 * 1024 ** 2)]),
      { level: 1 },
    );
    expect(pagefindMetaFiles(bomb, `${BASE}pagefind.en.pf_meta`)).toEqual([]);
    const pages = Array.from({ length: MAX_PAGEFIND_FILES + 500 }, (_, i) => [`en_${i}`, 1, '']);
    const files = pagefindMetaFiles(
      metaOf(['1.6.0', pages, [['a', 'z', 'en_i']], [], []]),
      `${BASE}m.pf_meta`,
    );
    expect(files).toHaveLength(MAX_PAGEFIND_FILES);
  });
});
