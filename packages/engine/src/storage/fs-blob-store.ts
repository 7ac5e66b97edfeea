import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream, type WriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import { once } from 'node:events';
import path from 'node:path';
import type { StoredBlob, SweepableBlobStore } from '../types.js';
import { createPresenceCache } from './blob-utils.js';
import { readFile, writeFile } from './files.js';

const HASH_PATTERN = /^[0-9a-f]{64}$/;
/** Bodies up to this size are written in one call; larger ones stream to disk as they arrive. */
const SMALL_BODY_BYTES = 256 * 1024;

export interface FsBlobStoreOptions {
  /**
   * A store used for one run and deleted afterwards (the CLI's): blobs live under `root/ab/<sha256>`
   * (256 folders, not 65,536) and small bodies are written straight to their name, without the
   * temporary file and rename that make a lasting store crash-safe.
   */
  scratch?: boolean;
}

/**
 * Blobs as files under `root/ab/cd/<sha256>`. A body is written to a temporary file and renamed into
 * place once its hash is known (atomic: a crash never leaves a half-written blob under a real name).
 * Small bodies are buffered and written in one call; large ones stream, so memory stays bounded.
 * Mirroring writes thousands of small files at once, so directory creation and repeated writes of a
 * body already stored are skipped after the first time (for `BLOB_PRESENCE_TTL_MS`; after that a
 * body stored again is written again, which freshens it for the garbage collector).
 */
export function createFsBlobStore(
  root: string,
  options: FsBlobStoreOptions = {},
): SweepableBlobStore & { pathOf(hash: string): string } {
  const scratch = options.scratch ?? false;
  const tmpDir = path.join(root, 'tmp');
  const madeDirs = new Map<string, Promise<unknown>>();
  const written = createPresenceCache();

  // `root`, normalized, with its separator: a path per blob without path.join's work each time.
  const base = path.join(root, 'x').slice(0, -1);
  const pathOf = (hash: string) => {
    if (!HASH_PATTERN.test(hash)) throw new Error(`not a blob hash: ${hash}`);
    return scratch
      ? `${base}${hash.slice(0, 2)}${path.sep}${hash}`
      : `${base}${hash.slice(0, 2)}${path.sep}${hash.slice(2, 4)}${path.sep}${hash}`;
  };
  const ensureDir = (dir: string) => {
    let made = madeDirs.get(dir);
    if (!made) {
      made = fs.mkdir(dir, { recursive: true });
      madeDirs.set(dir, made);
    }
    return made;
  };
  const tmpName = () => path.join(tmpDir, `${Date.now()}-${randomBytes(6).toString('hex')}`);

  return {
    pathOf,
    async put(body) {
      const hasher = createHash('sha256');
      let size = 0;
      let chunks: Uint8Array[] = [];
      let stream: WriteStream | null = null;
      let tmp = '';
      try {
        for await (const chunk of body) {
          hasher.update(chunk);
          size += chunk.length;
          if (stream) {
            if (!stream.write(chunk)) await once(stream, 'drain');
            continue;
          }
          chunks.push(chunk);
          if (size > SMALL_BODY_BYTES) {
            await ensureDir(tmpDir);
            tmp = tmpName();
            stream = createWriteStream(tmp);
            for (const c of chunks) stream.write(c);
            chunks = [];
          }
        }
        const hash = hasher.digest('hex');
        const target = pathOf(hash);
        if (stream) {
          stream.end();
          await once(stream, 'close');
          await ensureDir(path.dirname(target));
          await fs.rename(tmp, target);
        } else if (!written.has(hash) && scratch) {
          await ensureDir(path.dirname(target));
          await writeFile(target, chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks));
        } else if (!written.has(hash)) {
          await Promise.all([ensureDir(tmpDir), ensureDir(path.dirname(target))]);
          tmp = tmpName();
          await writeFile(tmp, Buffer.concat(chunks));
          await fs.rename(tmp, target);
        }
        written.add(hash);
        return { hash, size };
      } catch (err) {
        if (stream) {
          // The file may still be being opened: wait for the stream to close before removing it.
          const closed = once(stream, 'close').catch(() => undefined);
          stream.destroy();
          await closed;
        }
        if (tmp) await fs.rm(tmp, { force: true });
        throw err;
      }
    },
    read(hash) {
      return createReadStream(pathOf(hash));
    },
    readAll(hash) {
      return readFile(pathOf(hash));
    },
    async has(hash) {
      if (written.has(hash)) return true;
      try {
        await fs.access(pathOf(hash));
        return true;
      } catch {
        return false;
      }
    },
    list: () => listBlobs(root, scratch ? 1 : 2),
    async remove(hash, writtenBefore) {
      const file = pathOf(hash);
      const stat = await fs.stat(file).catch(() => null);
      if (!stat || stat.mtimeMs >= writtenBefore.getTime()) return false;
      // Moved aside first (atomic), then looked at again: a writer that renamed the same body into
      // place after the stat above wrote the file now aside, which goes back; one that renames it
      // after the move puts a new file in place, which stays.
      await ensureDir(tmpDir);
      const aside = `${tmpName()}-${hash}`;
      try {
        await fs.rename(file, aside);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return false;
        throw err;
      }
      const moved = await fs.stat(aside);
      if (moved.mtimeMs >= writtenBefore.getTime()) {
        // Back in place (over a newer copy of the same body, if one landed meanwhile).
        await fs.rename(aside, file);
        return false;
      }
      written.delete(hash);
      await fs.rm(aside, { force: true });
      return true;
    },
    async removeTemporaries(olderThan) {
      const names = await fs.readdir(tmpDir).catch(() => [] as string[]);
      let removed = 0;
      for (const name of names) {
        const file = path.join(tmpDir, name);
        const stat = await fs.stat(file).catch(() => null);
        if (!stat || stat.mtimeMs >= olderThan.getTime()) continue;
        await fs.rm(file, { force: true });
        removed++;
      }
      return removed;
    },
  };
}

/** Every blob under `root`, `depth` folder levels down (`ab/cd/<sha256>`), the temporary folder aside. */
async function* listBlobs(root: string, depth: number): AsyncIterable<StoredBlob> {
  async function* walk(dir: string, level: number): AsyncIterable<StoredBlob> {
    const names = await fs.readdir(dir).catch(() => [] as string[]);
    for (const name of names) {
      if (level === 0 && name === 'tmp') continue;
      const file = path.join(dir, name);
      if (level < depth) {
        if (/^[0-9a-f]{2}$/.test(name)) yield* walk(file, level + 1);
        continue;
      }
      if (!HASH_PATTERN.test(name)) continue;
      const stat = await fs.stat(file).catch(() => null);
      if (stat?.isFile()) yield { hash: name, size: stat.size, modifiedAt: stat.mtime };
    }
  }
  yield* walk(root, 0);
}
