/**
 * A version as a web archive (`.warc.gz` or `.wacz`, issue 35), as a sandboxed task: titles are
 * read from pages a stranger wrote, which never happens in the API's process. The file is written
 * in the run's own folder (`context.outputDir`); the sandbox hands it to the caller.
 */
import path from 'node:path';
import { readBlob, writeVersionArchive, type Manifest } from '@mirror/engine';
import { sandboxTask, type SandboxContext } from '../../platform/sandbox/sandbox.js';

export type ArchiveExportFormat = 'warc' | 'wacz';

export interface ArchiveExportInput {
  manifestHash: string;
  format: ArchiveExportFormat;
  /** Named in the archive's `warcinfo` and `datapackage.json`. */
  software: string;
  title?: string;
}

/** The name of the file the task writes in its output folder. */
export function archiveFileName(format: ArchiveExportFormat): string {
  return format === 'wacz' ? 'archive.wacz' : 'archive.warc.gz';
}

export async function run(
  input: ArchiveExportInput,
  context: SandboxContext,
): Promise<{ bytes: number; records: number; pages: number }> {
  const manifest = JSON.parse(
    (await readBlob(context.blobs, input.manifestHash)).toString('utf8'),
  ) as Manifest;
  return writeVersionArchive({
    manifest,
    store: context.blobs,
    file: path.join(context.outputDir, archiveFileName(input.format)),
    format: input.format,
    software: input.software,
    ...(input.title ? { title: input.title } : {}),
  });
}

export const archiveExportTask = sandboxTask(import.meta.url, run);
