import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import zlib from 'node:zlib';
import yauzl from 'yauzl';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemoryBlobStore } from '../storage/memory-blob-store.js';
import { ArchiveError, type ArchiveErrorCode } from './errors.js';
import { openArchive } from './open-archive.js';
import { collect, response, tempDir, writeWarcFile } from './test-helpers.fixture.js';
import { writeWacz } from './wacz-writer.js';

let dir: string;
beforeAll(async () => {
  dir = await tempDir();
});
afterAll(async () => {
  if (process.env.KEEP_ARCHIVE_TEST === undefined)
    await fs.rm(dir, { recursive: true, force: true });
});

const MB = 1024 * 1024;
const random = (size: number): Buffer => {
  const out = Buffer.alloc(size);
  for (let i = 0; i < size; i += 32) createHash('sha256').update(String(i)).digest().copy(out, i);
  return out;
};

async function rejects(file: string, code: ArchiveErrorCode, message: RegExp, maxBytes = 10 * MB) {
  const error = await openArchive(file, { store: createMemoryBlobStore(), maxBytes }).catch(
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ArchiveError);
  expect((error as ArchiveError).code).toBe(code);
  expect((error as ArchiveError).message).toMatch(message);
}

async function zipBytes(zip: { outputStream: NodeJS.ReadableStream }): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks);
}

/** A WARC record's bytes (uncompressed), Content-Length as given or the block's. */
function rawRecord(headers: Record<string, string>, block: Buffer, length = block.length): Buffer {
  const head = Object.entries({ ...headers, 'Content-Length': String(length) })
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  return Buffer.concat([Buffer.from(`WARC/1.0\r\n${head}\r\n`), block, Buffer.from('\r\n\r\n')]);
}

function httpResponse(url: string, head: string, body: Buffer, length?: number): Buffer {
  return rawRecord(
    { 'WARC-Type': 'response', 'WARC-Target-URI': url, 'WARC-Date': '2024-01-02T03:04:05Z' },
    Buffer.concat([Buffer.from(head.replace(/\n/g, '\r\n') + '\r\n'), body]),
    length,
  );
}

