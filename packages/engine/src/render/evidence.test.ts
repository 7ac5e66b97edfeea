import { describe, expect, it } from 'vitest';
import { describeEvidence, EVIDENCE_THRESHOLDS, showsEvidence } from './evidence.js';
import type { RenderEvidence } from './renderer.js';

const NONE: RenderEvidence = {
  newRequests: [],
  addedText: 0,
  addedImages: 0,
  addedLinks: [],
  shadowRoots: 0,
  insertedStyles: 0,
  drawnCanvases: 0,
  clientRouting: false,
  trackers: [],
};

describe('render evidence', () => {
  it('counts any new request, image, link, shadow root, style or canvas', () => {
    expect(showsEvidence(NONE)).toBe(false);
    for (const change of [
      { newRequests: ['https://example.com/products.json'] },
      { addedImages: 1 },
      { addedLinks: ['https://example.com/next'] },
      { shadowRoots: 1 },
      { insertedStyles: 1 },
      { drawnCanvases: 1 },
    ])
      expect(showsEvidence({ ...NONE, ...change }), JSON.stringify(change)).toBe(true);
  });

  it('takes neither client routing nor trackers for evidence, and says so', () => {
    const routed = { ...NONE, clientRouting: true, trackers: ['Google Analytics', 'Cookiebot'] };
    expect(showsEvidence(routed)).toBe(false);
    expect(describeEvidence(routed)).toBe(
      'made no new request and changed nothing a visitor sees (routes on the client); ' +
        'trackers left out: Google Analytics, Cookiebot',
    );
  });

  it('leaves out a stamp of text: a year, a date, a greeting', () => {
    expect(showsEvidence({ ...NONE, addedText: 4 })).toBe(false);
    expect(showsEvidence({ ...NONE, addedText: EVIDENCE_THRESHOLDS.addedText - 1 })).toBe(false);
    expect(showsEvidence({ ...NONE, addedText: EVIDENCE_THRESHOLDS.addedText })).toBe(true);
  });

  it('says what was found in one line', () => {
    expect(describeEvidence(NONE)).toBe('made no new request and changed nothing a visitor sees');
    const files = ['products.json', 'img/p1.png', 'img/p2.png', 'img/p3.png', 'api/items?page=2'];
    expect(
      describeEvidence({
        ...NONE,
        newRequests: files.map((f) => `https://example.com/${f}`),
        addedText: 1234,
        addedImages: 12,
        clientRouting: true,
      }),
    ).toBe(
      'fetched 5 files the crawl had not found (products.json, p1.png, p2.png, …); ' +
        'added 1,234 characters of text; added 12 images; routes on the client',
    );
    expect(
      describeEvidence({ ...NONE, newRequests: ['https://example.com/api/items?page=2'] }),
    ).toBe('fetched 1 file the crawl had not found (items?page=2)');
  });
});
