/**
 * A version as a static folder (the zip export), as a sandboxed task: rewriting every page for
 * its exported file name parses HTML a stranger wrote, which never happens in the API's process.
 */
import { exportStatic, readBlob, type Manifest } from '@mirror/engine';
import { sandboxTask, type SandboxContext } from '../../platform/sandbox/sandbox.js';

export interface ExportSiteInput {
  manifestHash: string;
  /** An empty folder to write into. */
  dir: string;
}

export async function run(
  input: ExportSiteInput,
  context: SandboxContext,
): Promise<{ files: number }> {
  const manifest = JSON.parse(
    (await readBlob(context.blobs, input.manifestHash)).toString('utf8'),
  ) as Manifest;
  const written = await exportStatic(manifest, context.blobs, input.dir);
  return { files: written.files };
}

export const exportSiteTask = sandboxTask(import.meta.url, run);
