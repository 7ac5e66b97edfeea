import type { IncomingMessage } from 'node:http';
import { ARCHIVE_FILE_PATTERN, ARCHIVE_MESSAGES, describeStorageBytes } from '@mirror/contract';
import type { BlobStore } from '@mirror/engine';
import busboy from 'busboy';
import { AppError, badRequest } from '../../errors.js';

/** An uploaded web archive, stored as one blob. */
export interface ArchiveUpload {
  hash: string;
  size: number;
  /** The file's name as sent (its last path segment), at most 200 characters. */
  name: string;
  /** The form's text fields (`url`, `targetDomain`). */
  fields: Record<string, string>;
}

/** Room the multipart framing and the text fields take besides the file. */
const FORM_OVERHEAD_BYTES = 64 * 1024;
const FIELD_BYTES = 4 * 1024;

export function archiveTooLarge(limitBytes: number): AppError {
  return new AppError(
    'archive_too_large',
    413,
    ARCHIVE_MESSAGES.tooLarge(describeStorageBytes(limitBytes)),
  );
}

class TooLarge extends Error {}

/**
 * Reads a multipart upload of one web archive (field `file`) straight into the blob store, as it
 * arrives: never whole in memory, refused past `limitBytes` (by its Content-Length before a byte is
 * read, else as soon as it counts more). A refused or broken upload stores nothing: the store
 * keeps only a body it read to its end.
 */
export function readArchiveUpload(
  req: IncomingMessage,
  blobs: BlobStore,
  limitBytes: number,
): Promise<ArchiveUpload> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limitBytes + FORM_OVERHEAD_BYTES) {
    req.resume();
    return Promise.reject(archiveTooLarge(limitBytes));
  }
  return new Promise((resolve, reject) => {
    const fields: Record<string, string> = {};
    let stored: Promise<{ hash: string; size: number; name: string }> | undefined;
    let failed = false;
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: req.headers,
        limits: { fields: 10, fieldSize: FIELD_BYTES, files: 1, parts: 12 },
      });
    } catch {
      req.resume();
      reject(badRequest(ARCHIVE_MESSAGES.noFile));
      return;
    }
    const fail = (err: unknown) => {
      if (failed) return;
      failed = true;
      req.unpipe(parser);
      req.resume();
      reject(err);
    };
    parser.on('field', (name, value) => {
      fields[name] = value;
    });
    parser.on('file', (field, stream, info) => {
      const name = (info.filename ?? '').split(/[\\/]/).pop()!.slice(0, 200);
      if (field !== 'file' || stored || !name) {
        stream.resume();
        return;
      }
      if (!ARCHIVE_FILE_PATTERN.test(name) && !/\.gz$/i.test(name)) {
        stream.resume();
        fail(badRequest(ARCHIVE_MESSAGES.wrongType));
        return;
      }
      async function* counted(): AsyncIterable<Uint8Array> {
        let size = 0;
        for await (const chunk of stream as AsyncIterable<Buffer>) {
          size += chunk.byteLength;
          if (size > limitBytes) throw new TooLarge();
          yield chunk;
        }
      }
      stored = blobs.put(counted()).then((blob) => ({ ...blob, name }));
      stored.catch((err: unknown) => {
        fail(err instanceof TooLarge ? archiveTooLarge(limitBytes) : err);
      });
    });
    parser.on('error', () => fail(badRequest(ARCHIVE_MESSAGES.unreadable)));
    parser.on('close', () => {
      if (failed) return;
      if (!stored) {
        fail(badRequest(ARCHIVE_MESSAGES.noFile));
        return;
      }
      stored.then(
        (blob) => {
          if (!failed) resolve({ ...blob, fields });
        },
        () => undefined,
      );
    });
    req.on('aborted', () => fail(badRequest(ARCHIVE_MESSAGES.unreadable)));
    req.pipe(parser);
  });
}
