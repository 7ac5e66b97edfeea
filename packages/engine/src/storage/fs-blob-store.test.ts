import { createHash } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { readBlob } from './blob-utils.js';
import { createFsBlobStore } from './fs-blob-store.js';

const dirs: string[] = [];
afterEach(() => {
  vi.restoreAllMocks();
  dirs.splice(0).forEach((d) => fs.rmSync(d, { recursive: true, force: true }));
});

function store(scratch = false) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'blobs-'));
  dirs.push(dir);
  return { dir, blobs: createFsBlobStore(dir, { scratch }) };
}

async function* chunks(data: Buffer, size: number) {
  for (let i = 0; i < data.length; i += size) yield data.subarray(i, i + size);
}

describe('filesystem blob store', () => {
  it.each([
    ['empty', 0, false],
    ['small', 1000, false],
    ['large (streamed)', 3 * 1024 * 1024 + 17, false],
    ['small (scratch store)', 1000, true],
    ['large (scratch store)', 3 * 1024 * 1024 + 17, true],
  ])('stores a %s body under its sha256 and reads it back', async (_name, length, scratch) => {
    const { blobs } = store(scratch);
    const data = Buffer.alloc(length, 7);
    data.write('x'.repeat(Math.min(length, 10)));
    const { hash, size } = await blobs.put(chunks(data, 64 * 1024));
    expect(hash).toBe(createHash('sha256').update(data).digest('hex'));
    expect(size).toBe(length);
    expect(await blobs.has(hash)).toBe(true);
    expect((await readBlob(blobs, hash)).equals(data)).toBe(true);
  });

  it('keeps one file per content and leaves no temporary files behind', async () => {
    const { dir, blobs } = store();
    const a = await blobs.put(chunks(Buffer.from('same'), 2));
    const b = await createFsBlobStore(dir).put(chunks(Buffer.from('same'), 4));
    expect(a.hash).toBe(b.hash);
    expect(fs.readdirSync(path.join(dir, 'tmp'))).toEqual([]);
    expect(await createFsBlobStore(dir).has(a.hash)).toBe(true);
    expect(await blobs.has('0'.repeat(64))).toBe(false);
  });

  it('keeps a scratch store in 256 folders', async () => {
    const { dir, blobs } = store(true);
    const { hash } = await blobs.put(chunks(Buffer.from('scratch'), 3));
    expect(blobs.pathOf(hash)).toBe(path.join(dir, hash.slice(0, 2), hash));
    expect(fs.readFileSync(blobs.pathOf(hash), 'utf8')).toBe('scratch');
  });

  it('removes the temporary file when the body fails midway', async () => {
    const { dir, blobs } = store();
    async function* broken() {
      yield Buffer.alloc(400 * 1024);
      throw new Error('connection reset');
    }
    await expect(blobs.put(broken())).rejects.toThrow('connection reset');
    expect(fs.readdirSync(path.join(dir, 'tmp'))).toEqual([]);
  });
});

describe('filesystem blob store: garbage collection', () => {
  const body = (text: string) => chunks(Buffer.from(text), 4);

  it('lists every blob with its size, and no temporary files', async () => {
    const { dir, blobs } = store();
    const a = await blobs.put(body('first body'));
    const b = await blobs.put(body('a second, longer body'));
    fs.mkdirSync(path.join(dir, 'tmp'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'tmp', 'unfinished'), 'half');
    const listed = [];
    for await (const blob of blobs.list()) listed.push({ hash: blob.hash, size: blob.size });
    expect(listed.sort((x, y) => x.hash.localeCompare(y.hash))).toEqual(
      [a, b].sort((x, y) => x.hash.localeCompare(y.hash)),
    );
  });

  it('removes a blob only when it was last written before the given time', async () => {
    const { blobs } = store();
    const a = await blobs.put(body('to be collected'));
    expect(await blobs.remove(a.hash, new Date(Date.now() - 60_000))).toBe(false);
    expect(await blobs.has(a.hash)).toBe(true);
    expect(await blobs.remove(a.hash, new Date(Date.now() + 60_000))).toBe(true);
    expect(await blobs.has(a.hash)).toBe(false);
    expect(await blobs.remove(a.hash, new Date(Date.now() + 60_000))).toBe(false);
    // The store forgot it held the body: storing it again writes it again.
    await blobs.put(body('to be collected'));
    expect(await blobs.has(a.hash)).toBe(true);
    expect((await readBlob(blobs, a.hash)).toString()).toBe('to be collected');
  });

  it('writes a body stored again by another process, which freshens it for the collector', async () => {
    const { dir, blobs } = store();
    const a = await blobs.put(body('an old body'));
    const file = blobs.pathOf(a.hash);
    const old = new Date(Date.now() - 3_600_000);
    fs.utimesSync(file, old, old);
    const otherProcess = createFsBlobStore(dir);
    const before = Date.now() - 1_000;
    await otherProcess.put(body('an old body'));
    expect(fs.statSync(file).mtimeMs).toBeGreaterThan(before);
    expect(await blobs.remove(a.hash, new Date(before))).toBe(false);
  });

  it('removes temporary files of unfinished writes older than the given time', async () => {
    const { dir, blobs } = store();
    const tmp = path.join(dir, 'tmp');
    fs.mkdirSync(tmp, { recursive: true });
    fs.writeFileSync(path.join(tmp, 'crashed'), 'x');
    const old = new Date(Date.now() - 3 * 3_600_000);
    fs.utimesSync(path.join(tmp, 'crashed'), old, old);
    fs.writeFileSync(path.join(tmp, 'writing'), 'y');
    expect(await blobs.removeTemporaries(new Date(Date.now() - 3_600_000))).toBe(1);
    expect(fs.readdirSync(tmp)).toEqual(['writing']);
  });
});

describe('filesystem blob store: a sweep meeting a writer (issue 30, item 8)', () => {
  const body = (text: string) => chunks(Buffer.from(text), 4);

  it('keeps a body another process stores again between the sweep looking at it and deleting it', async () => {
    const { dir, blobs } = store();
    const a = await blobs.put(body('a body nothing refers to'));
    const file = blobs.pathOf(a.hash);
    const old = new Date(Date.now() - 3_600_000);
    fs.utimesSync(file, old, old);
    const writer = createFsBlobStore(dir);
    // Right after the sweep has seen an old file, a run stores the same body (and relies on it).
    const realStat = fsp.stat.bind(fsp);
    let stored: Promise<unknown> | undefined;
    vi.spyOn(fsp, 'stat').mockImplementation(async (...args: Parameters<typeof fsp.stat>) => {
      const seen = await realStat(...args);
      if (!stored && String(args[0]) === file) {
        stored = writer.put(body('a body nothing refers to'));
        await stored;
      }
      return seen;
    });
    await blobs.remove(a.hash, new Date(Date.now() - 60_000));
    expect(stored).toBeDefined();
    vi.restoreAllMocks();
    expect(await createFsBlobStore(dir).has(a.hash)).toBe(true);
    expect((await readBlob(blobs, a.hash)).toString()).toBe('a body nothing refers to');
    // Nothing is left aside in the temporary folder.
    expect(fs.readdirSync(path.join(dir, 'tmp')).filter((n) => n.endsWith(a.hash))).toEqual([]);
  });
});
