import { describe, expect, it } from 'vitest';
import {
  decodePng,
  differingPixels,
  encodePng,
  heatmap,
  measureDifference,
  noiseMask,
  noNoise,
  scaleToWidth,
  textSimilarity,
  type NoiseMask,
  type Picture,
} from './compare.js';
import { belowThreshold, fidelityScore } from './verdict.js';

type Rect = { x: number; y: number; w: number; h: number; rgb: [number, number, number] };

/** A white picture with coloured rectangles. */
function draw(width: number, height: number, rects: Rect[] = []): Picture {
  const data = new Uint8Array(width * height * 4).fill(255);
  for (const r of rects) {
    for (let y = r.y; y < r.y + r.h; y++)
      for (let x = r.x; x < r.x + r.w; x++) data.set([...r.rgb, 255], (y * width + x) * 4);
  }
  return { width, height, data };
}

const compare = (original: Picture, copy: Picture, noise: NoiseMask = noNoise()) =>
  measureDifference(differingPixels(original, copy), noise);

describe('measureDifference', () => {
  it('finds nothing between two equal renders', () => {
    const page = draw(200, 100, [{ x: 10, y: 10, w: 50, h: 20, rgb: [20, 20, 200] }]);
    const result = compare(
      page,
      draw(200, 100, [{ x: 10, y: 10, w: 50, h: 20, rgb: [20, 20, 200] }]),
    );
    expect(result.diffPercent).toBe(0);
    expect(result.noisePercent).toBe(0);
  });

  it('counts a missing picture in the copy', () => {
    const original = draw(200, 100, [{ x: 0, y: 0, w: 100, h: 50, rgb: [200, 40, 40] }]);
    const copy = draw(200, 100);
    expect(compare(original, copy).diffPercent).toBeCloseTo(25, 5);
  });

  it('counts height only one of them has as different, even where it is blank', () => {
    const original = draw(100, 100);
    const copy = draw(100, 80);
    expect(compare(original, copy).diffPercent).toBeCloseTo(20, 5);
  });

  it('leaves out what differs between two renders of the original (a rotating banner)', () => {
    const banner = (rgb: [number, number, number]) =>
      draw(400, 300, [
        { x: 0, y: 0, w: 400, h: 60, rgb },
        { x: 20, y: 100, w: 200, h: 30, rgb: [0, 0, 0] },
      ]);
    const first = banner([200, 30, 30]);
    const second = banner([30, 160, 30]);
    const copyWithThirdVariant = banner([30, 30, 200]);
    const result = compare(first, copyWithThirdVariant, noiseMask(first, second));
    expect(result.diffPercent).toBe(0);
    // The banner (60 of 300 rows) in 8-pixel cells (64 rows), grown by one cell below (72).
    expect(result.noisePercent).toBeCloseTo((72 / 300) * 100, 5);

    // Outside the noise the copy is still held to the original.
    const copyMissingText = draw(400, 300, [{ x: 0, y: 0, w: 400, h: 60, rgb: [30, 30, 200] }]);
    const missing = compare(first, copyMissingText, noiseMask(first, second));
    expect(missing.diffPercent).toBeCloseTo(((200 * 30) / (400 * (300 - 72))) * 100, 5);
  });

  it('takes a banner whose random colour came out nearly alike on both renders as noise', () => {
    const banner = (rgb: [number, number, number]) =>
      draw(400, 300, [{ x: 0, y: 0, w: 400, h: 60, rgb }]);
    // Two shades the eye cannot tell apart (under PIXEL_THRESHOLD), and a third the copy drew.
    const first = banner([120, 80, 200]);
    const second = banner([122, 81, 199]);
    expect(differingPixels(first, second).count).toBe(0);
    const result = compare(first, banner([10, 200, 40]), noiseMask(first, second));
    expect(result.diffPercent).toBe(0);
    expect(result.noisePercent).toBeCloseTo((72 / 300) * 100, 5);
  });

  it('takes nothing as noise where two renders drew the same', () => {
    const page = draw(200, 100, [{ x: 10, y: 10, w: 50, h: 20, rgb: [20, 20, 200] }]);
    const mask = noiseMask(
      page,
      draw(200, 100, [{ x: 10, y: 10, w: 50, h: 20, rgb: [20, 20, 200] }]),
    );
    expect(mask.cells.every((cell) => cell === 0)).toBe(true);
  });
});

