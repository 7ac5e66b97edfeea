import { describe, expect, it } from 'vitest';
import { cssCharsetRewrite, processCss } from './css.js';
import type { RefVisitor } from './types.js';

const SHEET = 'https://example.com/css/site.css';
const keep: RefVisitor = () => undefined;
const toCopy: RefVisitor = (ref) => `/copy${new URL(ref.url).pathname}`;
const found = (css: string) =>
  processCss(css, SHEET, keep).refs.map((r) => [r.url, r.kind, r.context]);

describe('processCss discovery', () => {
  const cases: [string, string, [string, string, string][]][] = [
    [
      'unquoted url()',
      'a{background:url(img/a.png)}',
      [['https://example.com/css/img/a.png', 'image', 'css url()']],
    ],
    [
      'double-quoted url()',
      'a{background:url("/a.png")}',
      [['https://example.com/a.png', 'image', 'css url()']],
    ],
    [
      'single-quoted url() with spaces',
      "a{background:url( '../b.png' )}",
      [['https://example.com/b.png', 'image', 'css url()']],
    ],
    [
      'uppercase URL()',
      'a{background:URL(c.png)}',
      [['https://example.com/css/c.png', 'image', 'css url()']],
    ],
    [
      'escaped characters',
      'a{background:url(a\\(1\\).png)}',
      [['https://example.com/css/a(1).png', 'image', 'css url()']],
    ],
    [
      '@import string',
      '@import "reset.css";',
      [['https://example.com/css/reset.css', 'stylesheet', 'css @import']],
    ],
    [
      '@import single-quoted',
      "@import 'reset.css' screen;",
      [['https://example.com/css/reset.css', 'stylesheet', 'css @import']],
    ],
    [
      '@import url()',
      '@import url(theme.css) layer(base) supports(display:grid) screen;',
      [['https://example.com/css/theme.css', 'stylesheet', 'css @import']],
    ],
    [
      '@import url("")',
      '@import url("/t.css");',
      [['https://example.com/t.css', 'stylesheet', 'css @import']],
    ],
    [
      'image-set with strings and url()',
      'a{background-image:image-set("a.png" 1x, url(b.png) 2x);b:-webkit-image-set("c.png" 1x)}',
      [
        ['https://example.com/css/a.png', 'image', 'css image-set()'],
        ['https://example.com/css/b.png', 'image', 'css image-set()'],
        ['https://example.com/css/c.png', 'image', 'css image-set()'],
      ],
    ],
    [
      '@font-face src',
      '@font-face{font-family:X;src:url(f.eot);src:local("X"),url(f.woff2) format("woff2"),url("f.woff") format("woff")}',
      [
        ['https://example.com/css/f.eot', 'font', 'css @font-face src'],
        ['https://example.com/css/f.woff2', 'font', 'css @font-face src'],
        ['https://example.com/css/f.woff', 'font', 'css @font-face src'],
      ],
    ],
    [
      'cursor, mask, filter, behavior',
      'a{cursor:url(c.cur),auto;mask:url(m.svg#m);filter:url(f.svg#f);behavior:url(pie.htc)}',
      [
        ['https://example.com/css/c.cur', 'image', 'css url()'],
        ['https://example.com/css/m.svg', 'image', 'css url()'],
        ['https://example.com/css/f.svg', 'asset', 'css url()'],
        ['https://example.com/css/pie.htc', 'asset', 'css url()'],
      ],
    ],
    [
      'fragment-only and data: skipped',
      'a{fill:url(#g);background:url(data:image/png;base64,AAA=);b:url("data:x")}',
      [],
    ],
    [
      '@namespace is not fetched',
      '@namespace svg url(http://www.w3.org/2000/svg); a{b:url(x.png)}',
      [['https://example.com/css/x.png', 'image', 'css url()']],
    ],
    [
      'nested at-rules',
      '@media (min-width:1px){@supports (display:grid){.a{background:url(n.png)}}}',
      [['https://example.com/css/n.png', 'image', 'css url()']],
    ],
    ['strings outside image-set are not URLs', 'a::after{content:"x.png"}', []],
  ];
  it.each(cases)('%s', (_name, css, expected) => {
    expect(found(css)).toEqual(expected);
  });
});

