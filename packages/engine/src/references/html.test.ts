import { parseFragment } from 'parse5';
import { describe, expect, it } from 'vitest';
import { htmlCharsetRewrite, processHtml } from './html.js';
import type { Ref, RefVisitor } from './types.js';

const PAGE = 'https://example.com/dir/page.html';
const keep: RefVisitor = () => undefined;
/** Maps every reference to `/copy<path><query>`. */
const toCopy: RefVisitor = (ref) => {
  const u = new URL(ref.url);
  return `/copy${u.pathname}${u.search}`;
};
/** The references found, each as `url kind context` (the page's origin left out of the URL). */
const found = (html: string, url = PAGE) =>
  processHtml(html, url, keep).refs.map(
    (r: Ref) => `${r.url.replace(/^https:\/\/example\.com\//, '/')} ${r.kind} ${r.context}`,
  );

describe('processHtml discovery', () => {
  const cases: [string, string, string[]][] = [
    ['img src', '<img src="a.png">', ['/dir/a.png image img[src]']],
    [
      'img srcset',
      '<img srcset="a.png 1x, /b.png 2x">',
      ['/dir/a.png image img[srcset]', '/b.png image img[srcset]'],
    ],
    [
      'picture source',
      '<picture><source srcset="a.webp" type="image/webp"><img src="a.jpg"></picture>',
      ['/dir/a.webp image source[srcset]', '/dir/a.jpg image img[src]'],
    ],
    ['script', '<script src="/app.js"></script>', ['/app.js script script[src]']],
    ['module script', '<script type="module" src="/m.js"></script>', ['/m.js module script[src]']],
    ['iframe', '<iframe src="/f.html"></iframe>', ['/f.html frame iframe[src]']],
    ['frame', '<frameset><frame src="left.html"></frameset>', ['/dir/left.html frame frame[src]']],
    ['embed', '<embed src="x.swf">', ['/dir/x.swf asset embed[src]']],
    ['object', '<object data="x.svg"></object>', ['/dir/x.svg asset object[data]']],
    [
      'video + sources + track + poster',
      '<video src="v.mp4" poster="p.jpg"><source src="v.webm"><track src="c.vtt"></video>',
      [
        '/dir/v.mp4 media video[src]',
        '/dir/p.jpg image video[poster]',
        '/dir/v.webm media source[src]',
        '/dir/c.vtt media track[src]',
      ],
    ],
    ['audio', '<audio src="a.mp3"></audio>', ['/dir/a.mp3 media audio[src]']],
    [
      'input type=image',
      '<input type="image" src="go.png"><input type="text" src="no.png">',
      ['/dir/go.png image input[src]'],
    ],
    [
      'lazy-load attributes',
      '<img data-src="l1.jpg" data-srcset="l2.jpg 1x, l3.jpg 2x" data-lazy-src="l4.jpg" data-original="l5.jpg">' +
        '<div data-bg="bg1.jpg" data-background="url(bg2.jpg)" data-bg-src="bg3.jpg" data-image="i.jpg"></div>' +
        '<video data-poster="vp.jpg" data-src="v.mp4"></video><iframe data-src="/embed"></iframe>',
      [
        '/dir/l1.jpg image img[data-src]',
        '/dir/l2.jpg image img[data-srcset]',
        '/dir/l3.jpg image img[data-srcset]',
        '/dir/l4.jpg image img[data-lazy-src]',
        '/dir/l5.jpg image img[data-original]',
        '/dir/bg1.jpg image div[data-bg]',
        '/dir/bg2.jpg image div[data-background] css url()',
        '/dir/bg3.jpg image div[data-bg-src]',
        '/dir/i.jpg image div[data-image]',
        '/dir/vp.jpg image video[data-poster]',
        '/dir/v.mp4 media video[data-src]',
        '/embed frame iframe[data-src]',
      ],
    ],
    [
      'other data-* holding an image URL',
      '<a data-zoom="https://cdn.example.net/z.jpg?w=2" data-id="42" data-title="a.png is nice">z</a>',
      ['https://cdn.example.net/z.jpg?w=2 image a[data-zoom]'],
    ],
    [
      'link rels',
      '<link rel="icon" href="/favicon.ico"><link rel="shortcut icon" href="/s.ico">' +
        '<link rel="apple-touch-icon" href="/t.png"><link rel="mask-icon" href="/m.svg">' +
        '<link rel="manifest" href="/site.webmanifest"><link rel="stylesheet" href="s.css">' +
        '<link rel="modulepreload" href="/mp.js"><link rel="preload" as="font" href="/f.woff2">' +
        '<link rel="preload" as="style" href="/p.css"><link rel="preload" as="script" href="/p.js">' +
        '<link rel="prefetch" href="/pf.bin"><link rel="preconnect" href="https://fonts.gstatic.com">' +
        '<link rel="dns-prefetch" href="//x.com"><link rel="canonical" href="/canon">',
      [
        '/favicon.ico image link[rel=icon]',
        '/s.ico image link[rel=shortcut icon]',
        '/t.png image link[rel=apple-touch-icon]',
        '/m.svg image link[rel=mask-icon]',
        '/site.webmanifest manifest link[rel=manifest]',
        '/dir/s.css stylesheet link[rel=stylesheet]',
        '/mp.js module link[rel=modulepreload]',
        '/f.woff2 font link[rel=preload]',
        '/p.css stylesheet link[rel=preload]',
        '/p.js script link[rel=preload]',
        '/pf.bin asset link[rel=prefetch]',
        '/canon page link[rel=canonical]',
      ],
    ],
    [
      'link preload imagesrcset',
      '<link rel="preload" as="image" href="h.jpg" imagesrcset="h1.jpg 1x, h2.jpg 2x">',
      [
        '/dir/h.jpg image link[rel=preload]',
        '/dir/h1.jpg image link[imagesrcset]',
        '/dir/h2.jpg image link[imagesrcset]',
      ],
    ],
    [
      'anchors, areas, forms',
      '<a href="/about?x=1#team">a</a><map><area href="zone.html"></map><form action="/search"></form>' +
        '<button formaction="/alt">b</button>',
      [
        '/about?x=1 page a[href]',
        '/dir/zone.html page area[href]',
        '/search page form[action]',
        '/alt page button[formaction]',
      ],
    ],
    [
      'skipped schemes and fragments',
      '<a href="mailto:a@b.c">m</a><a href="tel:+1">t</a><a href="javascript:void(0)">j</a>' +
        '<a href="#top">f</a><a href="">e</a><img src="data:image/png;base64,AAAA">' +
        '<img src="blob:https://example.com/x"><iframe src="about:blank"></iframe><a href="sms:1">s</a>',
      [],
    ],
    [
      'whitespace trimmed, entities decoded',
      '<a href="  /x?a=1&amp;b=2  ">x</a><img src="\n\t/i.png ">',
      ['/x?a=1&b=2 page a[href]', '/i.png image img[src]'],
    ],
    [
      'meta refresh',
      '<meta http-equiv="Refresh" content="0; url=/moved">',
      ['/moved page meta[http-equiv=refresh]'],
    ],
    [
      'og and twitter images',
      '<meta property="og:image" content="https://cdn.example.com/og.png">' +
        '<meta property="og:image:secure_url" content="/og2.png">' +
        '<meta name="twitter:image" content="/tw.png"><meta property="og:video" content="/v.mp4">' +
        '<meta property="og:title" content="/not-a-url.png">',
      [
        'https://cdn.example.com/og.png image meta[property=og:image]',
        '/og2.png image meta[property=og:image:secure_url]',
        '/tw.png image meta[name=twitter:image]',
        '/v.mp4 media meta[property=og:video]',
      ],
    ],
    [
      'style block and style attribute',
      '<style>@import "base.css"; .a { background: url(bg.png) }</style><p style="background-image:url(\'/p.png\')">',
      [
        '/dir/base.css stylesheet style css @import',
        '/dir/bg.png image style css url()',
        '/p.png image [style] css url()',
      ],
    ],
    [
      'svg image, use, feImage, a, style',
      '<svg><image href="s.png"/><image xlink:href="s2.png"/><use href="sprite.svg#i"/><use href="#local"/>' +
        '<filter><feImage href="fe.png"/></filter><a xlink:href="/svg-link">l</a>' +
        '<style>.x{fill:url(pat.svg#p)}</style><rect fill="url(#grad)" filter="url(f.svg#blur)"/></svg>',
      [
        '/dir/s.png image image[href]',
        '/dir/s2.png image image[xlink:href]',
        '/dir/sprite.svg asset use[href]',
        '/dir/fe.png image feImage[href]',
        '/svg-link page a[xlink:href]',
        '/dir/pat.svg image svg style css url()',
        '/dir/f.svg image rect[filter] css url()',
      ],
    ],
    [
      'import map',
      '<script type="importmap">{"imports":{"vue":"/lib/vue.js","lodash/":"https://cdn.example.net/lodash/"},' +
        '"scopes":{"/a/":{"x":"./x.js"}}}</script>',
      [
        '/lib/vue.js module script[type=importmap]',
        'https://cdn.example.net/lodash/ module script[type=importmap]',
        '/dir/x.js module script[type=importmap]',
      ],
    ],
    [
      'noscript content',
      '<noscript><img src="/pixel.gif"><link rel="stylesheet" href="ns.css"></noscript>',
      [
        '/pixel.gif image noscript img[src]',
        '/dir/ns.css stylesheet noscript link[rel=stylesheet]',
      ],
    ],
    [
      'noscript in head',
      '<head><noscript><style>.x{background:url(h.png)}</style></noscript></head>',
      ['/dir/h.png image noscript style css url()'],
    ],
    ['template content', '<template><img src="t.png"></template>', ['/dir/t.png image img[src]']],
    [
      'iframe srcdoc',
      '<iframe srcdoc="<img src=&quot;in.png&quot;>"></iframe>',
      ['/dir/in.png image iframe[srcdoc] img[src]'],
    ],
    [
      'legacy background attribute',
      '<body background="/bg.gif"><table background="t.gif"><tr><td background="td.gif">x</td></tr></table></body>',
      [
        '/bg.gif image body[background]',
        '/dir/t.gif image table[background]',
        '/dir/td.gif image td[background]',
      ],
    ],
    [
      'protocol-relative and foreign',
      '<script src="//cdn.example.net/lib.js"></script>',
      ['https://cdn.example.net/lib.js script script[src]'],
    ],
    [
      'feeds and alternates',
      '<link rel="alternate" type="application/rss+xml" href="/feed"><link rel="alternate" hreflang="fr" href="/fr/">',
      ['/feed asset link[rel=alternate]', '/fr/ page link[rel=alternate]'],
    ],
    [
      'lazysizes data-bgset',
      '<div data-bgset="a.jpg 1x, a2.jpg 2x | b.jpg"></div>',
      [
        '/dir/a.jpg image div[data-bgset]',
        '/dir/a2.jpg image div[data-bgset]',
        '/dir/b.jpg image div[data-bgset]',
      ],
    ],
    [
      'the text of a script with a src attribute is not run or read',
      '<script src="">import("/never.js")</script>',
      [],
    ],
  ];
  it.each(cases)('%s', (_name, html, expected) => {
    expect(found(html)).toEqual(expected);
  });

  it('resolves against <base href> and exposes it', () => {
    const html =
      '<head><base href="https://static.example.org/v2/"></head><img src="a.png"><a href="/b">b</a>';
    const r = processHtml(html, PAGE, keep);
    expect(r.hasBase).toBe(true);
    expect(r.refs.map((x) => [x.url, x.context])).toEqual([
      ['https://static.example.org/v2/', 'base'],
      ['https://static.example.org/v2/a.png', 'img[src]'],
      ['https://static.example.org/b', 'a[href]'],
    ]);
  });

  it('a relative <base href> resolves against the document; base later in the tree still applies', () => {
    const r = processHtml('<img src="a.png"><base href="../up/">', PAGE, keep);
    expect(r.refs.map((x) => x.url)).toEqual([
      'https://example.com/up/a.png',
      'https://example.com/up/',
    ]);
    expect(processHtml('<img src="a.png">', PAGE, keep).hasBase).toBe(false);
  });

  it('reports title, charset, text length and render hints', () => {
    const r = processHtml(
      '<html><head><meta charset="ISO-8859-1"><title>  Hello\n  world </title>' +
        '<script>var a</script><script type="application/ld+json">{}</script><script type="module" src="m.js"></script>' +
        '</head><body><div id="root"> <!-- app --> </div>' +
        '<noscript>You need to enable JavaScript to run this app.</noscript><p>abc  def</p></body></html>',
      PAGE,
      keep,
    );
    expect(r.title).toBe('Hello world');
    expect(r.charset).toBe('windows-1252');
    expect(r.renderHints).toEqual({
      emptyAppRoot: true,
      noscriptAsksForJs: true,
      scriptCount: 2,
      scriptSources: [new URL('m.js', PAGE).href],
      inlineScriptAbilities: [],
      inlineLoaders: [],
    });
  });

  it('says what inline scripts together could do', () => {
    const builds = processHtml(
      '<script>document.body.append("hi")</script><script src="/a.js#x"></script>' +
        '<script>fetch("/data.json")</script><script>window.__DATA__ = {"id": 7}</script>',
      PAGE,
      keep,
    ).renderHints;
    expect(builds.inlineScriptAbilities).toEqual(['requests', 'visual']);
    expect(builds.scriptSources).toEqual([new URL('/a.js', PAGE).href]);
    const inert = processHtml('<script>window.flag = 1</script>', PAGE, keep).renderHints;
    expect(inert.inlineScriptAbilities).toEqual([]);
  });

  it('keeps short loader snippets apart, with the address they load', () => {
    // Google Tag Manager's snippet, as sites paste it.
    const gtm = `(function(w,d,s,l,i){w[l]=w[l]||[];w[l].push({'gtm.start':new Date().getTime(),event:'gtm.js'});var f=d.getElementsByTagName(s)[0],j=d.createElement(s),dl=l!='dataLayer'?'&l='+l:'';j.async=true;j.src='https://www.googletagmanager.com/gtm.js?id='+i+dl;f.parentNode.insertBefore(j,f);})(window,document,'script','dataLayer','GTM-XXXX');`;
    const hints = processHtml(
      `<script>${gtm}</script><script>document.body.append("hi")</script>`,
      PAGE,
      keep,
    ).renderHints;
    expect(hints.inlineLoaders).toEqual([
      {
        url: 'https://www.googletagmanager.com/gtm.js?id=',
        abilities: ['requests', 'visual'],
      },
    ]);
    expect(hints.inlineScriptAbilities).toEqual(['visual']);
    // A long script is the site's own code, whatever address it names.
    const long = `fetch('https://api.example.com/items'); ${'// padding\n'.repeat(500)}`;
    const app = processHtml(`<script>${long}</script>`, PAGE, keep).renderHints;
    expect(app.inlineLoaders).toEqual([]);
    expect(app.inlineScriptAbilities).toEqual(['requests']);
  });

  it('server-rendered app roots are not empty', () => {
    const r = processHtml(
      '<div id="__next"><main>Content</main></div><noscript><img src="p.gif"></noscript>',
      PAGE,
      keep,
    );
    expect(r.renderHints).toEqual({
      emptyAppRoot: false,
      noscriptAsksForJs: false,
      scriptCount: 0,
      scriptSources: [],
      inlineScriptAbilities: [],
      inlineLoaders: [],
    });
    expect(processHtml('<div data-reactroot></div>', PAGE, keep).renderHints.emptyAppRoot).toBe(
      true,
    );
  });
});

