/**
 * The fidelity check's screenshots within a byte budget per page. A page of noise (an SVG
 * filter, a photo wall) makes PNGs that hardly compress: three pictures at two widths can weigh
 * megabytes. Pictures of a page over its budget are scaled down, the largest first, until they
 * fit; a page that fits keeps its pictures as they are.
 */
import { decodePng, encodePng, scaleToWidth } from './compare.js';
import type { FidelityPageResult, FidelityShots } from './types.js';

const SHOT_KINDS: readonly (keyof FidelityShots)[] = ['original', 'copy', 'diff'];
/** Rounds of scaling one picture down before it is replaced by a blank one. */
const MAX_ROUNDS = 8;

/**
 * The largest share `c` with Σ min(size, c) ≤ budget: every picture up to it stays as it is, the
 * larger ones are brought down to it.
 */
function shareOf(sizes: readonly number[], budget: number): number {
  const sorted = [...sizes].sort((a, b) => a - b);
  let rest = budget;
  for (let k = 0; k < sorted.length; k++) {
    const even = Math.floor(rest / (sorted.length - k));
    if (sorted[k]! > even) return even;
    rest -= sorted[k]!;
  }
  return Infinity;
}

/** A PNG scaled down (both sides alike) until it takes at most `maxBytes`. */
export function shrinkPng(png: Buffer, maxBytes: number): Buffer {
  if (png.length <= maxBytes) return png;
  const picture = decodePng(png);
  let width = picture.width;
  let size = png.length;
  for (let round = 0; round < MAX_ROUNDS && width > 1; round++) {
    // Bytes go with the area: a tenth below the even share makes most pictures fit at once.
    width = Math.max(1, Math.floor(width * Math.min(0.9, Math.sqrt(maxBytes / size) * 0.9)));
    const smaller = encodePng(scaleToWidth(picture, width));
    if (smaller.length <= maxBytes) return smaller;
    size = smaller.length;
  }
  return encodePng({ width: 1, height: 1, data: new Uint8Array(4).fill(255) });
}

/**
 * The pages with each page's pictures (every viewport and kind of the same path together) taking
 * at most `bytesPerPage`.
 */
export function fitShotsToBudget(
  pages: readonly FidelityPageResult[],
  bytesPerPage: number,
): FidelityPageResult[] {
  const out = pages.map((page) => ({ ...page, shots: { ...page.shots } }));
  const byPath = new Map<string, FidelityPageResult[]>();
  for (const page of out) byPath.set(page.path, [...(byPath.get(page.path) ?? []), page]);
  for (const group of byPath.values()) {
    const sizes = group.flatMap((page) => SHOT_KINDS.map((kind) => page.shots[kind].length));
    if (sizes.reduce((a, b) => a + b, 0) <= bytesPerPage) continue;
    const share = shareOf(sizes, bytesPerPage);
    for (const page of group) {
      for (const kind of SHOT_KINDS) page.shots[kind] = shrinkPng(page.shots[kind], share);
    }
  }
  return out;
}
