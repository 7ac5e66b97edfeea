import { createHash, randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import { PassThrough } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  CopyObjectCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  type S3ClientConfig,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { createPresenceCache, type StoredBlob, type SweepableBlobStore } from '@mirror/engine';

/** Bodies up to this size are hashed in memory and written in one request; larger ones stream. */
const SMALL_BODY_BYTES = 1024 * 1024;
const HASH_PATTERN = /^[0-9a-f]{64}$/;
/**
 * `remove` deletes a blob only this soon after marking it; a writer waits at most
 * `MARK_WAIT_MS` for a mark to go, and takes a mark older than `MARK_STALE_MS` (by the bucket's
 * clock) for one a sweep that died left behind.
 */
const MARK_DELETES_WITHIN_MS = 20_000;
const MARK_WAIT_MS = 60_000;
const MARK_STALE_MS = 5 * 60_000;
/** Writes of one body a writer tries before it gives up (each follows a sweep's deletion). */
const MAX_WRITES = 5;
/** Reads of a whole blob that came back short or wrong, and the pause before the next. */
const MAX_READS = 4;
const READ_RETRY_MS = 50;

export interface S3BlobStoreOptions {
  bucket: string;
  /** Key prefix inside the bucket, e.g. `blobs/`. */
  prefix?: string;
  /** Endpoint, region, credentials, `forcePathStyle` for MinIO-style servers. */
  client: S3ClientConfig;
}

function isNotFound(error: unknown): boolean {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e.name === 'NotFound' || e.name === 'NoSuchKey' || e.$metadata?.httpStatusCode === 404;
}

/**
 * Blobs in an S3-compatible bucket under `{prefix}ab/cd/<sha256>`, the same content addressing as
 * the filesystem store. A large body streams to a temporary key while it is hashed and is then
 * copied to its name, so a reader never sees a partial blob under a real name. A body stored again
 * is written again (unless this store wrote or saw it within `BLOB_PRESENCE_TTL_MS`), which renews
 * its LastModified for the garbage collector.
 *
 * S3 cannot delete a key only if it is unchanged, so `remove` (the collector's HEAD, then DELETE)
 * and a writer storing the same body again (issue 30, item 8) meet through a mark: `remove` puts
 * `{prefix}tmp/sweep-<sha256>` before its HEAD and deletes it after its DELETE; a writer, after its
 * PUT, looks for the mark (present: waits for it to go, then writes again) and then for its blob
 * (gone: a deletion finished in between, so it writes again). A PUT that landed between the HEAD
 * and the DELETE is therefore always written once more after the DELETE.
 */
export function createS3BlobStore(options: S3BlobStoreOptions): SweepableBlobStore & {
  client: S3Client;
} {
  const client = new S3Client(options.client);
  const { bucket } = options;
  const prefix = options.prefix ?? '';
  const known = createPresenceCache();
  const keyOf = (hash: string) => {
    if (!HASH_PATTERN.test(hash)) throw new Error(`not a blob hash: ${hash}`);
    return `${prefix}${hash.slice(0, 2)}/${hash.slice(2, 4)}/${hash}`;
  };
  const markKeyOf = (hash: string) => `${prefix}tmp/sweep-${hash}`;

  /** LastModified of a key, or null when there is none. */
  async function modifiedAt(key: string): Promise<Date | null> {
    try {
      const head = await client.send(new HeadObjectCommand({ Bucket: bucket, Key: key }));
      return head.LastModified ?? new Date(0);
    } catch (error) {
      if (isNotFound(error)) return null;
      throw error;
    }
  }

  /** Whether a sweep is deleting the blob now (its mark is there and not left by a dead sweep). */
  async function marked(hash: string): Promise<boolean> {
    const at = await modifiedAt(markKeyOf(hash));
    return at !== null && Date.now() - at.getTime() < MARK_STALE_MS;
  }

  /**
   * After `write` stored a body: writes it again for as long as a sweep may have deleted it since
   * (see above), so the blob is there when put() answers.
   */
  async function settle(hash: string, write: () => Promise<unknown>): Promise<void> {
    for (let writes = 1; ; writes++) {
      if (await marked(hash)) {
        const until = Date.now() + MARK_WAIT_MS;
        while (Date.now() < until && (await marked(hash))) await sleep(100);
      } else if ((await modifiedAt(keyOf(hash))) !== null) {
        return;
      }
      if (writes >= MAX_WRITES) throw new Error(`blob ${hash} kept being deleted while stored`);
      await write();
    }
  }

  async function has(hash: string): Promise<boolean> {
    if (known.has(hash)) return true;
    try {
      // Not remembered: only a write (which freshens the blob) may let a later put skip writing.
      await client.send(new HeadObjectCommand({ Bucket: bucket, Key: keyOf(hash) }));
      return true;
    } catch (error) {
      if (isNotFound(error)) return false;
      throw error;
    }
  }

  return {
    client,
    has,
    async put(body) {
      const hasher = createHash('sha256');
      let size = 0;
      let chunks: Buffer[] = [];
      let stream: PassThrough | null = null;
      let upload: Promise<unknown> | null = null;
      const tmpKey = `${prefix}tmp/${randomUUID()}`;
      try {
        for await (const chunk of body) {
          const buffer = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
          hasher.update(buffer);
          size += buffer.length;
          if (stream) {
            if (!stream.write(buffer))
              await new Promise((resolve) => stream!.once('drain', resolve));
            continue;
          }
          chunks.push(buffer);
          if (size > SMALL_BODY_BYTES) {
            stream = new PassThrough();
            upload = new Upload({
              client,
              params: { Bucket: bucket, Key: tmpKey, Body: stream },
            }).done();
            upload.catch(() => undefined); // awaited below; a failure must not go unhandled meanwhile
            for (const c of chunks) stream.write(c);
            chunks = [];
          }
        }
        const hash = hasher.digest('hex');
        if (stream) {
          stream.end();
          await upload;
          if (!known.has(hash)) {
            const copy = () =>
              client.send(
                new CopyObjectCommand({
                  Bucket: bucket,
                  CopySource: `${bucket}/${tmpKey}`,
                  Key: keyOf(hash),
                }),
              );
            await copy();
            await settle(hash, copy);
          }
          await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: tmpKey }));
        } else if (!known.has(hash)) {
          const body = Buffer.concat(chunks);
          const write = () =>
            client.send(new PutObjectCommand({ Bucket: bucket, Key: keyOf(hash), Body: body }));
          await write();
          await settle(hash, write);
        }
        known.add(hash);
        return { hash, size };
      } catch (error) {
        if (stream) {
          stream.destroy();
          await client
            .send(new DeleteObjectCommand({ Bucket: bucket, Key: tmpKey }))
            .catch(() => undefined);
        }
        throw error;
      }
    },
    read(hash) {
      const key = keyOf(hash);
      return (async function* () {
        const answer = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
        const stream = answer.Body as Readable | undefined;
        let received = 0;
        if (stream) {
          for await (const chunk of stream) {
            received += (chunk as Uint8Array).byteLength;
            yield chunk as Uint8Array;
          }
        }
        if (answer.ContentLength !== undefined && received !== answer.ContentLength) {
          throw new Error(`blob ${hash} ended after ${received} of ${answer.ContentLength} bytes`);
        }
      })();
    },
    /**
     * The whole body, checked against its hash: a server whose writes are not atomic (s3rver,
     * some S3-compatible stores) can answer a blob short or empty while another writer stores the
     * same content. Such a read is tried again, never handed on.
     */
    async readAll(hash) {
      for (let attempt = 1; ; attempt++) {
        const chunks: Uint8Array[] = [];
        let failure: unknown = null;
        try {
          for await (const chunk of this.read(hash)) chunks.push(chunk);
        } catch (error) {
          if (isNotFound(error)) throw error;
          failure = error;
        }
        const body = Buffer.concat(chunks);
        if (failure === null && createHash('sha256').update(body).digest('hex') === hash)
          return body;
        if (attempt >= MAX_READS)
          throw failure instanceof Error
            ? failure
            : new Error(`blob ${hash} read ${body.length} bytes that do not match its hash`);
        await sleep(READ_RETRY_MS * attempt);
      }
    },
    async *list() {
      for await (const object of listObjects(prefix)) {
        const hash = object.key.slice(object.key.lastIndexOf('/') + 1);
        if (!HASH_PATTERN.test(hash) || object.key !== keyOf(hash)) continue;
        yield { hash, size: object.size, modifiedAt: object.modifiedAt } satisfies StoredBlob;
      }
    },
    async remove(hash, writtenBefore) {
      const key = keyOf(hash);
      const markKey = markKeyOf(hash);
      const markedAt = Date.now();
      await client.send(new PutObjectCommand({ Bucket: bucket, Key: markKey, Body: '' }));
      try {
        const written = await modifiedAt(key);
        if (!written || written.getTime() >= writtenBefore.getTime()) return false;
        // Writers wait only so long for a mark to go.
        if (Date.now() - markedAt > MARK_DELETES_WITHIN_MS) return false;
        known.delete(hash);
        await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: key }));
        return true;
      } finally {
        await client
          .send(new DeleteObjectCommand({ Bucket: bucket, Key: markKey }))
          .catch(() => undefined);
      }
    },
    async removeTemporaries(olderThan) {
      let removed = 0;
      for await (const object of listObjects(`${prefix}tmp/`)) {
        if (object.modifiedAt.getTime() >= olderThan.getTime()) continue;
        await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: object.key }));
        removed++;
      }
      return removed;
    },
  };

  async function* listObjects(
    under: string,
  ): AsyncIterable<{ key: string; size: number; modifiedAt: Date }> {
    let token: string | undefined;
    do {
      const page = await client.send(
        new ListObjectsV2Command({ Bucket: bucket, Prefix: under, ContinuationToken: token }),
      );
      for (const object of page.Contents ?? []) {
        if (!object.Key) continue;
        yield {
          key: object.Key,
          size: object.Size ?? 0,
          modifiedAt: object.LastModified ?? new Date(0),
        };
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }
}
