import { describe, expect, it } from 'vitest';
import { parseSrcset, serializeSrcset } from './srcset.js';

describe('srcset', () => {
  const cases: [string, { url: string; descriptor: string }[]][] = [
    ['a.png', [{ url: 'a.png', descriptor: '' }]],
    [
      'a.png 1x, b.png 2x',
      [
        { url: 'a.png', descriptor: '1x' },
        { url: 'b.png', descriptor: '2x' },
      ],
    ],
    [
      '  a.png   100w ,\n b.png\t200w  ',
      [
        { url: 'a.png', descriptor: '100w' },
        { url: 'b.png', descriptor: '200w' },
      ],
    ],
    [
      'https://x.com/c_fill,w_100/a.jpg 100w,https://x.com/c_fill,w_200/a.jpg 200w',
      [
        { url: 'https://x.com/c_fill,w_100/a.jpg', descriptor: '100w' },
        { url: 'https://x.com/c_fill,w_200/a.jpg', descriptor: '200w' },
      ],
    ],
    ['a.png,b.png', [{ url: 'a.png,b.png', descriptor: '' }]],
    [
      'a.png, b.png',
      [
        { url: 'a.png', descriptor: '' },
        { url: 'b.png', descriptor: '' },
      ],
    ],
    [
      'a.png 100w 2x, b.png',
      [
        { url: 'a.png', descriptor: '100w 2x' },
        { url: 'b.png', descriptor: '' },
      ],
    ],
    [
      'a.png (fn 1, 2) 1x, b.png 2x',
      [
        { url: 'a.png', descriptor: '(fn 1, 2) 1x' },
        { url: 'b.png', descriptor: '2x' },
      ],
    ],
    ['', []],
    [' , , ', []],
  ];
  it.each(cases)('parses %j', (value, expected) => {
    expect(parseSrcset(value)).toEqual(expected);
  });

  it('serializes and round-trips', () => {
    const c = [
      { url: '/a,b.png', descriptor: '1x' },
      { url: '/c d.png', descriptor: '2x' },
      { url: '/e.png', descriptor: '' },
    ];
    const s = serializeSrcset(c);
    expect(s).toBe('/a,b.png 1x, /c%20d.png 2x, /e.png');
    expect(parseSrcset(s)).toEqual([c[0], { url: '/c%20d.png', descriptor: '2x' }, c[2]]);
  });
});
