/**
 * Writes a WACZ 1.1.1 (https://specs.webrecorder.net/wacz/1.1.1/): a zip of the WARC, its CDXJ
 * index, the list of pages and a datapackage.json with the sha256 and size of each of them. No
 * maintained WACZ writer exists on npm for Node (py-wacz is Python; Browsertrix Crawler embeds its
 * own), so this is the small part of the format a replay tool needs, on yazl.
 *
 * The WARC is STORED (not deflated) so that a reader can range-read a record at its CDXJ offset
 * inside the zip; the text files are deflated.
 */
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import yazl from 'yazl';
import { sortedCdxj } from './cdxj.js';
import type { CdxjLine } from './types.js';

export const WACZ_VERSION = '1.1.1';

export interface WaczPage {
  url: string;
  title?: string;
  ts: Date;
}

export interface WaczOptions {
  /** The `.warc.gz` written by writeWarc. */
  warcPath: string;
  /** Its index lines (writeWarc's result), any order. */
  index: readonly CdxjLine[];
  /** The pages to list; the first is the main page (mainPageUrl). */
  pages: readonly WaczPage[];
  title?: string;
  software: string;
  /** More files to package, e.g. screenshots: `path` in the zip, `file` on disk. */
  extraFiles?: readonly { path: string; file: string }[];
}

interface Resource {
  name: string;
  path: string;
  hash: string;
  bytes: number;
}

/** Writes the WACZ at `outPath`; resolves once the file is complete. */
export async function writeWacz(outPath: string, options: WaczOptions): Promise<void> {
  const zip = new yazl.ZipFile();
  const done = pipeline(zip.outputStream, createWriteStream(outPath));
  const resources: Resource[] = [];
  const mtime = new Date();

  async function addFile(zipPath: string, file: string, compress: boolean): Promise<void> {
    const { hash, bytes } = await hashFile(file);
    resources.push({ name: path.posix.basename(zipPath), path: zipPath, hash, bytes });
    zip.addFile(file, zipPath, { compress, mtime });
  }
  function addText(zipPath: string, text: string): void {
    const data = Buffer.from(text, 'utf8');
    resources.push({
      name: path.posix.basename(zipPath),
      path: zipPath,
      hash: `sha256:${sha256(data)}`,
      bytes: data.length,
    });
    zip.addBuffer(data, zipPath, { compress: true, mtime });
  }

  let failure: { error: unknown } | undefined;
  try {
    await addFile('archive/data.warc.gz', options.warcPath, false);
    addText(
      'indexes/index.cdxj',
      sortedCdxj(options.index)
        .map((line) => `${line}\n`)
        .join(''),
    );
    addText('pages/pages.jsonl', pagesJsonl(options.pages));
    for (const extra of options.extraFiles ?? []) await addFile(extra.path, extra.file, true);

    const main = options.pages[0];
    const datapackage = {
      profile: 'data-package',
      resources,
      wacz_version: WACZ_VERSION,
      ...(options.title === undefined ? {} : { title: options.title }),
      created: mtime.toISOString(),
      modified: mtime.toISOString(),
      software: options.software,
      ...(main === undefined ? {} : { mainPageUrl: main.url, mainPageDate: main.ts.toISOString() }),
    };
    const packageText = JSON.stringify(datapackage, null, 2);
    zip.addBuffer(Buffer.from(packageText, 'utf8'), 'datapackage.json', { compress: true, mtime });
    const digest = {
      path: 'datapackage.json',
      hash: `sha256:${sha256(Buffer.from(packageText, 'utf8'))}`,
    };
    zip.addBuffer(Buffer.from(JSON.stringify(digest, null, 2), 'utf8'), 'datapackage-digest.json', {
      compress: true,
      mtime,
    });
  } catch (error) {
    failure = { error };
  } finally {
    zip.end();
  }
  try {
    await done;
  } catch (error) {
    failure ??= { error };
  }
  if (failure !== undefined) {
    await fs.rm(outPath, { force: true });
    throw failure.error;
  }
}

/** pages/pages.jsonl: a header line, then one page a line (url, ts, title). */
export function pagesJsonl(pages: readonly WaczPage[]): string {
  const lines = [JSON.stringify({ format: 'json-pages-1.0', id: 'pages', title: 'All Pages' })];
  for (const page of pages) {
    lines.push(
      JSON.stringify({
        url: page.url,
        ts: page.ts.toISOString(),
        ...(page.title === undefined ? {} : { title: page.title }),
      }),
    );
  }
  return `${lines.join('\n')}\n`;
}

async function hashFile(file: string): Promise<{ hash: string; bytes: number }> {
  const hasher = createHash('sha256');
  let bytes = 0;
  for await (const chunk of createReadStream(file)) {
    const data = chunk as Buffer;
    hasher.update(data);
    bytes += data.length;
  }
  return { hash: `sha256:${hasher.digest('hex')}`, bytes };
}

function sha256(data: Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}
