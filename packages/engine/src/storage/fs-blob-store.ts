import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Readable, Transform } from 'node:stream';
import type { BlobStore } from '../types.js';

const HASH_PATTERN = /^[0-9a-f]{64}$/;

/**
 * Blobs as files under `root/ab/cd/<sha256>`. A body streams to a temporary file while it is
 * hashed, then is renamed into place (atomic; an existing blob with that hash is kept), so a crash
 * never leaves a half-written blob under a real name and memory use does not grow with file size.
 */
export function createFsBlobStore(root: string): BlobStore & { pathOf(hash: string): string } {
  const pathOf = (hash: string) => {
    if (!HASH_PATTERN.test(hash)) throw new Error(`not a blob hash: ${hash}`);
    return path.join(root, hash.slice(0, 2), hash.slice(2, 4), hash);
  };

  return {
    pathOf,
    async put(body) {
      const tmpDir = path.join(root, 'tmp');
      await fs.mkdir(tmpDir, { recursive: true });
      const tmp = path.join(tmpDir, `${Date.now()}-${randomBytes(6).toString('hex')}`);
      const hasher = createHash('sha256');
      let size = 0;
      const tap = new Transform({
        transform(chunk: Buffer, _enc, done) {
          hasher.update(chunk);
          size += chunk.length;
          done(null, chunk);
        },
      });
      try {
        await pipeline(Readable.from(body), tap, createWriteStream(tmp));
        const hash = hasher.digest('hex');
        const target = pathOf(hash);
        await fs.mkdir(path.dirname(target), { recursive: true });
        try {
          await fs.access(target);
          await fs.rm(tmp, { force: true });
        } catch {
          await fs.rename(tmp, target);
        }
        return { hash, size };
      } catch (err) {
        await fs.rm(tmp, { force: true });
        throw err;
      }
    },
    read(hash) {
      return createReadStream(pathOf(hash));
    },
    async has(hash) {
      try {
        await fs.access(pathOf(hash));
        return true;
      } catch {
        return false;
      }
    },
  };
}
