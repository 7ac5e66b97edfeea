/**
 * A version as a static folder (the zip export), as a sandboxed task: rewriting every page for
 * its exported file name parses HTML a stranger wrote, which never happens in the API's process.
 * The folder is the run's own (`context.outputDir`); the sandbox hands it to the caller.
 */
import { exportStatic, readBlob, type Manifest } from '@mirror/engine';
import { sandboxTask, type SandboxContext } from '../../platform/sandbox/sandbox.js';

export interface ExportSiteInput {
  manifestHash: string;
}

export async function run(
  input: ExportSiteInput,
  context: SandboxContext,
): Promise<{ files: number }> {
  const manifest = JSON.parse(
    (await readBlob(context.blobs, input.manifestHash)).toString('utf8'),
  ) as Manifest;
  const written = await exportStatic(manifest, context.blobs, context.outputDir);
  return { files: written.files };
}

export const exportSiteTask = sandboxTask(import.meta.url, run);
