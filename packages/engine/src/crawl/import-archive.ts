import { ArchiveError, createArchiveClient, type ArchiveIndex } from '../archive/index.js';
import type { Manifest, MirrorOptions } from '../types.js';
import { mirror } from './mirror.js';

export interface ImportArchiveOptions extends Omit<MirrorOptions, 'url' | 'client' | 'seeds'> {
  /** The archive, opened by `openArchive` into the same store. */
  archive: ArchiveIndex;
  /** The name shown for it: the uploaded file's. */
  name: string;
  /** The copy's start page; default the archive's main page (its first listed page). */
  url?: string;
}

/**
 * Makes a copy from a web archive instead of the live site (docs/archives.md): the ordinary run
 * crawls the archive's responses through `createArchiveClient` (discovery, rendering, rewriting and
 * limits as for a live site) with no request leaving the machine. Every page the archive lists is
 * crawled, linked or not. The manifest says where the copy came from (`importedFrom`).
 */
export async function importArchive(options: ImportArchiveOptions): Promise<Manifest> {
  const { archive, name, url, ...rest } = options;
  const pages = archive.pages();
  const start = url ?? pages[0]?.url;
  if (!start)
    throw new ArchiveError('no-pages', 'The archive holds no web page a copy could start from.');
  const client = createArchiveClient(archive);
  try {
    const manifest = await mirror({
      ...rest,
      url: start,
      client,
      seeds: pages.map((page) => page.url),
    });
    const { info } = archive;
    manifest.importedFrom = {
      name,
      format: info.format === 'wacz' ? 'wacz' : 'warc',
      responses: info.responses,
      ...(info.software ? { software: info.software } : {}),
    };
    return manifest;
  } finally {
    await client.close();
  }
}
