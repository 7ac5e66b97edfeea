import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { ListObjectsV2Command, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { readBlob } from '@mirror/engine';
import { afterEach, describe, expect, it } from 'vitest';
import { fromSite, mirrorSite, SERVICE_ENV, signUp } from '../../test/api-helpers.js';
import { startFixtureSite } from '../../test/fixture-site.js';
import { startS3Server } from '../../test/s3-server.js';
import { createTestApp } from '../../test/test-app.js';
import { createS3BlobStore } from './s3-blob-store.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function setup() {
  const s3 = await startS3Server();
  cleanups.push(() => s3.close());
  const store = createS3BlobStore({ bucket: s3.bucket, prefix: 'blobs/', client: s3.client });
  cleanups.push(async () => store.client.destroy());
  const keys = async () =>
    ((await store.client.send(new ListObjectsV2Command({ Bucket: s3.bucket }))).Contents ?? []).map(
      (o) => o.Key,
    );
  return { store, keys, bucket: s3.bucket };
}

async function* chunks(data: Buffer, size: number) {
  for (let i = 0; i < data.length; i += size) yield data.subarray(i, i + size);
}

describe('S3 blob store', () => {
  it.each([
    ['empty', 0],
    ['small', 1000],
    ['large (streamed to a temporary key, then copied)', 3 * 1024 * 1024 + 17],
  ])('stores a %s body under its sha256 and reads it back', async (_name, length) => {
    const { store, keys } = await setup();
    const data = Buffer.alloc(length);
    for (let i = 0; i < length; i++) data[i] = (i * 7) & 0xff;
    const { hash, size } = await store.put(chunks(data, 64 * 1024));
    expect(hash).toBe(createHash('sha256').update(data).digest('hex'));
    expect(size).toBe(length);
    expect(await store.has(hash)).toBe(true);
    expect((await readBlob(store, hash)).equals(data)).toBe(true);
    expect(await keys()).toEqual([`blobs/${hash.slice(0, 2)}/${hash.slice(2, 4)}/${hash}`]);
  });

  it('keeps one object per content and answers has() for missing blobs', async () => {
    const { store, keys } = await setup();
    const a = await store.put(chunks(Buffer.from('same'), 2));
    const b = await store.put(chunks(Buffer.from('same'), 4));
    expect(a.hash).toBe(b.hash);
    expect(await keys()).toHaveLength(1);
    expect(await store.has('0'.repeat(64))).toBe(false);
  });

  it('reads a whole blob again while another writer has it half-written, and never hands on a wrong body', async () => {
    const { store, bucket } = await setup();
    const data = Buffer.from('<h1>Version 1</h1>'.repeat(50));
    const { hash } = await store.put(chunks(data, 100));
    const key = `blobs/${hash.slice(0, 2)}/${hash.slice(2, 4)}/${hash}`;
    const overwrite = (body: Buffer | string) =>
      store.client.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: body }));
    // A server without atomic writes shows the object truncated while a second PUT runs.
    await overwrite('');
    const restored = new Promise((resolve) => setTimeout(resolve, 60)).then(() => overwrite(data));
    expect((await readBlob(store, hash)).equals(data)).toBe(true);
    await restored;
    // One that stays wrong is refused, not read as a short page.
    await overwrite(data.subarray(0, 10));
    await expect(readBlob(store, hash)).rejects.toThrow(/do not match its hash/);
  });

  it('leaves nothing behind when a large body fails midway', async () => {
    const { store, keys } = await setup();
    async function* broken() {
      yield Buffer.alloc(2 * 1024 * 1024, 1);
      throw new Error('connection reset');
    }
    await expect(store.put(broken())).rejects.toThrow('connection reset');
    expect(await keys()).toEqual([]);
  });

  it("holds a server's blobs when S3_BUCKET is set: mirrored, served and exported from the bucket", async () => {
    const s3 = await startS3Server('server-blobs');
    cleanups.push(() => s3.close());
    const site = await startFixtureSite();
    cleanups.push(() => site.close());
    const t = await createTestApp({
      ...SERVICE_ENV,
      S3_BUCKET: s3.bucket,
      S3_ENDPOINT: s3.endpoint,
      S3_FORCE_PATH_STYLE: 'true',
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
      S3_PREFIX: 'blobs/',
    });
    cleanups.push(() => t.close());
    const owner = await signUp(t);
    const { id, previewUrl, readings } = await mirrorSite(t, site.url, owner.headers);
    expect(readings.at(-1)!.status).toBe('completed');
    const page = await fromSite(t, previewUrl);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<title>Fix');
    const zip = await t.app.inject({
      url: `/api/domains/clone/${id}/export.zip`,
      headers: owner.headers,
    });
    expect(zip.statusCode).toBe(200);
    expect(zip.rawPayload.subarray(0, 2).toString()).toBe('PK');
    const client = new S3Client(s3.client);
    cleanups.push(async () => client.destroy());
    const objects = (await client.send(new ListObjectsV2Command({ Bucket: s3.bucket }))).Contents;
    expect(objects?.length).toBeGreaterThan(3);
    expect(objects!.every((o) => o.Key!.startsWith('blobs/'))).toBe(true);
    // The filesystem store was not used.
    expect(fs.existsSync(t.config.mirror.blobsDir)).toBe(false);
  });
});