describe('pictures', () => {
  it('scales a screenshot down to a small PNG of the same proportions', () => {
    const big = draw(1280, 800, [{ x: 0, y: 0, w: 640, h: 800, rgb: [0, 0, 0] }]);
    const small = decodePng(encodePng(scaleToWidth(big, 320)));
    expect([small.width, small.height]).toEqual([320, 200]);
    expect([...small.data.subarray(0, 4)]).toEqual([0, 0, 0, 255]);
    expect([...small.data.subarray(319 * 4, 320 * 4)]).toEqual([255, 255, 255, 255]);
  });

  it('marks even a small loss red on the small heatmap, and noise blue', () => {
    const original = draw(1280, 800, [
      { x: 0, y: 0, w: 1280, h: 100, rgb: [200, 30, 30] },
      { x: 600, y: 400, w: 3, h: 3, rgb: [0, 0, 0] },
    ]);
    const second = draw(1280, 800, [
      { x: 0, y: 0, w: 1280, h: 100, rgb: [30, 200, 30] },
      { x: 600, y: 400, w: 3, h: 3, rgb: [0, 0, 0] },
    ]);
    const copy = draw(1280, 800, [{ x: 0, y: 0, w: 1280, h: 100, rgb: [30, 30, 200] }]);
    const map = heatmap(copy, compare(original, copy, noiseMask(original, second)), 320);
    const at = (x: number, y: number) => [
      ...map.data.subarray((y * 320 + x) * 4, (y * 320 + x) * 4 + 3),
    ];
    expect([map.width, map.height]).toEqual([320, 200]);
    expect(at(150, 100)).toEqual([230, 30, 30]); // the 3×3 dot the copy lacks
    expect(at(10, 10)).toEqual([120, 160, 235]); // the banner: noise
    expect(at(10, 150)).toEqual([255, 255, 255]); // the same in both: the copy, faded
  });
});

describe('textSimilarity', () => {
  it('reads the same words as the same text, however they are spaced', () => {
    expect(textSimilarity('Welcome  to\nthe shop', ' Welcome to the shop ')).toBe(1);
  });

  it('drops with every word the copy lacks or changes', () => {
    const original = 'Opening hours Monday to Friday nine to five';
    expect(textSimilarity(original, 'Opening hours')).toBeCloseTo((2 * 2) / (8 + 2), 5);
    expect(textSimilarity(original, original.replace('five', 'six'))).toBeCloseTo(14 / 16, 5);
    expect(textSimilarity('', '')).toBe(1);
  });
});

describe('verdict', () => {
  const faithful = { diffPercent: 0.2, failedRequests: [], externalRequests: [], scriptErrors: [] };

  it('holds a page below the threshold for pixels, new failed requests, external ones or script errors', () => {
    expect(belowThreshold(faithful)).toEqual([]);
    expect(belowThreshold({ ...faithful, diffPercent: 1.5 })).toEqual(['pixels']);
    const failed = (inOriginal: boolean) => [{ url: '/x.png', reason: 'HTTP 404', inOriginal }];
    // A file that fails on the original too is no fault of the copy.
    expect(belowThreshold({ ...faithful, failedRequests: failed(true) })).toEqual([]);
    expect(belowThreshold({ ...faithful, failedRequests: failed(false) })).toEqual([
      'failed-requests',
    ]);
    expect(belowThreshold({ ...faithful, externalRequests: ['https://cdn.test/a.js'] })).toEqual([
      'external-requests',
    ]);
    expect(
      belowThreshold({
        ...faithful,
        scriptErrors: ["TypeError: Cannot read properties of undefined (reading 'title')"],
      }),
    ).toEqual(['script-errors']);
    // Every reason, in the order the contract lists them.
    expect(
      belowThreshold({
        diffPercent: 4,
        failedRequests: failed(false),
        externalRequests: ['https://cdn.test/a.js'],
        scriptErrors: ['Error: boom'],
      }),
    ).toEqual(['pixels', 'failed-requests', 'external-requests', 'script-errors']);
  });

  it('scores 99 or more only when every page is faithful', () => {
    const page = (diffPercent: number, reasons: ReturnType<typeof belowThreshold> = []) => ({
      diffPercent,
      reasons,
      belowThreshold: reasons.length > 0,
    });
    const many = Array.from({ length: 40 }, () => page(0));
    expect(fidelityScore(many)).toBe(100);
    // One page out of 41 lost an image that barely shows: the copy is still not faithful.
    expect(fidelityScore([...many, page(0.3, ['failed-requests'])])).toBe(98.9);
    expect(fidelityScore([page(0.5), page(3, ['pixels'])])).toBe(98.2);
    // Issue 31: a page that looks the same but still loads a file from another site is listed
    // apart; it does not cap the score. With anything else wrong, it still does.
    expect(fidelityScore([...many, page(0, ['external-requests'])])).toBe(100);
    expect(fidelityScore([...many, page(0.3, ['failed-requests', 'external-requests'])])).toBe(
      98.9,
    );
    expect(fidelityScore([page(0), { ...page(0), unmeasured: 'the site did not answer' }])).toBe(
      100,
    );
  });
});
