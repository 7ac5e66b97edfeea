import type { Understanding } from '@mirror/contract';
import type { BlobStore, Manifest } from '@mirror/engine';
import { describePlan, parseInstructions } from '@mirror/customize';
import { outlinesOf, readDocuments } from './version-files.js';

/**
 * What the built-in engine makes of instructions on a version, before anything is applied: the
 * changes in plain words ("I will: …") and each part it could not read with the closest phrasing
 * it can. The customize step parses the same text against the same outlines, so it does exactly
 * this.
 */
export async function understandInstructions(
  manifest: Manifest,
  blobs: BlobStore,
  instructions: string,
): Promise<Understanding> {
  const { documents } = await readDocuments(manifest, blobs);
  const outlines = outlinesOf(documents, manifest.entryPath);
  const parsed = parseInstructions(instructions, outlines[0]);
  return {
    byModel: false,
    willDo: describePlan(parsed.plan, outlines),
    notUnderstood: parsed.unparsed.map((part) => ({
      part,
      suggestion: parsed.suggestions.find((s) => s.part === part)?.suggestion ?? null,
    })),
  };
}