describe('processHtml rewriting', () => {
  const rewrite = (html: string, visit: RefVisitor = toCopy, url = PAGE) =>
    processHtml(html, url, visit).html;

  const cases: [string, string, string][] = [
    ['img src', '<img src="a.png" alt="x">', '<img src="/copy/dir/a.png" alt="x">'],
    ['unquoted becomes quoted', '<img src=a.png alt=x>', '<img src="/copy/dir/a.png" alt=x>'],
    ['single quotes kept', "<img src='a.png'>", "<img src='/copy/dir/a.png'>"],
    ['attribute name case kept', '<IMG SRC="a.png">', '<IMG SRC="/copy/dir/a.png">'],
    ['fragment kept', '<a href="/p?q=1#sec">p</a>', '<a href="/copy/p?q=1#sec">p</a>'],
    ['fragment-only untouched', '<a href="#top">t</a>', '<a href="#top">t</a>'],
    [
      'srcset with commas in URLs and descriptors',
      '<img srcset="https://img.example.com/c_fill,w_100/a.jpg 100w,https://img.example.com/c_fill,w_200/a.jpg 200w">',
      '<img srcset="/copy/c_fill,w_100/a.jpg 100w, /copy/c_fill,w_200/a.jpg 200w">',
    ],
    [
      'lazy attributes rewritten',
      '<img data-src="l.jpg" data-bg="url(b.jpg)">',
      '<img data-src="/copy/dir/l.jpg" data-bg="url(/copy/dir/b.jpg)">',
    ],
    [
      'style attribute',
      '<p style="color:red;background:url( x.png )">',
      '<p style="color:red;background:url(/copy/dir/x.png)">',
    ],
    [
      'style block keeps comments',
      '<style>/* keep */ a{background:url("x.png")} /* hack */ *zoom:1</style>',
      '<style>/* keep */ a{background:url("/copy/dir/x.png")} /* hack */ *zoom:1</style>',
    ],
    [
      'meta refresh',
      '<meta http-equiv="refresh" content="3;URL=\'/next#a\'">',
      '<meta http-equiv="refresh" content="3;URL=&apos;/copy/next#a&apos;">',
    ],
    [
      'meta refresh without url=',
      '<meta http-equiv="refresh" content="0; /n">',
      '<meta http-equiv="refresh" content="0; /copy/n">',
    ],
    [
      'og image',
      '<meta property="og:image" content="https://cdn.x.com/og.png">',
      '<meta property="og:image" content="/copy/og.png">',
    ],
    [
      'svg sprite fragment kept',
      '<svg><use xlink:href="/icons.svg#home"></use></svg>',
      '<svg><use xlink:href="/copy/icons.svg#home"></use></svg>',
    ],
    [
      'noscript content rewritten inside noscript',
      '<noscript><img src="/n.gif" width=1></noscript>',
      '<noscript><img src="/copy/n.gif" width=1></noscript>',
    ],
    [
      'srcdoc rewritten and re-escaped',
      '<iframe srcdoc="<a href=&quot;/x&quot;>x</a>"></iframe>',
      '<iframe srcdoc="&lt;a href=&quot;/copy/x&quot;&gt;x&lt;/a&gt;"></iframe>',
    ],
    [
      'import map',
      '<script type="importmap">{"imports":{"a":"/a.js","b":"https://cdn.x.com/b.js"}}</script>',
      '<script type="importmap">{"imports":{"a":"/copy/a.js","b":"/copy/b.js"}}</script>',
    ],
    [
      'base href',
      '<base href="/root/"><img src="i.png">',
      '<base href="/copy/root/"><img src="/copy/root/i.png">',
    ],
    [
      'ampersand escaped in attribute',
      '<a href="/s?a=1&amp;b=2">s</a>',
      '<a href="/copy/s?a=1&amp;b=2">s</a>',
    ],
    [
      'lazysizes data-bgset',
      '<div data-bgset="a.jpg 1x, a2.jpg 2x | b.jpg"></div>',
      '<div data-bgset="/copy/dir/a.jpg 1x, /copy/dir/a2.jpg 2x | /copy/dir/b.jpg"></div>',
    ],
  ];
  it.each(cases)('%s', (_name, html, expected) => {
    expect(rewrite(html)).toBe(expected);
  });

  it('removes integrity on rewritten elements and keeps crossorigin', () => {
    const html =
      '<link rel="stylesheet" href="/s.css" integrity="sha384-abc" crossorigin="anonymous">' +
      '<script src="/a.js"\n  integrity="sha384-def" crossorigin></script><script integrity="sha384-x">1</script>';
    expect(rewrite(html)).toBe(
      '<link rel="stylesheet" href="/copy/s.css" crossorigin="anonymous">' +
        '<script src="/copy/a.js" crossorigin></script><script integrity="sha384-x">1</script>',
    );
  });

  it('removes integrity even when the replacement equals the original', () => {
    const html = '<script src="/a.js" integrity="sha384-def"></script>';
    expect(rewrite(html, (r) => r.raw)).toBe('<script src="/a.js"></script>');
  });

  it('removes a CSP meta once references are rewritten, not during discovery', () => {
    const html =
      '<meta http-equiv="Content-Security-Policy" content="img-src https://cdn.x.com"><img src="/a.png">';
    expect(rewrite(html)).toBe('<img src="/copy/a.png">');
    expect(rewrite(html, keep)).toBe(html);
  });

  it('visitor can rewrite selectively', () => {
    const visit: RefVisitor = (r) => (r.kind === 'image' ? `/img/${r.raw}` : undefined);
    expect(rewrite('<img src="a.png"><a href="b.html">b</a>', visit)).toBe(
      '<img src="/img/a.png"><a href="b.html">b</a>',
    );
  });

  it('returns the identical string when nothing is replaced', () => {
    const html =
      '<!DOCTYPE html>\n<html lang=en><head><link rel=stylesheet href=a.css integrity=sha-1></head>' +
      '<body><img src=a.png><p>unclosed<p>tags</body></html>';
    const r = processHtml(html, PAGE, keep);
    expect(r.html).toBe(html);
    expect(r.refs).toHaveLength(2);
    expect(processHtml(html, PAGE, (ref) => (ref.kind === 'page' ? 'x' : undefined)).html).toBe(
      html,
    );
  });

  it('preserves quirks doctype, comments, implied tags and odd markup byte-for-byte', () => {
    const html =
      '<!DOCTYPE HTML PUBLIC "-//W3C//DTD HTML 4.01 Transitional//EN">\r\n<!-- top -->' +
      '<TABLE><tr><td><img src=x.gif border=0></td></TABLE><p>a<b>b</p>c</b><!--[if IE]><img src=ie.png><![endif]-->';
    const out = rewrite(html);
    expect(out).toBe(html.replace('src=x.gif', 'src="/copy/dir/x.gif"'));
  });

  it('rewrites a page with CRLF line endings and astral characters at the right offsets', () => {
    const html = '<p>😀😀\r\n</p>\r\n<img\r\n  src = "a.png"\r\n  alt="😀">';
    expect(rewrite(html)).toBe(
      '<p>😀😀\r\n</p>\r\n<img\r\n  src = "/copy/dir/a.png"\r\n  alt="😀">',
    );
  });

  it('adoption-agency clones do not duplicate references or edits', () => {
    const html = '<a href="/x"><div>in</a></div>';
    const r = processHtml(html, PAGE, toCopy);
    expect(r.refs).toHaveLength(1);
    expect(r.html).toBe('<a href="/copy/x"><div>in</a></div>');
  });

  it('escapes rewritten attributes so that a parser reads back what was meant', () => {
    const out = rewrite(
      '<iframe srcdoc="<a href=&quot;/x&quot;>x</a>"></iframe><img src="a.png">',
      (ref) => (ref.kind === 'image' ? `/i?a=1&b='2'<"3">` : toCopy(ref)),
    );
    const [iframe, img] = parseFragment(out).childNodes as { attrs: { value: string }[] }[];
    expect(iframe!.attrs[0]!.value).toBe('<a href="/copy/x">x</a>');
    expect(img!.attrs[0]!.value).toBe(`/i?a=1&b='2'<"3">`);
  });

  it('escapes quotes in replacements', () => {
    expect(rewrite('<img src="a.png">', () => '/a"b.png')).toBe('<img src="/a&quot;b.png">');
  });
});

