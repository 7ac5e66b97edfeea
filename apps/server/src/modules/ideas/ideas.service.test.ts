import type { ReferenceWebsite } from '@mirror/contract';
import { describe, expect, it } from 'vitest';
import { mergeReferences } from './ideas.service.js';

function ref(url: string, source: ReferenceWebsite['source']): ReferenceWebsite {
  return {
    title: url,
    url,
    screenshot: null,
    screenshotUrl: null,
    frameable: false,
    previewUrl: url,
    description: '',
    category: source === 'catalogue' ? 'cafe' : null,
    source,
  };
}

describe('mergeReferences', () => {
  it('takes catalogue and web results in turns, catalogue first', () => {
    const catalogue = ['https://c1.example', 'https://c2.example'].map((u) => ref(u, 'catalogue'));
    const web = ['https://w1.example', 'https://w2.example'].map((u) => ref(u, 'web'));
    expect(mergeReferences(catalogue, web, 4).map((r) => r.url)).toEqual([
      'https://c1.example',
      'https://w1.example',
      'https://c2.example',
      'https://w2.example',
    ]);
    expect(mergeReferences(catalogue, web, 3)).toHaveLength(3);
  });

  it('skips a site already taken, with or without www', () => {
    const catalogue = [ref('https://www.noma.dk', 'catalogue')];
    const web = [ref('https://noma.dk/reservations', 'web'), ref('https://other.example', 'web')];
    expect(mergeReferences(catalogue, web, 5).map((r) => r.url)).toEqual([
      'https://www.noma.dk',
      'https://other.example',
    ]);
  });

  it('fills from the other list when one runs out', () => {
    const web = ['a', 'b', 'c'].map((h) => ref(`https://${h}.example`, 'web'));
    expect(mergeReferences([], web, 2).map((r) => r.url)).toEqual([
      'https://a.example',
      'https://b.example',
    ]);
    const catalogue = ['a', 'b', 'c'].map((h) => ref(`https://${h}.example`, 'catalogue'));
    expect(mergeReferences(catalogue, [], 5)).toHaveLength(3);
  });
});
