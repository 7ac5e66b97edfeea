/**
 * Reads an uploaded web archive (WACZ, WARC, WARC.GZ) before anything is made of it (issue 35), as
 * a sandboxed task: a stranger's archive is parsed in a process of its own, never in the API's.
 * Its payloads are decoded, hashed and counted, and kept nowhere: a check stores nothing, and costs
 * no disk but the archive's own copy in the run's folder.
 */
import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import { ARCHIVE_MESSAGES } from '@mirror/contract';
import { isArchiveError, openArchive, type BlobStore } from '@mirror/engine';
import { sandboxTask, type SandboxContext } from '../../platform/sandbox/sandbox.js';

export interface ArchiveCheckInput {
  /** The uploaded file's blob. */
  hash: string;
  /** The uploaded file's name: its extension tells a `.warc` from a `.warc.gz` or a `.wacz`. */
  name: string;
  /** Largest archive read (its decoded payloads too): the owner's plan's. */
  maxBytes: number;
  /** Most WARC records read: the owner's plan's (`archiveReadLimits`). */
  maxRecords: number;
  /** The page the owner picked to start from, when one. */
  url?: string;
}

export type ArchiveCheckOutput =
  | {
      ok: true;
      format: 'warc' | 'warc.gz' | 'wacz';
      software: string | null;
      title: string | null;
      responses: number;
      pages: number;
      startUrl: string;
    }
  /** The engine's verdict: its code and its sentence for a person. */
  | { ok: false; code: string; message: string };

/**
 * The archive's blob, written to a file of the run's own (its reader needs random access: a WACZ
 * is a zip), named like the upload so the reader can tell its format.
 */
export async function blobToFile(blobs: BlobStore, hash: string, name: string): Promise<string> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'archive-'));
  const file = path.join(dir, path.basename(name).replace(/[^\w.-]+/g, '_') || 'archive');
  await pipeline(Readable.from(blobs.read(hash)), createWriteStream(file));
  return file;
}

/**
 * A store that keeps nothing: each body is hashed and counted as it streams by. The check needs
 * what the archive holds and whether every payload decodes, not the bytes (the import run that
 * follows stores them).
 */
const DISCARD: BlobStore = {
  async put(body) {
    const hash = createHash('sha256');
    let size = 0;
    for await (const chunk of body) {
      hash.update(chunk);
      size += chunk.byteLength;
    }
    return { hash: hash.digest('hex'), size };
  },
  read() {
    throw new Error('an archive check keeps no payload');
  },
  has: async () => false,
};

export async function run(
  input: ArchiveCheckInput,
  context: SandboxContext,
): Promise<ArchiveCheckOutput> {
  const file = await blobToFile(context.blobs, input.hash, input.name);
  try {
    const archive = await openArchive(file, {
      store: DISCARD,
      maxBytes: input.maxBytes,
      maxRecords: input.maxRecords,
    });
    const pages = archive.pages();
    const startUrl = input.url ?? pages[0]?.url;
    if (!startUrl)
      return {
        ok: false,
        code: 'no-pages',
        message: 'The archive holds no web page a copy could start from.',
      };
    if (input.url && !archive.get(input.url))
      return { ok: false, code: 'url-not-in-archive', message: ARCHIVE_MESSAGES.urlNotInArchive };
    const { info } = archive;
    return {
      ok: true,
      format: info.format,
      software: info.software ?? null,
      title: info.title ?? null,
      responses: info.responses,
      pages: pages.length,
      startUrl,
    };
  } catch (err) {
    if (isArchiveError(err)) return { ok: false, code: err.code, message: err.message };
    throw err;
  } finally {
    await fs.rm(path.dirname(file), { recursive: true, force: true });
  }
}

export const archiveCheckTask = sandboxTask(import.meta.url, run);
