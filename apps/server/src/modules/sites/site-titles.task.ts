/**
 * The titles of versions made before titles were kept, read from their stored home pages, as a
 * sandboxed task: it parses HTML a stranger wrote, which never happens in the API's process.
 */
import { homeTitle, readBlob, type Manifest } from '@mirror/engine';
import { sandboxTask, type SandboxContext } from '../../platform/sandbox/sandbox.js';

export interface SiteTitlesInput {
  manifestHashes: string[];
}

/** One title per manifest, in order; '' for a home page without one. */
export async function run(
  input: SiteTitlesInput,
  context: SandboxContext,
): Promise<{ titles: string[] }> {
  const titles: string[] = [];
  for (const hash of input.manifestHashes) {
    const manifest = JSON.parse((await readBlob(context.blobs, hash)).toString('utf8')) as Manifest;
    titles.push(manifest.title ?? (await homeTitle(manifest, context.blobs)) ?? '');
  }
  return { titles };
}

export const siteTitlesTask = sandboxTask(import.meta.url, run);
