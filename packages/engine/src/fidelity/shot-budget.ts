/**
 * The fidelity check's screenshots within a byte budget per page. A page of noise (an SVG
 * filter, a photo wall) makes PNGs that hardly compress: three pictures at two widths can weigh
 * megabytes. Pictures of a page over its budget are scaled down, the largest first, until they
 * fit; a page that fits keeps its pictures as they are.
 */
import { blankPng, decodePng, encodePng, scaleToWidth } from './compare.js';

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
  return blankPng();
}

/** A page's pictures by kind (`FidelityShots`, `VisualDiffShots`). */
type ShotsOf<P> = P extends { shots: infer S } ? S : never;

/**
 * The pages with each page's pictures (every viewport and kind of the same path together) taking
 * at most `bytesPerPage`. Used by the fidelity check and the visual diff of change reports.
 */
export function fitShotsToBudget<P extends { path: string; shots: object }>(
  pages: readonly P[],
  bytesPerPage: number,
): P[] {
  const out = pages.map((page) => ({ ...page, shots: { ...page.shots } as ShotsOf<P> }));
  const pictures = (page: P) => page.shots as Record<string, Buffer>;
  const byPath = new Map<string, P[]>();
  for (const page of out) byPath.set(page.path, [...(byPath.get(page.path) ?? []), page]);
  for (const group of byPath.values()) {
    const sizes = group.flatMap((page) => Object.values(pictures(page)).map((png) => png.length));
    if (sizes.reduce((a, b) => a + b, 0) <= bytesPerPage) continue;
    const share = shareOf(sizes, bytesPerPage);
    for (const page of group) {
      const shots = pictures(page);
      for (const kind of Object.keys(shots)) shots[kind] = shrinkPng(shots[kind]!, share);
    }
  }
  return out;
}
