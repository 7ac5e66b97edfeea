/**
 * Pixel and text comparison of two renders, pure (no browser): which pixels differ, which of them
 * are the original's own noise, the small pictures a person looks at, and how alike two texts are.
 */
import pixelmatch from 'pixelmatch';
import { PNG } from 'pngjs';

/** An RGBA picture, 4 bytes per pixel, rows top to bottom. */
export interface Picture {
  width: number;
  height: number;
  data: Uint8Array;
}

/** One flag per pixel (1: set), over `width` × `height`. */
export interface PixelMap {
  width: number;
  height: number;
  bits: Uint8Array;
}

/** pixelmatch's colour distance: 0.1 ignores what the eye does not see (and anti-aliasing). */
export const PIXEL_THRESHOLD = 0.1;
/**
 * Two renders of one version, in one browser, at one frozen minute, draw a still pixel the same:
 * any change between them is noise, even one the eye would not see. At `PIXEL_THRESHOLD` a banner
 * whose random colour came out close on both renders was not noise, and counted in full as a
 * change against the other version (about one page in fifty).
 */
export const NOISE_THRESHOLD = 0;
/**
 * Noise is kept in square cells of this many pixels, grown by one cell: two renders of a rotating
 * banner differ in most of its pixels, not all (a letter both variants share), and the copy holds
 * a third variant; the cell and its neighbours cover the banner, not just the letters that moved.
 */
export const NOISE_CELL = 8;

export function decodePng(png: Buffer): Picture {
  const image = PNG.sync.read(png);
  return { width: image.width, height: image.height, data: image.data };
}

/** A PNG of the picture, opaque (RGB): one filter for every line, not the best of five. */
export function encodePng(picture: Picture): Buffer {
  const png = new PNG({ width: picture.width, height: picture.height });
  Buffer.from(picture.data.buffer, picture.data.byteOffset, picture.data.byteLength).copy(png.data);
  return PNG.sync.write(png, { colorType: 2, filterType: 4 });
}

/** A white pixel: the picture of a render that could not be made. */
export function blankPng(): Buffer {
  return encodePng({ width: 1, height: 1, data: new Uint8Array(4).fill(255) });
}

/** The top-left `width` × `height` of a picture (a view when nothing is cut). */
function crop(picture: Picture, width: number, height: number): Uint8Array {
  if (picture.width === width && picture.height === height) return picture.data;
  const out = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) {
    const from = y * picture.width * 4;
    out.set(picture.data.subarray(from, from + width * 4), y * width * 4);
  }
  return out;
}

/** Pixels that differ between two pictures, with their count. */
export interface Differing extends PixelMap {
  count: number;
}

/**
 * Pixels that differ between two pictures, over the union of their areas: where only one of them
 * has pixels (a page taller than the other) every pixel differs.
 */
export function differingPixels(a: Picture, b: Picture, threshold = PIXEL_THRESHOLD): Differing {
  const width = Math.max(a.width, b.width);
  const height = Math.max(a.height, b.height);
  const bits = new Uint8Array(width * height).fill(1);
  const w = Math.min(a.width, b.width);
  const h = Math.min(a.height, b.height);
  let count = width * height - w * h;
  if (w > 0 && h > 0) {
    const output = new Uint8Array(w * h * 4);
    count += pixelmatch(crop(a, w, h), crop(b, w, h), output, w, h, {
      threshold,
      diffMask: true,
    });
    for (let y = 0; y < h; y++) {
      const row = y * width;
      const from = y * w * 4 + 3;
      for (let x = 0; x < w; x++) bits[row + x] = output[from + x * 4]! > 0 ? 1 : 0;
    }
  }
  return { width, height, bits, count };
}

/** No pixel differs (a picture compared with itself). */
export function sameEverywhere(picture: Picture): Differing {
  const { width, height } = picture;
  return { width, height, bits: new Uint8Array(width * height), count: 0 };
}

