/** A replacement of `[start, end)` of a document by `text` (an insertion when start === end). */
export interface Edit {
  start: number;
  end: number;
  text: string;
}

export interface SpliceResult {
  text: string;
  /** Edits that changed something. */
  applied: number;
  /** Edits dropped because they overlapped an earlier one. */
  conflicts: number;
}

/**
 * Splices edits into a document; every byte outside the edits stays as it was. Edits are taken in
 * document order (insertions at one point keep their given order); one that overlaps an edit
 * already taken is dropped and counted as a conflict.
 */
export function spliceEdits(text: string, edits: readonly Edit[]): SpliceResult {
  const sorted = [...edits].sort((a, b) => a.start - b.start || a.end - b.end);
  let out = '';
  let pos = 0;
  let applied = 0;
  let conflicts = 0;
  for (const e of sorted) {
    if (e.start < pos || e.end < e.start || e.end > text.length) {
      conflicts++;
      continue;
    }
    out += text.slice(pos, e.start) + e.text;
    pos = e.end;
    if (text.slice(e.start, e.end) !== e.text) applied++;
  }
  return { text: applied === 0 ? text : out + text.slice(pos), applied, conflicts };
}

/** Moves edits made on a slice of a document (e.g. a `<style>` block) to document offsets. */
export function shiftEdits(edits: readonly Edit[], base: number): Edit[] {
  return edits.map((e) => ({ start: e.start + base, end: e.end + base, text: e.text }));
}
