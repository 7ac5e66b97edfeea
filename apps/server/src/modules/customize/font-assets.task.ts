/**
 * The font stylesheets a plan links to, fetched, read and stored as a sandboxed task
 * (`platform/sandbox`; issue 30, item 7): a stylesheet is a stranger's text, so it is parsed in a
 * process of its own, with the sandbox's user, limits and blob store, never in the worker.
 */
import type { EditOp } from '@mirror/contract';
import type { Sandbox } from '../../platform/sandbox/sandbox.js';
import { sandboxTask, type SandboxContext } from '../../platform/sandbox/sandbox.js';
import {
  linksFontStylesheets,
  localizeFontStylesheets,
  withoutFontStylesheets,
  type LocalizedFonts,
} from './font-assets.js';

/** Time the stylesheets and their font files may take together (each request has 15 s). */
export const FONT_ASSETS_TIMEOUT_MS = 120_000;

export interface FontAssetsInput {
  ops: EditOp[];
  sourceUrl: string;
  allowPrivateNetworks: boolean;
}

export async function run(
  input: FontAssetsInput,
  context: SandboxContext,
): Promise<LocalizedFonts> {
  return localizeFontStylesheets(input.ops, {
    blobs: context.blobs,
    sourceUrl: input.sourceUrl,
    allowPrivateNetworks: input.allowPrivateNetworks,
    signal: context.signal,
  });
}

export const fontAssetsTask = sandboxTask(import.meta.url, run);

/**
 * The plan with its font stylesheets stored in the copy (`localizeFontStylesheets`), fetched in
 * the sandbox; a run that fails (its time limit, a crash) drops every link, with a note each.
 */
export async function localizeFontsInSandbox(
  sandbox: Pick<Sandbox, 'run'>,
  input: FontAssetsInput,
  signal?: AbortSignal,
): Promise<LocalizedFonts> {
  if (!linksFontStylesheets(input.ops)) return { ops: [...input.ops], entries: [], notes: [] };
  try {
    const { output } = await sandbox.run(fontAssetsTask, input, {
      timeoutMs: FONT_ASSETS_TIMEOUT_MS,
      ...(signal ? { signal } : {}),
    });
    return output;
  } catch (err) {
    if (signal?.aborted) throw err;
    return withoutFontStylesheets(input.ops, err instanceof Error ? err.message : String(err));
  }
}
