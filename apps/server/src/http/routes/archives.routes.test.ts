import type { FidelityReportResponse } from '@mirror/contract';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import zlib from 'node:zlib';
import { createMemoryBlobStore, openArchive, readBlob, type Manifest } from '@mirror/engine';
import yazl from 'yazl';
import { afterEach, describe, expect, it } from 'vitest';
import { fromSite, mirrorSite, pollToEnd, SERVICE_ENV, signUp } from '../../test/api-helpers.js';
import { startFixtureSite } from '../../test/fixture-site.js';
import { createTestApp, waitFor, type TestApp } from '../../test/test-app.js';

// Web archives in and out (issue 35): a version downloaded as WARC and WACZ reads back with the
// engine's reader, byte for byte; an uploaded WACZ becomes a hosted copy; a bad archive is answered
// with what is wrong with it and leaves nothing behind.
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const MB = 1024 * 1024;

async function setup(env: Record<string, string> = {}) {
  const site = await startFixtureSite(3);
  const t = await createTestApp({ ...SERVICE_ENV, ...env });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'archives-test-'));
  cleanups.push(
    () => site.close(),
    () => t.close(),
    () => fs.rmSync(dir, { recursive: true, force: true }),
  );
  return { site, t, dir };
}

const BOUNDARY = 'mirror-test-boundary';

/** A multipart body with the file last (and optional text fields before it). */
function multipart(name: string, file: Buffer, fields: Record<string, string> = {}) {
  const parts: Buffer[] = [];
  for (const [key, value] of Object.entries(fields))
    parts.push(
      Buffer.from(
        `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${key}"\r\n\r\n${value}\r\n`,
      ),
    );
  parts.push(
    Buffer.from(
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
    ),
    file,
    Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
  );
  return Buffer.concat(parts);
}

function upload(t: TestApp, headers: Record<string, string>, payload: Buffer | Readable) {
  return t.app.inject({
    method: 'POST',
    url: '/api/domains/clone/archive',
    headers: { ...headers, 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
    payload,
  });
}

/** One WARC response record, uncompressed; `length` states a Content-Length other than its own. */
function warcRecord(url: string, body: Buffer, length?: number): Buffer {
  const block = Buffer.concat([
    Buffer.from('HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n'),
    body,
  ]);
  const head =
    `WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: ${url}\r\n` +
    `WARC-Date: 2024-01-02T03:04:05Z\r\nWARC-Record-ID: <urn:uuid:${randomUUID()}>\r\n` +
    `Content-Type: application/http; msgtype=response\r\nContent-Length: ${length ?? block.length}\r\n\r\n`;
  return Buffer.concat([Buffer.from(head), block, Buffer.from('\r\n\r\n')]);
}

/** `size` zero bytes as one WARC record, gzipped as it is made (a few hundred KB for 300 MB). */
async function gzipBomb(size: number): Promise<Buffer> {
  const head = warcRecord('http://example.com/', Buffer.alloc(0), size + 44);
  const headEnd = head.length - 4;
  async function* zeros() {
    yield head.subarray(0, headEnd);
    const chunk = Buffer.alloc(MB);
    for (let left = size; left > 0; left -= MB) yield chunk.subarray(0, Math.min(MB, left));
    yield Buffer.from('\r\n\r\n');
  }
  const chunks: Buffer[] = [];
  for await (const chunk of Readable.from(zeros()).pipe(zlib.createGzip({ level: 9 })))
    chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** A WACZ whose WARC is deflated, and inflates to `size` zero bytes. */
async function zipBomb(size: number): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  const head = warcRecord('http://example.com/', Buffer.alloc(0), size + 44);
  async function* zeros() {
    yield head.subarray(0, head.length - 4);
    const chunk = Buffer.alloc(MB);
    for (let left = size; left > 0; left -= MB) yield chunk.subarray(0, Math.min(MB, left));
    yield Buffer.from('\r\n\r\n');
  }
  zip.addReadStream(Readable.from(zeros()), 'archive/data.warc', { compress: true });
  zip.addBuffer(Buffer.from('{}'), 'datapackage.json');
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks);
}

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

async function manifestOf(t: TestApp, siteId: string) {
  const version = await t.app.database.db
    .selectFrom('site_versions')
    .select(['id', 'manifest_hash'])
    .where('site_id', '=', siteId)
    .where('status', '=', 'completed')
    .executeTakeFirstOrThrow();
  const manifest = JSON.parse(
    (await readBlob(t.app.blobs, version.manifest_hash!)).toString('utf8'),
  ) as Manifest;
  return { versionId: version.id, manifest };
}

