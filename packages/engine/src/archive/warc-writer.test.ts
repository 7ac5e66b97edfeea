import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import zlib from 'node:zlib';
import { WARCParser } from 'warcio';
import { describe, expect, it } from 'vitest';
import { formatCdxj } from './cdxj.js';
import { response, tempDir, writeWarcFile } from './test-helpers.fixture.js';

describe('writeWarc', () => {
  it('writes warcinfo, responses with their requests, revisits and resources that warcio reads', async () => {
    const dir = await tempDir();
    const file = path.join(dir, 'data.warc.gz');
    const big = Buffer.alloc(300_000, 7);
    const written = await writeWarcFile(file, [
      response('https://example.com/', '<title>Home</title>', {
        request: { method: 'GET', headers: [['User-Agent', 'test']] },
      }),
      response('https://example.com/a.css', 'body{}'),
      response('https://example.com/copy.css', 'body{}'),
      response('https://example.com/big.bin', big),
      {
        type: 'revisit',
        profile: 'server-not-modified',
        url: 'https://example.com/a.css',
        date: new Date('2024-06-01T00:00:00Z'),
        refersToDate: new Date('2024-05-01T10:20:30Z'),
        status: 304,
        headers: [['ETag', '"x"']],
      },
      {
        type: 'resource',
        url: 'urn:screenshot:https://example.com/',
        date: new Date('2024-05-01T10:20:31Z'),
        contentType: 'image/png',
        payload: async function* () {
          yield Buffer.from('png');
        },
      },
    ]);
    expect(written.records).toBe(8);
    expect(written.bytes).toBe((await fs.stat(file)).size);

    const parser = new WARCParser(createReadStream(file));
    const seen: string[] = [];
    for await (const record of parser) {
      const type = record.warcType ?? '';
      seen.push(`${type} ${record.warcTargetURI ?? ''}`);
      if (type === 'response' && record.warcTargetURI === 'https://example.com/big.bin') {
        expect(Buffer.from(await record.readFully(false))).toEqual(big);
      }
      if (type === 'revisit' && record.warcTargetURI === 'https://example.com/copy.css') {
        expect(record.warcHeaders.headers.get('WARC-Refers-To-Target-URI')).toBe(
          'https://example.com/a.css',
        );
        expect(record.warcHeaders.headers.get('WARC-Profile')).toMatch(/identical-payload-digest/);
      }
      if (type === 'request') {
        expect(record.warcHeaders.headers.get('WARC-Concurrent-To')).toMatch(/^<urn:uuid:/);
      }
      if (type === 'response') {
        expect(record.warcPayloadDigest).toMatch(/^sha256:[0-9a-f]{64}$/);
        expect(record.warcBlockDigest).toMatch(/^sha256:[0-9a-f]{64}$/);
      }
    }
    expect(seen).toEqual([
      'warcinfo ',
      'response https://example.com/',
      'request https://example.com/',
      'response https://example.com/a.css',
      'revisit https://example.com/copy.css',
      'response https://example.com/big.bin',
      'revisit https://example.com/a.css',
      'resource urn:screenshot:https://example.com/',
    ]);

    // Each index line points at one whole gzip member: inflated alone it is one record.
    const data = await fs.readFile(file);
    for (const line of written.index) {
      const member = data.subarray(line.offset, line.offset + line.length);
      const text = zlib.gunzipSync(member).toString('latin1');
      expect(text.startsWith('WARC/1.1\r\n')).toBe(true);
      expect(text).toContain(`WARC-Target-URI: ${line.url}\r\n`);
      expect(text.endsWith('\r\n\r\n')).toBe(true);
    }
    expect(formatCdxj(written.index[0]!)).toMatch(
      /^com,example\)\/ 20240501102030 \{"url":"https:\/\/example.com\/","mime":"text\/html","status":"200","digest":"[0-9a-f]{64}","length":"\d+","offset":"\d+","filename":"data.warc.gz"\}$/,
    );
    await fs.rm(dir, { recursive: true });
  });
});
