import type { RefKind } from './types.js';
import type { RefSink } from './sink.js';

export interface SrcsetCandidate {
  url: string;
  /** Descriptors as written (`1x`, `300w`, `300w 2x`), empty when none. */
  descriptor: string;
}

const isWs = (c: string | undefined) =>
  c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '\f';

/** Parses a `srcset` per the HTML standard: URLs may contain commas, descriptors may hold parentheses. */
export function parseSrcset(value: string): SrcsetCandidate[] {
  const out: SrcsetCandidate[] = [];
  const n = value.length;
  let i = 0;
  while (i < n) {
    while (i < n && (isWs(value[i]) || value[i] === ',')) i++;
    if (i >= n) break;
    const urlStart = i;
    while (i < n && !isWs(value[i])) i++;
    let url = value.slice(urlStart, i);
    if (url.endsWith(',')) {
      url = url.replace(/,+$/, '');
      out.push({ url, descriptor: '' });
      continue;
    }
    const descStart = i;
    let depth = 0;
    while (i < n) {
      const c = value[i];
      if (c === '(') depth++;
      else if (c === ')' && depth > 0) depth--;
      else if (c === ',' && depth === 0) break;
      i++;
    }
    out.push({ url, descriptor: value.slice(descStart, i).trim().replace(/\s+/g, ' ') });
    if (i < n) i++; // the comma
  }
  return out;
}

function escapeSrcsetUrl(url: string): string {
  return url
    .replace(/[\t\n\f\r ]/g, (c) => encodeURIComponent(c))
    .replace(/^,+|,+$/g, (m) => '%2C'.repeat(m.length));
}

export function serializeSrcset(candidates: readonly SrcsetCandidate[]): string {
  return candidates
    .map((c) =>
      c.descriptor ? `${escapeSrcsetUrl(c.url)} ${c.descriptor}` : escapeSrcsetUrl(c.url),
    )
    .join(', ');
}

/** Visits each candidate; returns the new attribute value, or undefined when nothing changed. */
export function rewriteSrcset(
  value: string,
  base: string,
  sink: RefSink,
  kind: RefKind,
  context: string,
): string | undefined {
  const candidates = parseSrcset(value);
  let changed = false;
  for (const c of candidates) {
    const next = sink.visit(c.url, base, kind, context);
    if (next !== undefined && next !== c.url) {
      c.url = next;
      changed = true;
    }
  }
  return changed ? serializeSrcset(candidates) : undefined;
}