/** A compact noise mask: cells of NOISE_CELL pixels that hold a differing pixel, grown by one cell. */
export interface NoiseMask {
  width: number;
  height: number;
  columns: number;
  rows: number;
  cells: Uint8Array;
}

/** The noise of a page: where two renders of one version differ at all (`NOISE_THRESHOLD`). */
export function noiseMask(first: Picture, second: Picture): NoiseMask {
  const differing = differingPixels(first, second, NOISE_THRESHOLD);
  const columns = Math.ceil(differing.width / NOISE_CELL);
  const rows = Math.ceil(differing.height / NOISE_CELL);
  const hit = new Uint8Array(columns * rows);
  for (let y = 0; y < differing.height; y++) {
    const row = Math.floor(y / NOISE_CELL) * columns;
    const from = y * differing.width;
    for (let x = 0; x < differing.width; x++) {
      if (differing.bits[from + x]) hit[row + Math.floor(x / NOISE_CELL)] = 1;
    }
  }
  const cells = new Uint8Array(columns * rows);
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < columns; c++) {
      if (!hit[r * columns + c]) continue;
      for (let rr = Math.max(0, r - 1); rr <= Math.min(rows - 1, r + 1); rr++) {
        for (let cc = Math.max(0, c - 1); cc <= Math.min(columns - 1, c + 1); cc++) {
          cells[rr * columns + cc] = 1;
        }
      }
    }
  }
  return { width: differing.width, height: differing.height, columns, rows, cells };
}

/** No noise: a page whose second render was not needed or not had. */
export function noNoise(): NoiseMask {
  return { width: 0, height: 0, columns: 0, rows: 0, cells: new Uint8Array(0) };
}

export interface Difference {
  /** Differing pixels that are not noise, in per cent of the pixels that are not noise. */
  diffPercent: number;
  /** Noise pixels in per cent of the compared area. */
  noisePercent: number;
  /** Per pixel of the union of both pictures: 0 same, 1 differs, 2 noise. */
  map: { width: number; height: number; kinds: Uint8Array };
}

/** The copy against the original (`differingPixels(original, copy)`), the original's noise left out. */
export function measureDifference(differing: PixelMap, noise: NoiseMask): Difference {
  const { width, height, bits } = differing;
  const kinds = new Uint8Array(width * height);
  let noisy = 0;
  let differs = 0;
  for (let y = 0; y < height; y++) {
    const from = y * width;
    const maskRow = y < noise.height ? Math.floor(y / NOISE_CELL) * noise.columns : -1;
    for (let x = 0; x < width; x++) {
      const i = from + x;
      if (
        maskRow >= 0 &&
        x < noise.width &&
        noise.cells[maskRow + Math.floor(x / NOISE_CELL)] === 1
      ) {
        kinds[i] = 2;
        noisy++;
      } else if (bits[i]) {
        kinds[i] = 1;
        differs++;
      }
    }
  }
  const total = width * height;
  const measured = total - noisy;
  return {
    diffPercent: measured === 0 ? 0 : (differs / measured) * 100,
    noisePercent: total === 0 ? 0 : (noisy / total) * 100,
    map: { width, height, kinds },
  };
}

/** Pixel boxes of a picture `from` wide and tall that make each pixel of one `to` wide. */
function boxes(from: number, ratio: number, to: number): Int32Array {
  const edges = new Int32Array(to + 1);
  for (let t = 0; t <= to; t++) edges[t] = Math.min(from, Math.floor(t * ratio));
  for (let t = 0; t < to; t++)
    if (edges[t + 1]! <= edges[t]!) edges[t + 1] = Math.min(from, edges[t]! + 1);
  return edges;
}

