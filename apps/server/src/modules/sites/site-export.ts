import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import yazl from 'yazl';
import type { Sandbox } from '../../platform/sandbox/sandbox.js';
import {
  archiveExportTask,
  archiveFileName,
  type ArchiveExportInput,
} from './archive-export.task.js';
import { exportSiteTask } from './export-site.task.js';

/** Time an export of a site's static folder may take. */
export const EXPORT_TIMEOUT_MS = 5 * 60_000;

/** Adds every file under `dir` to the zip, with paths relative to it (plain files only). */
function addFolder(zip: yazl.ZipFile, dir: string, prefix = ''): void {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    const name = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) addFolder(zip, full, name);
    else if (entry.isFile()) zip.addFile(full, name);
  }
}

/**
 * A stored version as a zip of a static folder. The folder is written by a sandboxed run (in a
 * folder of its own, taken back from it before it is read) and removed as soon as the zip stream
 * closes: sent, failed, or abandoned by the client.
 */
export async function zipStaticFolder(
  sandbox: Sandbox,
  manifestHash: string,
): Promise<NodeJS.ReadableStream> {
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'mirror-export-'));
  const removeDir = () => fs.rmSync(base, { recursive: true, force: true });
  try {
    const dir = path.join(base, 'site');
    await sandbox.run(
      exportSiteTask,
      { manifestHash },
      { timeoutMs: EXPORT_TIMEOUT_MS, output: dir },
    );
    const zip = new yazl.ZipFile();
    // A file read after the client went away (its folder already removed) fails: the zip ends
    // there. Unheard, that error would be thrown out of the process.
    const output = zip.outputStream as Readable;
    zip.on('error', (err: Error) => {
      if (!output.destroyed) output.destroy(err);
      removeDir();
    });
    addFolder(zip, dir);
    zip.end();
    zip.outputStream.once('close', removeDir);
    return zip.outputStream;
  } catch (err) {
    removeDir();
    throw err;
  }
}

/**
 * A stored version as a web archive (`.warc.gz` or `.wacz`, issue 35), written by a sandboxed run
 * into a folder taken back from it, streamed from there, and removed as soon as the stream closes:
 * sent, failed, or abandoned by the client.
 */
export async function archiveVersion(
  sandbox: Sandbox,
  input: ArchiveExportInput,
): Promise<{ stream: NodeJS.ReadableStream; bytes: number }> {
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'mirror-archive-'));
  const removeDir = () => fs.rmSync(base, { recursive: true, force: true });
  try {
    const dir = path.join(base, 'out');
    await sandbox.run(archiveExportTask, input, { timeoutMs: EXPORT_TIMEOUT_MS, output: dir });
    const file = path.join(dir, archiveFileName(input.format));
    const { size } = fs.statSync(file);
    const stream = fs.createReadStream(file);
    stream.once('close', removeDir);
    return { stream, bytes: size };
  } catch (err) {
    removeDir();
    throw err;
  }
}
