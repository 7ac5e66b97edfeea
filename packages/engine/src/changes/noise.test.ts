import { describe, expect, it } from 'vitest';
import { digestPage } from './page-digest.js';
import { maskVolatile, normalizeLink, normalizePath, tokenize } from './noise.js';
import { diffWords, hunksOf } from './word-diff.js';

describe('what a change report treats as noise', () => {
  it.each([
    ['Updated 2026-11-28T10:48:20Z', 'Updated 2026-11-29T07:01:00+01:00'],
    ['Posted on November 28, 2026', 'Posted on December 1, 2026'],
    ['Saturday, Nov 28th 2026', 'Sunday, Nov 29th 2026'],
    ['28 November 2026', '1 December 2026'],
    ['Last build 28/11/2026 10:48', 'Last build 29/11/2026 9:02 pm'],
    ['3 hours ago', '2 days ago'],
    ['1,234 views', '1,301 views'],
    ['12 people watching', '9 people watching'],
    ['Visitors: 1024', 'Visitors: 2048'],
    ['© 2019–2025 Acme', '© 2019–2026 Acme'],
  ])('%s ~ %s', (a, b) => {
    expect(maskVolatile(a)).toBe(maskVolatile(b));
  });

  it.each([
    ['Pro $7 per month', 'Pro $12 per month'],
    ['Version 2.3 is out', 'Version 2.4 is out'],
    ['Call 555-0100', 'Call 555-0199'],
    ['Sold out', 'In stock'],
    ['Opening hours 9 to 5', 'Opening hours 10 to 6'],
  ])('%s differs from %s', (a, b) => {
    expect(maskVolatile(a)).not.toBe(maskVolatile(b));
  });

  it('reads a page-long table of numbers word by word (no rule backtracks over it)', () => {
    // A hostile or just numeric page: 100,000 numbers in one block, then a word no rule expects.
    const numbers = Array.from({ length: 100_000 }, (_, i) => String(i % 1000)).join(' ');
    expect(tokenize(`${numbers} x`)).toHaveLength(100_001);
    const grouped = '123 456 '.repeat(40_000);
    // A counter is a number of at most five digit groups ("456 123 456 123 456 views").
    expect(tokenize(`${grouped}views`).at(-1)).toEqual({
      text: '456 123 456 123 456 views',
      key: '⟨count⟩',
    });
  });

  it('compares links without tracking parameters, fragments or query order', () => {
    const base = 'https://shop.example/a/';
    const same = [
      'b?x=1&y=2',
      '/a/b?y=2&x=1#top',
      'https://SHOP.example/a/b?utm_source=mail&x=1&fbclid=abc&y=2&gclid=z',
      'b?_ga=2.1&x=1&y=2&mc_eid=9',
    ].map((href) => normalizeLink(href, base));
    expect(new Set(same)).toEqual(new Set(['https://shop.example/a/b?x=1&y=2']));
    expect(normalizeLink('b?x=2&y=2', base)).not.toBe(same[0]);
    expect(normalizeLink('javascript:void(0)', base)).toBeNull();
    expect(normalizeLink('mailto:sales@shop.example', base)).toBe('mailto:sales@shop.example');
    expect(normalizePath('/list?page=2&sort=name&utm_campaign=x')).toBe('/list?page=2&sort=name');
    expect(normalizePath('/list?sort=name&page=2')).toBe('/list?page=2&sort=name');
  });

  it('reads text, not attributes: nonces, hidden tokens, scripts and rotating parts are left out', () => {
    const page = (nonce: string, slide: string) =>
      `<html><head><title>Home</title><meta name="description" content="Tools">
       <script nonce="${nonce}">var t = "${nonce}"</script><style>.a{}</style></head>
       <body data-build="${nonce}"><div class="swiper"><p>${slide}</p></div>
       <div aria-live="polite">${slide}</div><p hidden>${slide}</p>
       <input type="hidden" name="csrf" value="${nonce}"><p>Hello <b>world</b></p>
       <a href="/x?utm_medium=${nonce}">X</a><img src="/hero.png?${nonce ? '' : ''}"></body></html>`;
    const a = digestPage(page('abc123', 'Slide one'), 'https://e.example/');
    const b = digestPage(page('zz9988', 'Slide two'), 'https://e.example/');
    expect(a).toEqual(b);
    expect(a.blocks.map((x) => x.text)).toEqual(['Hello world', 'X']);
    expect(a).toMatchObject({
      title: 'Home',
      meta: { description: 'Tools' },
      links: ['https://e.example/x'],
      media: ['https://e.example/hero.png'],
    });
  });
});

describe('the word diff', () => {
  const words = (text: string) => tokenize(text);

  it('finds the shortest edit script (checked against the longest common subsequence)', () => {
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const lcs = (a: string[], b: string[]) => {
      const t = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
      for (let i = 1; i <= a.length; i++)
        for (let j = 1; j <= b.length; j++)
          t[i]![j] =
            a[i - 1] === b[j - 1] ? t[i - 1]![j - 1]! + 1 : Math.max(t[i - 1]![j]!, t[i]![j - 1]!);
      return t[a.length]![b.length]!;
    };
    for (let round = 0; round < 300; round++) {
      const pick = () =>
        Array.from({ length: Math.floor(random() * 30) }, () => 'abcde'[Math.floor(random() * 5)]!);
      const a = pick();
      const b = pick();
      const edits = diffWords(words(a.join(' ')), words(b.join(' ')));
      const side = (keep: string) =>
        edits.filter((e) => e.op === 'same' || e.op === keep).flatMap((e) => e.words);
      expect(side('removed')).toEqual(a);
      expect(side('added')).toEqual(b);
      const same = edits.filter((e) => e.op === 'same').reduce((n, e) => n + e.words.length, 0);
      expect(same).toBe(lcs(a, b));
    }
  });

  it('stays bounded on texts with nothing in common', () => {
    const a = Array.from({ length: 20_000 }, (_, i) => `a${i}`).join(' ');
    const b = Array.from({ length: 20_000 }, (_, i) => `b${i}`).join(' ');
    const edits = diffWords(words(a), words(b));
    expect(edits.map((e) => [e.op, e.words.length])).toEqual([
      ['removed', 20_000],
      ['added', 20_000],
    ]);
    // A report shows the start of a page rewritten whole, not all of it.
    const [hunk] = hunksOf(edits, 8);
    expect(hunk!.map((part) => [part.op, part.text.split(' ').length])).toEqual([
      ['removed', 81],
      ['added', 81],
    ]);
    expect(hunk![1]!.text.endsWith('b79 …')).toBe(true);
  });

  it('shows each place with a few words around it, and joins places close together', () => {
    const a = 'one two three four five six seven eight nine ten eleven twelve';
    const b = 'one two THREE four five six seven eight nine ten ELEVEN twelve';
    const near = hunksOf(diffWords(words(a), words(b)), 2);
    expect(near).toHaveLength(2);
    expect(near[0]).toEqual([
      { op: 'same', text: 'one two' },
      { op: 'removed', text: 'three' },
      { op: 'added', text: 'THREE' },
      { op: 'same', text: 'four five …' },
    ]);
    const joined = hunksOf(diffWords(words(a), words(b)), 4);
    expect(joined).toHaveLength(1);
  });
});
