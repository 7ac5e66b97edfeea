import { describe, expect, it } from 'vitest';
import { processHtml } from './html.js';
import { collectPathStrings, looksLikeFilePath, pathStrings } from './path-strings.js';

describe('pathStrings', () => {
  it('finds the files scripts load at run time, in every kind of literal', () => {
    const code = [
      `fetch("/search-index.json").then(r => r.json());`,
      `const idx = new URL('search/search_index.json', config.base);`,
      'import(`pagefind/pagefind.js`);',
      `const w = new Worker("/assets/search.abc123.js");`,
      `load("index.json"); load('/hashmap.json'); load("../_static/searchindex.js");`,
      `const chunk = "/_next/static/chunks/pages/docs-4f1e.js";`,
      `const wasm = "/pagefind/wasm.en.pagefind", meta = "pagefind/pagefind.pf_meta";`,
      `const feed = "https://example.com/feed.xml"; const rel = "//example.com/data.csv";`,
    ].join('\n');
    expect(pathStrings(code)).toEqual([
      '/search-index.json',
      'search/search_index.json',
      'pagefind/pagefind.js',
      '/assets/search.abc123.js',
      'index.json',
      '/hashmap.json',
      '../_static/searchindex.js',
      '/_next/static/chunks/pages/docs-4f1e.js',
      '/pagefind/wasm.en.pagefind',
      'pagefind/pagefind.pf_meta',
      'https://example.com/feed.xml',
      '//example.com/data.csv',
    ]);
  });

  it('leaves out what is clearly not a file path', () => {
    const code = [
      // pages, images and unknown extensions
      `go("/about.html"); img("/logo.png"); x("/notes.md"); y("guide_getting-started.md");`,
      // templates, spaces, escapes, prose, aliases and joined paths
      'a(`${base}/search.json`); b("my file.json"); c("a\\tb.json");',
      `d("Node.js"); e("@site/src/pages/index.js"); f("~blog/list.json"); g("a//b.json");`,
      // other schemes, bare extensions, too short
      `h("data:text/plain.txt"); i("mailto:x@y.json"); j(".json"); k(".js"); l("x.")`,
      // property access and concatenation are code, not strings
      `m = obj.json + ".js" + a.css; n = "prefix-" + name + ".json";`,
    ].join('\n');
    expect(pathStrings(code)).toEqual([]);
    expect(looksLikeFilePath('a.js')).toBe(true);
    expect(looksLikeFilePath('x'.repeat(10) + '.JSON')).toBe(true);
  });

  it("reads JSON's escaped slashes and JSON config blocks", () => {
    expect(pathStrings(`{"index":"\\/search\\/index.json","other":"a\\/b\\/c.txt"}`)).toEqual([
      '/search/index.json',
      'a/b/c.txt',
    ]);
    // MkDocs Material's config: the search worker, relative to the page.
    const html = `<!doctype html><script id="__config" type="application/json">{"base": "..", "features": [], "search": "../assets/javascripts/workers/search.f8cc74c7.min.js"}</script>
<script id="__NEXT_DATA__" type="application/json">{"buildId":"b1","runtimeConfig":{"index":"/_next/data/b1/index.json"}}</script>
<script type="application/ld+json">{"logo":"/ld.json"}</script>
<script>window.search = "/inline/search.json"</script>
<script src="/app.js">"/not-run.json"</script>
<template><script>"/inert.json"</script></template>`;
    const { scriptTexts } = processHtml(html, 'https://example.com/guide/', () => undefined);
    const found = new Set<string>();
    for (const text of scriptTexts) collectPathStrings(text, found, 100);
    expect([...found]).toEqual([
      '../assets/javascripts/workers/search.f8cc74c7.min.js',
      '/_next/data/b1/index.json',
      '/inline/search.json',
    ]);
  });

  it('stops at the limit and counts each string once', () => {
    const code = Array.from({ length: 300 }, (_, i) => `f("/d/${i % 100}.json");`).join('');
    expect(pathStrings(code)).toHaveLength(100);
    expect(pathStrings(code, 40)).toHaveLength(40);
    const found = new Set(['/d/0.json']);
    collectPathStrings(code, found, 3);
    expect([...found]).toEqual(['/d/0.json', '/d/1.json', '/d/2.json']);
  });

  it('reads a 2 MB minified bundle in one cheap pass (printed, not asserted)', () => {
    // Minified-looking code: properties, strings with spaces, regular expressions, few paths.
    const piece =
      'function a(b,c){return b.json().then(function(d){return d.map(function(e){return e.id+"-"+e.name})})}' +
      'var f=/["\'`]\\.js/g,g="some text here",h=\'it\\\'s\',i=`tmpl ${f}.json`,j={k:"value",l:[1,2,3]};';
    const paths = 'var m="/assets/chunk.abc.js",n="data/items.json";';
    let code = '';
    while (code.length < 2 * 1024 * 1024) code += piece.repeat(50) + paths;
    const mb = code.length / 1024 ** 2;
    let found: string[] = [];
    let best = Infinity;
    for (let i = 0; i < 5; i++) {
      const start = performance.now();
      found = pathStrings(code, 200);
      best = Math.min(best, performance.now() - start);
    }
    expect(found).toEqual(['/assets/chunk.abc.js', 'data/items.json']);
    process.stdout.write(
      `path strings: ${mb.toFixed(1)} MB in ${best.toFixed(1)} ms (${(best / mb).toFixed(2)} ms/MB)\n`,
    );
  });
});