describe('openArchive', () => {
  it('reads back what writeWarc wrote, byte for byte, with revisits resolved', async () => {
    const file = path.join(dir, 'round.warc.gz');
    const big = random(3 * MB);
    await writeWarcFile(file, [
      response('https://example.com/', '<title>Home</title><a href="/a.css">'),
      response('https://example.com/a.css', 'body{color:red}'),
      response('https://example.com/same.css', 'body{color:red}'),
      response('https://example.com/big.bin', big, {
        headers: [['Content-Type', 'application/x']],
      }),
      response('https://example.com/old', '', {
        status: 301,
        headers: [['Location', '/']],
      }),
      {
        type: 'revisit',
        profile: 'server-not-modified',
        url: 'https://example.com/a.css',
        date: new Date('2024-06-01T00:00:00Z'),
        refersToDate: new Date('2024-05-01T10:20:30Z'),
        status: 304,
        headers: [],
      },
    ]);
    const store = createMemoryBlobStore();
    const archive = await openArchive(file, { store, maxBytes: 20 * MB });
    expect(archive.info).toMatchObject({
      format: 'warc.gz',
      software: 'Mirror test',
      responses: 5,
      revisits: 1,
      skipped: 0,
    });
    expect((await collect(archive.get('https://example.com/big.bin')!.body())).equals(big)).toBe(
      true,
    );
    const same = archive.get('https://example.com/same.css#x')!;
    expect(same.status).toBe(200);
    expect((await collect(same.body())).toString()).toBe('body{color:red}');
    expect(same.headers['content-type']).toBe('text/css');
    expect(archive.get('https://example.com/a.css')!.date).toEqual(
      new Date('2024-05-01T10:20:30Z'),
    );
    expect(archive.get('https://example.com/old')).toMatchObject({
      status: 301,
      headers: { location: '/' },
      size: 0,
    });
    expect(archive.pages().map((page) => page.url)).toEqual(['https://example.com/']);
    expect([...archive.responses()]).toHaveLength(5);
  });

  it('writes a WACZ whose structure and hashes are valid, and reads it back', async () => {
    const warcPath = path.join(dir, 'wacz-data.warc.gz');
    const written = await writeWarcFile(warcPath, [
      response('https://example.com/', '<title>Home</title>'),
      response('https://example.com/about', '<title>About</title>'),
      response('https://example.com/a.css', 'body{}'),
    ]);
    const wacz = path.join(dir, 'site.wacz');
    const shot = path.join(dir, 'shot.png');
    await fs.writeFile(shot, 'png');
    await writeWacz(wacz, {
      warcPath,
      index: written.index,
      pages: [
        { url: 'https://example.com/', title: 'Home', ts: new Date('2024-05-01T10:20:30Z') },
        { url: 'https://example.com/about', title: 'About', ts: new Date('2024-05-01T10:20:30Z') },
      ],
      title: 'Example',
      software: 'Mirror test',
      extraFiles: [{ path: 'screenshots/home.png', file: shot }],
    });

    const zip = await yauzl.openPromise(wacz, { lazyEntries: true });
    const files = new Map<string, { data: Buffer; method: number }>();
    for await (const entry of zip.eachEntry()) {
      const data = await collect(await zip.openReadStreamPromise(entry));
      files.set(entry.fileName, { data, method: entry.compressionMethod });
    }
    zip.close();
    expect([...files.keys()].sort()).toEqual([
      'archive/data.warc.gz',
      'datapackage-digest.json',
      'datapackage.json',
      'indexes/index.cdxj',
      'pages/pages.jsonl',
      'screenshots/home.png',
    ]);
    expect(files.get('archive/data.warc.gz')!.method).toBe(0); // STORED: offsets hold in the zip.
    const pkg = JSON.parse(files.get('datapackage.json')!.data.toString()) as {
      wacz_version: string;
      mainPageUrl: string;
      resources: { path: string; hash: string; bytes: number }[];
    };
    expect(pkg.wacz_version).toBe('1.1.1');
    expect(pkg.mainPageUrl).toBe('https://example.com/');
    for (const resource of pkg.resources) {
      const data = files.get(resource.path)!.data;
      expect(resource.bytes).toBe(data.length);
      expect(resource.hash).toBe(`sha256:${createHash('sha256').update(data).digest('hex')}`);
    }
    const digest = JSON.parse(files.get('datapackage-digest.json')!.data.toString()) as {
      hash: string;
    };
    expect(digest.hash).toBe(
      `sha256:${createHash('sha256').update(files.get('datapackage.json')!.data).digest('hex')}`,
    );
    const lines = files.get('indexes/index.cdxj')!.data.toString().trim().split('\n');
    expect(lines).toEqual([...lines].sort());
    expect(lines[0]).toMatch(/^com,example\)\/ 20240501102030 \{/);
    expect(files.get('pages/pages.jsonl')!.data.toString().split('\n')[0]).toBe(
      '{"format":"json-pages-1.0","id":"pages","title":"All Pages"}',
    );

    const archive = await openArchive(wacz, { store: createMemoryBlobStore(), maxBytes: 10 * MB });
    expect(archive.info).toMatchObject({ format: 'wacz', title: 'Example', responses: 3 });
    expect(archive.pages()).toEqual([
      { url: 'https://example.com/', title: 'Home', ts: new Date('2024-05-01T10:20:30Z') },
      { url: 'https://example.com/about', title: 'About', ts: new Date('2024-05-01T10:20:30Z') },
    ]);
    expect((await collect(archive.get('https://example.com/about')!.body())).toString()).toBe(
      '<title>About</title>',
    );
  });

  it('decodes a response as wget records it: chunked, then gzipped, with the wire headers', async () => {
    const html = Buffer.concat([Buffer.from('<html><title>wget</title>'), random(5000)]);
    const gz = zlib.gzipSync(html);
    const chunked = Buffer.concat([
      Buffer.from(`${(1000).toString(16)}\r\n`),
      gz.subarray(0, 1000),
      Buffer.from(`\r\n${(gz.length - 1000).toString(16)};ext=1\r\n`),
      gz.subarray(1000),
      Buffer.from('\r\n0\r\n\r\n'),
    ]);
    const file = path.join(dir, 'wget.warc');
    await fs.writeFile(
      file,
      httpResponse(
        'http://127.0.0.1:8080/',
        'HTTP/1.1 200 OK\nContent-Type: text/html\nTransfer-Encoding: chunked\nContent-Encoding: gzip\n',
        chunked,
      ),
    );
    const archive = await openArchive(file, { store: createMemoryBlobStore(), maxBytes: MB });
    const page = archive.get('http://127.0.0.1:8080/')!;
    expect((await collect(page.body())).equals(html)).toBe(true);
    expect(page.headers).toEqual({
      'content-type': 'text/html',
      'content-length': String(html.length),
    });
    expect(archive.info.format).toBe('warc');
  });

  it('passes through a body a tool dechunked but left marked chunked', async () => {
    const file = path.join(dir, 'dechunked.warc');
    await fs.writeFile(
      file,
      httpResponse(
        'http://example.com/',
        'HTTP/1.1 200 OK\nContent-Type: text/html\nTransfer-Encoding: chunked\n',
        Buffer.from('<p>already plain</p>\r\nsecond line'),
      ),
    );
    const archive = await openArchive(file, { store: createMemoryBlobStore(), maxBytes: MB });
    expect((await collect(archive.get('http://example.com/')!.body())).toString()).toBe(
      '<p>already plain</p>\r\nsecond line',
    );
  });

  describe('refuses a bad archive with its code and a sentence', () => {
    it('truncated gzip', async () => {
      const whole = path.join(dir, 'whole.warc.gz');
      await writeWarcFile(whole, [response('https://example.com/', random(200_000))]);
      const data = await fs.readFile(whole);
      const file = path.join(dir, 'cut.warc.gz');
      await fs.writeFile(file, data.subarray(0, data.length - 5000));
      await rejects(
        file,
        'truncated',
        /^The archive ends in the middle of a record: it was cut short/,
      );
    });

    it('a Content-Length that is too small', async () => {
      const file = path.join(dir, 'short-length.warc');
      const good = httpResponse('http://example.com/', 'HTTP/1.1 200 OK\n', Buffer.from('hello'));
      const bad = httpResponse(
        'http://example.com/b',
        'HTTP/1.1 200 OK\n',
        Buffer.from('hello world'),
        20,
      );
      await fs.writeFile(file, Buffer.concat([good, bad, good]));
      await rejects(
        file,
        'bad-record',
        /^Record 2 of short-length.warc is not followed by the next record: its Content-Length is wrong\.$/,
      );
    });

    it('a Content-Length past the end of the file', async () => {
      const file = path.join(dir, 'long-length.warc');
      await fs.writeFile(
        file,
        httpResponse('http://example.com/', 'HTTP/1.1 200 OK\n', Buffer.from('hello'), 50_000),
      );
      await rejects(file, 'truncated', /ends in the middle of record 1 .*Content-Length is wrong/);
    });

    it('a Content-Length larger than the archive may hold', async () => {
      const file = path.join(dir, 'huge-length.warc');
      await fs.writeFile(
        file,
        httpResponse(
          'http://example.com/',
          'HTTP/1.1 200 OK\n',
          Buffer.from('hello'),
          99_999_999_999,
        ),
      );
      await rejects(
        file,
        'bad-record',
        /declares 99999999999 bytes, more than the archive may hold/,
      );
    });

    it('a gzip bomb', async () => {
      const file = path.join(dir, 'bomb.warc.gz');
      const record = httpResponse(
        'http://example.com/',
        'HTTP/1.1 200 OK\n',
        Buffer.alloc(30 * MB),
      );
      await fs.writeFile(file, zlib.gzipSync(record));
      await rejects(file, 'zip-bomb', /compression bomb/);
    });

    it('a response whose gzip body inflates past the limit', async () => {
      const file = path.join(dir, 'body-bomb.warc');
      const body = zlib.gzipSync(Buffer.alloc(30 * MB));
      await fs.writeFile(
        file,
        httpResponse('http://example.com/', 'HTTP/1.1 200 OK\nContent-Encoding: gzip\n', body),
      );
      await rejects(file, 'zip-bomb', /responses inflate past/);
    });

    it('a WACZ whose WARC entry is a zip bomb', async () => {
      const warcPath = path.join(dir, 'bomb-data.warc');
      await fs.writeFile(
        warcPath,
        httpResponse('http://example.com/', 'HTTP/1.1 200 OK\n', Buffer.alloc(30 * MB)),
      );
      // A WACZ whose WARC is deflated (the spec stores it; a hostile one need not).
      const { ZipFile } = await import('yazl');
      const zip = new ZipFile();
      zip.addFile(warcPath, 'archive/data.warc', { compress: true });
      zip.addBuffer(Buffer.from('{}'), 'datapackage.json');
      zip.end();
      const file = path.join(dir, 'bomb.wacz');
      await fs.writeFile(file, await zipBytes(zip));
      await rejects(
        file,
        'zip-bomb',
        /inflates from \d+ to 31457\d+ bytes: it is a zip bomb/,
        100 * MB,
      );
      await rejects(file, 'zip-bomb', /zip bomb/, 10 * MB);
    });

    it('a WACZ entry that inflates past the size it declares', async () => {
      const warcPath = path.join(dir, 'liar-data.warc');
      const record = httpResponse('http://example.com/', 'HTTP/1.1 200 OK\n', Buffer.from('hi'));
      await fs.writeFile(warcPath, record);
      const { ZipFile } = await import('yazl');
      const zip = new ZipFile();
      zip.addFile(warcPath, 'archive/data.warc', { compress: true });
      zip.end();
      const data = await zipBytes(zip);
      // Lower the uncompressed size in the central directory (offset 24 of its entry).
      const central = data.lastIndexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
      data.writeUInt32LE(10, central + 24);
      const file = path.join(dir, 'liar.wacz');
      await fs.writeFile(file, data);
      await rejects(file, 'zip-bomb', /inflates past the 10 bytes it declares/);
    });

    it('a WACZ whose WARC does not match its datapackage hash', async () => {
      const warcPath = path.join(dir, 'tamper.warc.gz');
      await writeWarcFile(warcPath, [response('https://example.com/', 'hi')]);
      const { ZipFile } = await import('yazl');
      const zip = new ZipFile();
      zip.addFile(warcPath, 'archive/data.warc.gz', { compress: false });
      zip.addBuffer(
        Buffer.from(
          JSON.stringify({
            resources: [{ path: 'archive/data.warc.gz', hash: `sha256:${'0'.repeat(64)}` }],
          }),
        ),
        'datapackage.json',
      );
      zip.end();
      const file = path.join(dir, 'tampered.wacz');
      await fs.writeFile(file, await zipBytes(zip));
      await rejects(file, 'bad-record', /does not match the hash its datapackage.json records/);
    });

    it('a random file', async () => {
      const file = path.join(dir, 'random.bin');
      await fs.writeFile(file, random(10_000));
      await rejects(file, 'not-an-archive', /^The file is not a web archive/);
    });

    it('a gzipped file that is no WARC', async () => {
      const file = path.join(dir, 'notwarc.gz');
      await fs.writeFile(file, zlib.gzipSync('hello, world\n'));
      await rejects(file, 'not-an-archive', /is not a WARC file/);
    });

    it('an empty file', async () => {
      const file = path.join(dir, 'empty.warc');
      await fs.writeFile(file, '');
      await rejects(file, 'not-an-archive', /^The file is empty/);
    });

    it('an archive with no responses', async () => {
      const file = path.join(dir, 'info-only.warc.gz');
      await writeWarcFile(file, []);
      await rejects(file, 'no-pages', /^The archive holds no web response/);
    });

    it('a file over the size limit', async () => {
      const file = path.join(dir, 'over.warc.gz');
      await writeWarcFile(file, [response('https://example.com/', random(100_000))]);
      await rejects(file, 'too-large', /more than the 1000 bytes allowed/, 1000);
    });

    it('more records than allowed', async () => {
      const file = path.join(dir, 'many.warc.gz');
      await writeWarcFile(file, [
        response('https://example.com/', 'a'),
        response('https://example.com/b', 'b'),
      ]);
      const error = await openArchive(file, {
        store: createMemoryBlobStore(),
        maxBytes: MB,
        maxRecords: 2,
      }).catch((caught: unknown) => caught);
      expect((error as ArchiveError).code).toBe('too-large');
    });
  });
});
