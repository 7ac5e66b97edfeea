import { isUtf8 } from 'node:buffer';

/** A replacement of `[start, end)` of a text. */
export interface Edit {
  start: number;
  end: number;
  text: string;
}

/** Sorts the edits by place, in place, and drops each that overlaps one before it. */
export function ordered(edits: Edit[]): Edit[] {
  edits.sort((a, b) => a.start - b.start || a.end - b.end);
  let pos = 0;
  return edits.filter((e) => {
    if (e.start < pos) return false;
    pos = e.end;
    return true;
  });
}

/** The text with the edits (in order, not overlapping) applied. */
export function spliceText(source: string, edits: readonly Edit[]): string {
  if (edits.length === 0) return source;
  let out = '';
  let pos = 0;
  for (const e of edits) {
    out += source.slice(pos, e.start) + e.text;
    pos = e.end;
  }
  return out + source.slice(pos);
}

/**
 * The UTF-8 of `spliceText(source, edits)` made from `raw`, the bytes `source` was decoded from
 * as UTF-8 (a byte order mark left out of it or not): the stretches between edits are copied, only
 * the replacements are encoded. A page of 100 kB with 300 references is 600 copies instead of
 * building the whole text again and encoding it (a fifth of what rewriting a page cost).
 * Undefined when `raw` is not exactly `source` in UTF-8 (invalid bytes were decoded as U+FFFD).
 */
export function spliceUtf8(
  raw: Uint8Array,
  source: string,
  edits: readonly Edit[],
): Buffer | undefined {
  if (!isUtf8(raw)) return undefined;
  const bom = raw[0] === 0xef && raw[1] === 0xbb && raw[2] === 0xbf;
  let at = bom && source.charCodeAt(0) !== 0xfeff ? 3 : 0;
  const parts: Uint8Array[] = [];
  let pos = 0;
  for (const e of edits) {
    const kept = Buffer.byteLength(source.slice(pos, e.start), 'utf8');
    parts.push(raw.subarray(at, at + kept), Buffer.from(e.text, 'utf8'));
    at += kept + Buffer.byteLength(source.slice(e.start, e.end), 'utf8');
    pos = e.end;
  }
  // An edit's end inside a surrogate pair counts each half as three bytes: the sum tells.
  if (Buffer.byteLength(source.slice(pos), 'utf8') !== raw.length - at) return undefined;
  parts.push(raw.subarray(at));
  return Buffer.concat(parts);
}