describe('charset rewriting', () => {
  it('rewrites <meta charset>', () => {
    expect(htmlCharsetRewrite('<head><meta charset="windows-1251"><title>x</title>')).toBe(
      '<head><meta charset="utf-8"><title>x</title>',
    );
  });
  it('rewrites http-equiv content-type', () => {
    expect(
      htmlCharsetRewrite('<meta http-equiv="Content-Type" content="text/html; charset=Shift_JIS">'),
    ).toBe('<meta http-equiv="Content-Type" content="text/html; charset=utf-8">');
  });
  it('inserts <meta charset> first in head when nothing is declared', () => {
    expect(htmlCharsetRewrite('<!DOCTYPE html><html><head><title>t</title></head></html>')).toBe(
      '<!DOCTYPE html><html><head><meta charset="utf-8"><title>t</title></head></html>',
    );
    expect(htmlCharsetRewrite('<!doctype html><title>t</title>')).toBe(
      '<!doctype html><meta charset="utf-8"><title>t</title>',
    );
  });
  it('leaves a utf-8 page alone', () => {
    const html = '<meta charset=UTF-8><p>x';
    expect(htmlCharsetRewrite(html)).toBe(html);
  });
  it('is available as a processHtml option', () => {
    const r = processHtml('<meta charset="gbk"><img src="a.png">', PAGE, toCopy, {
      forceUtf8: true,
    });
    expect(r.html).toBe('<meta charset="utf-8"><img src="/copy/dir/a.png">');
    expect(r.charset).toBe('gbk');
  });
});

