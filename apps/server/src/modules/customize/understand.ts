import type { Understanding } from '@mirror/contract';
import type { BlobStore, Manifest } from '@mirror/engine';
import { applyPlan, parseInstructions } from '@mirror/customize';
import { describeOutcome, inAppEnglish } from './plain-changes.js';
import { outlinesOf, readDocuments } from './version-files.js';

/**
 * What the built-in engine makes of instructions on a version, before anything is applied: the
 * changes in plain words ("I will: …") and each part it could not read with the closest phrasings
 * it can. The customize step parses the same text against the same outlines, so it does exactly
 * this; the plan is also run on a copy of the version's pages here, so each line says where it
 * will change what, in the words and counts the result will use (issue 31, item 5).
 */
export async function understandInstructions(
  manifest: Manifest,
  blobs: BlobStore,
  instructions: string,
): Promise<Understanding> {
  const { documents } = await readDocuments(manifest, blobs);
  const outlines = outlinesOf(documents, manifest.entryPath);
  const parsed = parseInstructions(instructions, outlines[0]);
  const { report } = applyPlan(parsed.plan, documents);
  const plain = (line: string) => inAppEnglish(line, instructions);
  return {
    byModel: false,
    willDo: describeOutcome(parsed.plan, report, outlines).map(plain),
    notUnderstood: parsed.unparsed.map((part) => {
      const found = parsed.suggestions.find((s) => s.part === part);
      return {
        part,
        suggestion: found?.suggestion ? plain(found.suggestion) : null,
        alternatives: (found?.alternatives ?? []).map(plain),
      };
    }),
  };
}