describe('S3 blob store: garbage collection', () => {
  const body = (text: string) => chunks(Buffer.from(text), 4);
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  it('lists blobs (not temporary keys), removes by age and freshens a body stored again', async () => {
    const s3 = await startS3Server();
    cleanups.push(() => s3.close());
    const options = { bucket: s3.bucket, prefix: 'blobs/', client: s3.client };
    const store = createS3BlobStore(options);
    cleanups.push(async () => store.client.destroy());
    const a = await store.put(body('first body'));
    const b = await store.put(body('a second, longer body'));
    await store.client.send(
      new PutObjectCommand({ Bucket: s3.bucket, Key: 'blobs/tmp/unfinished', Body: 'half' }),
    );
    const listed = [];
    for await (const blob of store.list()) listed.push({ hash: blob.hash, size: blob.size });
    const byHash = (x: { hash: string }, y: { hash: string }) => x.hash.localeCompare(y.hash);
    expect(listed.sort(byHash)).toEqual([a, b].sort(byHash));

    expect(await store.remove(a.hash, new Date(Date.now() - 60_000))).toBe(false);
    expect(await store.remove(a.hash, new Date(Date.now() + 60_000))).toBe(true);
    expect(await store.has(a.hash)).toBe(false);
    // Stored again after the removal: written again, not taken for present.
    await store.put(body('first body'));
    expect(await store.has(a.hash)).toBe(true);

    // Another process stores b again later: its LastModified moves past `between` (S3 keeps seconds).
    await sleep(1_100);
    const between = new Date();
    await sleep(1_100);
    const otherProcess = createS3BlobStore(options);
    cleanups.push(async () => otherProcess.client.destroy());
    await otherProcess.put(body('a second, longer body'));
    expect(await store.remove(b.hash, between)).toBe(false);

    expect(await store.removeTemporaries(new Date(Date.now() - 60_000))).toBe(0);
    expect(await store.removeTemporaries(new Date(Date.now() + 60_000))).toBe(1);
  });
});

describe('S3 blob store: a sweep meeting a writer (issue 30, item 8)', () => {
  const body = (text: string) => chunks(Buffer.from(text), 4);
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  it("keeps a body another process PUTs between the sweep's HEAD and its DELETE", async () => {
    const s3 = await startS3Server();
    cleanups.push(() => s3.close());
    const options = { bucket: s3.bucket, prefix: 'blobs/', client: s3.client };
    const sweeper = createS3BlobStore(options);
    const writer = createS3BlobStore(options);
    const reader = createS3BlobStore(options);
    for (const store of [sweeper, writer, reader])
      cleanups.push(async () => store.client.destroy());
    const old = await sweeper.put(body('a body nothing refers to'));
    const key = `blobs/${old.hash.slice(0, 2)}/${old.hash.slice(2, 4)}/${old.hash}`;
    // S3 keeps seconds: the first write is before `between`, the writer's after it.
    await sleep(1_100);
    const between = new Date();
    await sleep(1_100);

    const keyOf = (args: unknown) => (args as { input?: { Key?: string } }).input?.Key;
    let landed!: () => void;
    const putLanded = new Promise<void>((resolve) => (landed = resolve));
    writer.client.middlewareStack.add(
      (next, context) => async (args) => {
        const result = await next(args);
        if (context.commandName === 'PutObjectCommand' && keyOf(args) === key) landed();
        return result;
      },
      { step: 'initialize', name: 'seePut' },
    );
    // The sweep has seen an old blob (HEAD); before its DELETE goes out, a run stores the body.
    let stored: Promise<unknown> | undefined;
    sweeper.client.middlewareStack.add(
      (next, context) => async (args) => {
        if (!stored && context.commandName === 'DeleteObjectCommand' && keyOf(args) === key) {
          stored = writer.put(body('a body nothing refers to'));
          await putLanded;
        }
        return next(args);
      },
      { step: 'initialize', name: 'storeBeforeDelete' },
    );

    await sweeper.remove(old.hash, between);
    expect(stored).toBeDefined();
    await stored;
    // put() answered, so the run relies on the blob: it is there.
    expect(await reader.has(old.hash)).toBe(true);
    expect((await readBlob(reader, old.hash)).toString()).toBe('a body nothing refers to');
  });
});