describe('processHtml edge cases', () => {
  it('<base> without href is not a base URL', () => {
    const r = processHtml('<base target="_blank"><img src="a.png">', PAGE, keep);
    expect(r.hasBase).toBe(false);
    expect(r.refs.map((x) => x.url)).toEqual(['https://example.com/dir/a.png']);
  });

  it('template content is inert for hints and charset', () => {
    const r = processHtml(
      '<template><script>1</script><meta charset="koi8-r"><div id="app"></div></template><p>x</p>',
      PAGE,
      keep,
    );
    expect(r.renderHints).toEqual({
      emptyAppRoot: false,
      noscriptAsksForJs: false,
      scriptCount: 0,
      scriptSources: [],
      inlineScriptAbilities: [],
      inlineLoaders: [],
    });
    expect(r.charset).toBeUndefined();
  });

  it('SVG <style> with entities or CDATA is rewritten, escaped as it was written', () => {
    const cdata = '<svg><style><![CDATA[.a{fill:url(p.svg#x)} a>b{}]]></style></svg>';
    expect(processHtml(cdata, PAGE, toCopy).html).toBe(
      '<svg><style><![CDATA[.a{fill:url(/copy/dir/p.svg#x)} a>b{}]]></style></svg>',
    );
    const entities = '<svg><style>.a{fill:url(&quot;p.svg#x&quot;)} a&gt;b{}</style></svg>';
    expect(processHtml(entities, PAGE, toCopy).html).toBe(
      '<svg><style>.a{fill:url(&quot;/copy/dir/p.svg#x&quot;)} a&gt;b{}</style></svg>',
    );
    const plain = '<svg><style>.a{fill:url(p.svg#x)}</style></svg>';
    expect(processHtml(plain, PAGE, toCopy).html).toBe(
      '<svg><style>.a{fill:url(/copy/dir/p.svg#x)}</style></svg>',
    );
  });

  it('a <template> closed inside an SVG foreignObject ends there', () => {
    const r = processHtml(
      '<svg><foreignObject><template><img src="in.png"></template></foreignObject></svg>' +
        '<script>import("/after.js")</script><meta charset="iso-8859-1">',
      PAGE,
      keep,
    );
    // After the template, the page is live again: its script and charset count.
    expect(r.renderHints.scriptCount).toBe(1);
    expect(r.charset).toBe('windows-1252');
    expect(r.refs.map((x) => x.context)).toEqual(['img[src]', 'script js import()']);
  });

  it('nested noscript and srcdoc contexts are prefixed', () => {
    const r = processHtml(
      '<iframe srcdoc="<noscript><img src=x.png></noscript>"></iframe>',
      PAGE,
      toCopy,
    );
    expect(r.refs.map((x) => x.context)).toEqual(['iframe[srcdoc] noscript img[src]']);
    expect(r.html).toBe(
      '<iframe srcdoc="&lt;noscript&gt;&lt;img src=&quot;/copy/dir/x.png&quot;&gt;&lt;/noscript&gt;"></iframe>',
    );
  });

  it('never throws on hostile markup', () => {
    const inputs = [
      '',
      '<',
      '<img src="',
      '<svg><use href="',
      '<base href="http://[::1">',
      '<script type="importmap">{not json</script>',
      '<meta http-equiv=refresh content="x">',
      '<noscript><noscript><img src=a></noscript>',
      '<div>'.repeat(5000) + '<img src=deep.png>',
      '\u0000<img src="\u0000a.png">',
    ];
    for (const html of inputs) {
      expect(() => processHtml(html, PAGE, toCopy)).not.toThrow();
      expect(processHtml(html, PAGE, keep).html).toBe(html);
    }
  });
});