describe('processCss rewriting', () => {
  const cases: [string, string, string][] = [
    ['unquoted', 'a{b:url(x.png)}', 'a{b:url(/copy/css/x.png)}'],
    ['double quoted kept', 'a{b:url("x.png")}', 'a{b:url("/copy/css/x.png")}'],
    ['single quoted kept', "a{b:url('x.png')}", "a{b:url('/copy/css/x.png')}"],
    ['@import string', '@import "a.css" screen;', '@import "/copy/css/a.css" screen;'],
    ['@import url', '@import url(a.css);', '@import url(/copy/css/a.css);'],
    [
      'image-set strings',
      'a{b:image-set("a.png" 1x,"b.png" 2x)}',
      'a{b:image-set("/copy/css/a.png" 1x,"/copy/css/b.png" 2x)}',
    ],
    ['fragment kept', 'a{filter:url(f.svg#blur)}', 'a{filter:url(/copy/css/f.svg#blur)}'],
    [
      'comments and hacks preserved',
      '/*! license */\na{*zoom:1;_height:1px;background:url(a.png) no-repeat\\9}/* end */',
      '/*! license */\na{*zoom:1;_height:1px;background:url(/copy/css/a.png) no-repeat\\9}/* end */',
    ],
  ];
  it.each(cases)('%s', (_name, css, expected) => {
    expect(processCss(css, SHEET, toCopy).css).toBe(expected);
  });

  it('quotes replacements that need it', () => {
    expect(processCss('a{b:url(x.png)}', SHEET, () => '/a b(1).png').css).toBe(
      'a{b:url("/a b(1).png")}',
    );
    expect(processCss('a{b:url("x.png")}', SHEET, () => '/a"b.png').css).toBe(
      'a{b:url("/a\\"b.png")}',
    );
  });

  it('returns the identical string when nothing is replaced', () => {
    const css = '@import "a.css";a{b:url(x.png)}';
    expect(processCss(css, SHEET, keep).css).toBe(css);
    expect(processCss(css, SHEET, (r) => r.raw).css).toBe(css);
  });

  const broken = [
    'a{background:url(x.png',
    'a{b:url("x.png',
    'a{{{{}}}}}} url( ) @import;',
    '@import',
    'a{b:url(x y.png)}',
    '"unterminated\n a{b:c}',
    '}}}a{b:url(ok.png)}',
    '@media {{ a{b:url(x.png)} ',
    '/* unterminated comment a{b:url(x.png)}',
    'a{b:url(\\',
    '<!-- a{b:url(x.png)} -->',
    '\u0000\uFFFF\uD800 a{b:url(\u0000)}',
  ];
  it.each(broken)('never throws on broken CSS and keeps it byte-for-byte: %j', (css) => {
    const r = processCss(css, SHEET, keep);
    expect(r.css).toBe(css);
    expect(() => processCss(css, SHEET, toCopy)).not.toThrow();
  });

  it('still rewrites in broken CSS after recovery', () => {
    expect(processCss('}}}a{b:url(ok.png)}', SHEET, toCopy).css).toBe(
      '}}}a{b:url(/copy/css/ok.png)}',
    );
    expect(processCss('a{b:url(x.png', SHEET, toCopy).css).toBe('a{b:url(/copy/css/x.png)');
  });

  it('rewrites @charset to utf-8', () => {
    expect(cssCharsetRewrite('@charset "windows-1251";\na{}')).toBe('@charset "utf-8";\na{}');
    expect(cssCharsetRewrite('a{}')).toBe('a{}');
  });
});