describe('web archives (issue 35)', { timeout: 120_000 }, () => {
  it(
    'downloads a version as WARC and WACZ that read back byte for byte, and hosts the WACZ as a new copy checked against it',
    { timeout: 300_000 },
    async () => {
      const { site, t, dir } = await setup({ FIDELITY_CHECKS: 'true' });
      const owner = await signUp(t, 'pro');
      const mirrored = await mirrorSite(t, site.url, owner.headers);
      expect(mirrored.readings.at(-1)?.status).toBe('completed');
      const { versionId, manifest } = await manifestOf(t, mirrored.id);
      const base = `/api/domains/clone/${mirrored.id}/versions/${versionId}`;

      const files: Record<string, string> = {};
      for (const [extension, type] of [
        ['warc.gz', 'application/warc'],
        ['wacz', 'application/wacz+zip'],
      ] as const) {
        const res = await t.app.inject({
          url: `${base}/export.${extension}`,
          headers: owner.headers,
        });
        expect(res.statusCode, res.body).toBe(200);
        expect(res.headers['content-type']).toBe(type);
        expect(res.headers['content-disposition']).toMatch(
          new RegExp(`^attachment; filename="[a-z0-9-]+-v1\\.${extension.replace('.', '\\.')}"$`),
        );
        const file = path.join(dir, `export.${extension}`);
        fs.writeFileSync(file, res.rawPayload);
        files[extension] = file;
        const archive = await openArchive(file, {
          store: createMemoryBlobStore(),
          maxBytes: 50 * MB,
        });
        // Every file the copy kept is in the archive as the origin sent it.
        for (const entry of manifest.entries) {
          if (entry.status !== 200 || entry.path.startsWith('/_mirror')) continue;
          const archived = archive.get(entry.url);
          expect(archived, entry.url).toBeDefined();
          const original = await readBlob(t.app.blobs, entry.sourceHash ?? entry.hash);
          expect(archived!.hash, entry.url).toBe(sha256(original));
        }
        if (extension === 'wacz') {
          expect(archive.info.format).toBe('wacz');
          expect(archive.pages().map((p) => new URL(p.url).pathname)).toContain('/page-1.html');
        }
      }
      // The temporary files of the exports are gone.
      expect(fs.readdirSync(os.tmpdir()).filter((n) => /^mirror-archive-\w{6}$/.test(n))).toEqual(
        [],
      );

      // The WACZ, uploaded by another account, becomes a hosted copy; the original is stopped.
      await site.close();
      const other = await signUp(t);
      const res = await upload(
        t,
        other.headers,
        multipart('fixture.wacz', fs.readFileSync(files['wacz']!)),
      );
      expect(res.statusCode, res.body).toBe(201);
      const answer = res.json();
      expect(answer.archive).toMatchObject({ format: 'wacz', startUrl: `${site.url}/` });
      expect(answer.archive.pages).toBeGreaterThanOrEqual(4);
      const readings = await pollToEnd(t, answer.site.id, other.headers);
      expect(readings.at(-1)).toMatchObject({ status: 'completed' });
      for (const [pathname, text] of [
        ['/', 'Version 1 /'],
        ['/page-2.html', 'Version 1 /page-2.html'],
      ] as const) {
        const page = await fromSite(t, answer.site.previewUrl, pathname);
        expect(page.statusCode, pathname).toBe(200);
        expect(page.body).toContain(text);
      }
      const versions = await t.app.inject({
        url: `/api/domains/clone/${answer.site.id}/versions`,
        headers: other.headers,
      });
      expect(versions.json()[0].importedFrom).toEqual({
        name: 'fixture.wacz',
        format: 'wacz',
        software: 'Mirror 0.1.0',
        responses: expect.any(Number),
      });
      // Its fidelity report compares the hosted copy with the archive's responses (the original is
      // stopped): every page checked passes, and nothing was asked of the stopped original.
      const report = await waitFor(async () => {
        const res = await t.app.inject({
          url: `/api/domains/clone/${answer.site.id}/fidelity`,
          headers: other.headers,
        });
        const body = res.json() as FidelityReportResponse;
        return res.statusCode === 200 && (body.state === 'completed' || body.state === 'failed')
          ? body
          : undefined;
      }, 150_000);
      expect(report.state, report.error ?? '').toBe('completed');
      expect(report.score).toBeGreaterThanOrEqual(99);
      expect(report.pagesChecked).toBeGreaterThanOrEqual(3);
      for (const page of report.pages) {
        expect(page.belowThreshold, page.path).toBe(false);
        expect(page.externalRequests).toEqual([]);
      }
      // The uploaded file is no longer held once the run ended: a sweep may take it.
      expect(await t.app.database.db.selectFrom('blob_holds').selectAll().execute()).toEqual([]);
    },
  );

  it('refuses each bad archive with its message and stores nothing', async () => {
    const { t } = await setup();
    const owner = await signUp(t);
    const whole = warcRecord('http://example.com/', Buffer.from('<title>Hi</title>'.repeat(5_000)));
    const cases: { name: string; file: Buffer; status: number; message: RegExp }[] = [
      {
        name: 'cut.warc.gz',
        file: zlib.gzipSync(whole).subarray(0, 400),
        status: 400,
        message: /^The archive ends in the middle of a record/,
      },
      {
        name: 'bad-length.warc',
        file: Buffer.concat([
          warcRecord('http://example.com/', Buffer.from('hello')),
          warcRecord('http://example.com/b', Buffer.from('hello world'), 20),
          warcRecord('http://example.com/c', Buffer.from('hello')),
        ]),
        status: 400,
        message: /Content-Length is wrong/,
      },
      {
        name: 'bomb.warc.gz',
        file: await gzipBomb(300 * MB),
        status: 400,
        message: /bomb/,
      },
      { name: 'bomb.wacz', file: await zipBomb(300 * MB), status: 400, message: /zip bomb/ },
      { name: 'random.warc', file: randomBytes(64 * 1024), status: 400, message: /./ },
      {
        // A million tiny records would fill the reader's index: Reflection reads 20,000 at most
        // (four a file of its 5,000).
        name: 'many.warc.gz',
        file: zlib.gzipSync(
          Buffer.concat(
            Array.from({ length: 20_001 }, (_, i) =>
              warcRecord(`http://example.com/${i}`, Buffer.from('x')),
            ),
          ),
        ),
        status: 413,
        message: /more than 20000 records/,
      },
      {
        name: 'notes.txt',
        file: Buffer.from('hello'),
        status: 400,
        message: /^Please upload a web archive/,
      },
    ];
    for (const bad of cases) {
      const res = await upload(t, owner.headers, multipart(bad.name, bad.file));
      expect(res.statusCode, `${bad.name}: ${res.body}`).toBe(bad.status);
      expect(res.json().message, bad.name).toMatch(bad.message);
      expect(await t.app.blobs.has(sha256(bad.file)), bad.name).toBe(false);
    }

    // Past the plan's limit (100 MB on Reflection): refused as it streams in, without a length…
    async function* big() {
      yield Buffer.from(
        `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="big.wacz"\r\n\r\n`,
      );
      const chunk = Buffer.alloc(MB, 1);
      for (let i = 0; i < 101; i++) yield chunk;
      yield Buffer.from(`\r\n--${BOUNDARY}--\r\n`);
    }
    const streamed = await upload(t, owner.headers, Readable.from(big()));
    expect(streamed.statusCode).toBe(413);
    expect(streamed.json().message).toBe(
      'This archive is larger than your plan allows (100 MB). Upgrade to host larger archives.',
    );
    // …and by its declared length before a byte is read.
    const declared = await t.app.inject({
      method: 'POST',
      url: '/api/domains/clone/archive',
      headers: {
        ...owner.headers,
        'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
        'content-length': String(200 * MB),
      },
      payload: 'x',
    });
    expect(declared.statusCode).toBe(413);

    // Nothing of any of them is kept: no site, no version, no hold, no blob but the store's own.
    const db = t.app.database.db;
    expect(await db.selectFrom('sites').select('id').execute()).toEqual([]);
    expect(await db.selectFrom('site_versions').select('id').execute()).toEqual([]);
    expect(await db.selectFrom('blob_holds').selectAll().execute()).toEqual([]);
    const blobs: string[] = [];
    for await (const blob of t.app.blobs.list()) blobs.push(blob.hash);
    expect(blobs).toEqual([]);
  });

  it('answers 401 to visitors, and counts an upload against the mirrors limit', async () => {
    const { site, t } = await setup();
    const res = await upload(t, {}, multipart('a.warc', Buffer.from('x')));
    expect(res.statusCode).toBe(401);
    const owner = await signUp(t);
    expect((await mirrorSite(t, site.url, owner.headers)).readings.at(-1)?.status).toBe(
      'completed',
    );
    const full = await upload(t, owner.headers, multipart('a.warc', Buffer.from('x')));
    expect(full.statusCode).toBe(403);
    expect(full.json().message).toBe(
      "You have reached your plan's mirror limit. Upgrade to mirror more websites.",
    );
  });
});