/** A picture scaled down to `width` (averaging the pixels each target pixel covers). */
export function scaleToWidth(picture: Picture, width: number): Picture {
  if (picture.width <= width) return picture;
  const ratio = picture.width / width;
  const height = Math.max(1, Math.round(picture.height / ratio));
  const xs = boxes(picture.width, ratio, width);
  const ys = boxes(picture.height, ratio, height);
  const data = new Uint8Array(width * height * 4);
  const source = picture.data;
  for (let ty = 0; ty < height; ty++) {
    for (let tx = 0; tx < width; tx++) {
      let r = 0;
      let g = 0;
      let b = 0;
      let a = 0;
      let n = 0;
      for (let y = ys[ty]!; y < ys[ty + 1]!; y++) {
        for (let x = xs[tx]!, p = (y * picture.width + x) * 4; x < xs[tx + 1]!; x++, p += 4) {
          r += source[p]!;
          g += source[p + 1]!;
          b += source[p + 2]!;
          a += source[p + 3]!;
          n++;
        }
      }
      const o = (ty * width + tx) * 4;
      if (n === 0) continue;
      data[o] = Math.round(r / n);
      data[o + 1] = Math.round(g / n);
      data[o + 2] = Math.round(b / n);
      data[o + 3] = Math.round(a / n);
    }
  }
  return { width, height, data };
}

/**
 * The difference as a small picture `width` wide: the copy faded to grey, red where any pixel a
 * target pixel covers differs (so a small loss still shows), blue where most of it is noise.
 */
export function heatmap(copy: Picture, difference: Difference, width: number): Picture {
  const { kinds } = difference.map;
  const full = difference.map.width;
  const ratio = Math.max(1, full / width);
  const outWidth = Math.min(width, full);
  const height = Math.max(1, Math.round(difference.map.height / ratio));
  const xs = boxes(full, ratio, outWidth);
  const ys = boxes(difference.map.height, ratio, height);
  const data = new Uint8Array(outWidth * height * 4);
  for (let ty = 0; ty < height; ty++) {
    for (let tx = 0; tx < outWidth; tx++) {
      let differs = 0;
      let noisy = 0;
      let luma = 0;
      let n = 0;
      for (let y = ys[ty]!; y < ys[ty + 1]!; y++) {
        for (let x = xs[tx]!; x < xs[tx + 1]!; x++) {
          const kind = kinds[y * full + x];
          if (kind === 1) differs++;
          else if (kind === 2) noisy++;
          if (x < copy.width && y < copy.height) {
            const p = (y * copy.width + x) * 4;
            luma += 0.299 * copy.data[p]! + 0.587 * copy.data[p + 1]! + 0.114 * copy.data[p + 2]!;
          } else luma += 255;
          n++;
        }
      }
      const o = (ty * outWidth + tx) * 4;
      data[o + 3] = 255;
      if (differs > 0) {
        data[o] = 230;
        data[o + 1] = 30;
        data[o + 2] = 30;
      } else if (noisy * 2 > n) {
        data[o] = 120;
        data[o + 1] = 160;
        data[o + 2] = 235;
      } else {
        const grey = Math.round(255 - (255 - (n ? luma / n : 255)) * 0.25);
        data[o] = grey;
        data[o + 1] = grey;
        data[o + 2] = grey;
      }
    }
  }
  return { width: outWidth, height, data };
}

/** Words of a visible text, whitespace collapsed, case kept. */
export function wordsOf(text: string): string[] {
  const trimmed = text.replace(/\s+/g, ' ').trim();
  return trimmed === '' ? [] : trimmed.split(' ');
}

/**
 * How alike two visible texts are, 0..1: the Dice coefficient of their words counted with their
 * repeats (2 × shared / total). Order is not weighed: a reflowed column reads the same words, and
 * a missing block or a changed word lowers it. Two empty texts are alike.
 */
export function textSimilarity(a: string, b: string): number {
  const left = wordsOf(a);
  const right = wordsOf(b);
  if (left.length === 0 && right.length === 0) return 1;
  const counts = new Map<string, number>();
  for (const word of left) counts.set(word, (counts.get(word) ?? 0) + 1);
  let shared = 0;
  for (const word of right) {
    const n = counts.get(word) ?? 0;
    if (n > 0) {
      shared++;
      counts.set(word, n - 1);
    }
  }
  return (2 * shared) / (left.length + right.length);
}
