import { describe, expect, it } from 'vitest';
import { decodeBody } from './charset.js';
import { processHtml } from './html.js';
import { parseImportMap, resolveModuleSpecifier } from './import-map.js';
import { processJs, resolvesAgainstDocument, type ProcessJsOptions } from './js.js';
import type { RefVisitor } from './types.js';

const SCRIPT = 'https://example.com/app/main.js';
const PAGE = 'https://example.com/pages/index.html';
const keep: RefVisitor = () => undefined;
const found = (code: string, options: ProcessJsOptions = {}) =>
  processJs(code, SCRIPT, keep, options).refs.map((r) => [r.url, r.kind, r.context]);
const urls = (code: string, options: ProcessJsOptions = {}) =>
  processJs(code, SCRIPT, keep, options).refs.map((r) => r.url);

describe('processJs: import syntax', () => {
  it('finds every static import and export-from form', () => {
    const code = [
      `import a from './a.js';`,
      `import { b, c as d } from "../lib/b.js";`,
      `import * as e from '/e.js';`,
      `import './side-effect.js';`,
      `import f, { g } from 'https://cdn.example.net/f.js';`,
      `import json from './data.json' with { type: 'json' };`,
      `import {\n  h,\n  i,\n} from './multi-line.js';`,
      `export * from './all.js';`,
      `export { j } from './named.js';`,
      `export * as ns from './ns.js';`,
      `export const k = 1;`,
    ].join('\n');
    expect(found(code)).toEqual([
      ['https://example.com/app/a.js', 'module', 'js import'],
      ['https://example.com/lib/b.js', 'module', 'js import'],
      ['https://example.com/e.js', 'module', 'js import'],
      ['https://example.com/app/side-effect.js', 'module', 'js import'],
      ['https://cdn.example.net/f.js', 'module', 'js import'],
      ['https://example.com/app/data.json', 'module', 'js import'],
      ['https://example.com/app/multi-line.js', 'module', 'js import'],
      ['https://example.com/app/all.js', 'module', 'js import'],
      ['https://example.com/app/named.js', 'module', 'js import'],
      ['https://example.com/app/ns.js', 'module', 'js import'],
    ]);
  });

  it('takes import() only with a literal specifier', () => {
    const code = [
      `import('./lazy.js');`,
      'import(`./template.js`);',
      'import(`./${name}.js`);',
      `import('./' + name + '.js');`,
      `import(name);`,
      `import('./with-options.js', { with: { type: 'json' } });`,
      `await import(/* webpackChunkName: "x" */ './commented.js');`,
      `const o = { import(x) { return x; } }; o.import('./method.js');`,
    ].join('\n');
    expect(found(code)).toEqual([
      ['https://example.com/app/lazy.js', 'module', 'js import()'],
      ['https://example.com/app/template.js', 'module', 'js import()'],
      ['https://example.com/app/with-options.js', 'module', 'js import()'],
      ['https://example.com/app/commented.js', 'module', 'js import()'],
    ]);
  });

  it('decodes escapes in specifiers', () => {
    expect(urls(String.raw`import './\u0061.js'; import("./\x62.js")`)).toEqual([
      'https://example.com/app/a.js',
      'https://example.com/app/b.js',
    ]);
  });

  it('ignores data:, blob: and other non-http specifiers', () => {
    expect(urls(`import 'data:text/javascript,export default 1'; import('node:fs');`)).toEqual([]);
  });
});

describe('processJs: URLs built from the script and workers', () => {
  it("takes new URL('…', import.meta.url), with whitespace and comments", () => {
    const code = [
      `const a = new URL('./data.json', import.meta.url);`,
      `const b = new URL(\n  "../img/logo.png", // the logo\n  import.meta.url,\n);`,
      `const c = new URL(/* x */ \`./t.wasm\` /* y */, import . meta . url /* z */);`,
      `const no1 = new URL('./other.json', location.href);`,
      `const no2 = new URL('./concat.json', import.meta.url + '?x');`,
      `const no3 = new URL('https://example.org/elsewhere');`,
      `const no4 = new URLSearchParams('a=1'); const no5 = URL.createObjectURL(blob);`,
      `const no6 = new URL(name, import.meta.url);`,
    ].join('\n');
    expect(found(code)).toEqual([
      ['https://example.com/app/data.json', 'asset', 'js new URL(import.meta.url)'],
      ['https://example.com/img/logo.png', 'asset', 'js new URL(import.meta.url)'],
      ['https://example.com/app/t.wasm', 'asset', 'js new URL(import.meta.url)'],
    ]);
  });

  it('takes workers, shared workers, importScripts and worklets by literal URL', () => {
    const code = [
      `const w1 = new Worker('/workers/classic.js');`,
      `const w2 = new Worker("worker.js", { type: 'module' });`,
      `const w3 = new SharedWorker(\`shared.js\`, { type: 'module', name: 's' });`,
      `const w4 = new Worker(new URL('./own.js', import.meta.url), { type: 'module' });`,
      `importScripts('helpers.js', "/polyfill.js");`,
      `self.importScripts('more.js');`,
      `CSS.paintWorklet.addModule('paint.js');`,
      `ctx.audioWorklet?.addModule('./audio.js');`,
      `registry.addModule('not-a-url');`,
      `const w5 = new Worker(url);`,
      `class Worker2 {} const w6 = new Worker2('nope.js'); renew Worker('nope2.js');`,
    ].join('\n');
    const refs = processJs(code, SCRIPT, keep, { documentUrl: PAGE }).refs;
    expect(refs.map((r) => [r.url, r.kind, r.context])).toEqual([
      ['https://example.com/workers/classic.js', 'script', 'js new Worker()'],
      ['https://example.com/pages/worker.js', 'script', 'js new Worker()'],
      ['https://example.com/pages/shared.js', 'script', 'js new SharedWorker()'],
      ['https://example.com/app/own.js', 'asset', 'js new URL(import.meta.url)'],
      ['https://example.com/app/helpers.js', 'script', 'js importScripts()'],
      ['https://example.com/polyfill.js', 'script', 'js importScripts()'],
      ['https://example.com/app/more.js', 'script', 'js importScripts()'],
      ['https://example.com/pages/paint.js', 'module', 'js addModule()'],
      ['https://example.com/pages/audio.js', 'module', 'js addModule()'],
    ]);
    expect(refs.filter(resolvesAgainstDocument).map((r) => r.raw)).toEqual([
      '/workers/classic.js',
      'worker.js',
      'shared.js',
      'paint.js',
      './audio.js',
    ]);
    // Without a page (a worker's own nested workers), the script is the base.
    expect(urls(`new Worker('nested.js')`)).toEqual(['https://example.com/app/nested.js']);
  });
});

describe('processJs: what merely looks like an import', () => {
  it('skips comments, strings, templates and regular expressions', () => {
    const code = [
      `// import './line-comment.js'; new Worker('c1.js')`,
      `/* import('./block-comment.js'); new URL('./c2.json', import.meta.url) */`,
      `const s1 = "import './in-string.js'";`,
      `const s2 = 'new Worker("in-string.js")';`,
      'const t = `import("./in-template.js") ${ "importScripts(\'x.js\')" }`;',
      `const r1 = /import\\('\\.\\/in-regex.js'\\)/g;`,
      `const r2 = /["'\\/]new Worker\\('r.js'\\)/;`,
      `const ratio = total / count; const half = ratio / 2;`,
      `import './real.js';`,
      'const u = `${await import(`./in-substitution.js`)}`;',
    ].join('\n');
    expect(urls(code)).toEqual([
      'https://example.com/app/real.js',
      'https://example.com/app/in-substitution.js',
    ]);
  });

  it('never lets a masked call change what the lexer sees', () => {
    const code = `// a comment about new\nWorker('w.js'); import './after.js';`;
    expect(urls(code)).toEqual(['https://example.com/app/after.js']);
    // A division after a call stays a division, a regular expression after a line stays one.
    const after = `x = new Worker('w.js') / 2 / 3; import('./a.js');\nif (y) new URL('./u', import.meta.url)\n/re/.test(z); import('./b.js')`;
    expect(urls(after)).toEqual([
      'https://example.com/app/w.js',
      'https://example.com/app/a.js',
      'https://example.com/app/u',
      'https://example.com/app/b.js',
    ]);
  });

  it('reads modern syntax around the imports', () => {
    const code = `
      import { html } from './html.js';
      class Counter extends HTMLElement {
        static #instances = 0;
        #count = 0n;
        static { Counter.#instances ??= 0; }
        get #label() { return \`Count: \${this.#count}\`; }
        async *ticks() { for await (const t of this.source?.ticks?.() ?? []) yield t; }
      }
      const big = 1_000_000;
      const re = /(?<year>\\d{4})-(?<month>\\d{2})/v;
      const { a, ...rest } = { a: 1, b: 2 };
      label: for (const x of [1, 2]) { if (x > 1) break label; }
      const raw = String.raw\`C:\\import\\x.js\`;
      const resolved = import.meta.resolve('./resolved.js');
      const mod = await import('./top-level-await.js');
      export default (x) => x?.y ?? z;
    `;
    expect(urls(code)).toEqual([
      'https://example.com/app/html.js',
      'https://example.com/app/top-level-await.js',
    ]);
  });

  it('has no references in a script the lexer cannot read, and never throws', () => {
    for (const broken of [
      `import { a } from './a.js'; const x = {{{ ;`,
      'const t = `unterminated ${ import("./x.js")',
      `function () { return "unterminated }`,
    ]) {
      const result = processJs(broken, SCRIPT, () => '/changed.js');
      expect(result.refs).toEqual([]);
      expect(result.code).toBe(broken);
    }
  });
});

describe('processJs: rewriting', () => {
  const toCdnCopy: RefVisitor = (ref) =>
    ref.url.startsWith('https://cdn.example.net/')
      ? `/_x/cdn.example.net${new URL(ref.url).pathname}`
      : undefined;

  it('splices replacements at the lexer offsets and keeps every other byte', () => {
    const code =
      `import{a as b}from"https://cdn.example.net/m.js";export{c}from'./n.js';` +
      `const w=new Worker(new URL("https://cdn.example.net/w.js",import.meta.url),{type:"module"});` +
      `import(\`https://cdn.example.net/d.js\`).then(x=>x);const s="https://cdn.example.net/not-a-ref.js"\n` +
      `//# sourceMappingURL=main.js.map\n`;
    const out = processJs(code, SCRIPT, toCdnCopy).code;
    expect(out).toBe(
      `import{a as b}from"/_x/cdn.example.net/m.js";export{c}from'./n.js';` +
        `const w=new Worker(new URL("/_x/cdn.example.net/w.js",import.meta.url),{type:"module"});` +
        `import(\`/_x/cdn.example.net/d.js\`).then(x=>x);const s="https://cdn.example.net/not-a-ref.js"\n` +
        `//# sourceMappingURL=main.js.map\n`,
    );
  });

  it('returns the very same string when nothing changes', () => {
    const code = `import './a.js'; new Worker('w.js');`;
    expect(processJs(code, SCRIPT, keep).code).toBe(code);
    expect(processJs(code, SCRIPT, (ref) => ref.raw).code).toBe(code);
  });

  it('escapes a replacement for the quote it goes into and keeps the fragment', () => {
    const visit: RefVisitor = () => `/x/it's "q".js`;
    expect(processJs(`import 'https://a.test/1.js'`, SCRIPT, visit).code).toBe(
      `import '/x/it\\'s "q".js'`,
    );
    expect(processJs('import(`https://a.test/${"$"}1.js`)', SCRIPT, () => '/$x.js').code).toBe(
      'import(`https://a.test/${"$"}1.js`)',
    );
    expect(processJs('import(`https://a.test/1.js`)', SCRIPT, () => '/${x}.js').code).toBe(
      'import(`/\\${x}.js`)',
    );
    expect(processJs(`new Worker('https://a.test/w.js#frag')`, SCRIPT, () => '/w.js').code).toBe(
      `new Worker('/w.js#frag')`,
    );
  });
});

describe('import maps', () => {
  const map = parseImportMap(
    {
      imports: {
        lit: '/vendor/lit/index.js',
        'lit/': '/vendor/lit/',
        'ui/': '/vendor/ui/',
        'ui/icons/': 'https://cdn.example.net/icons/',
        '/app/old.js': '/app/new.js',
        blocked: null,
        'bad/': '/no-trailing-slash',
      },
      scopes: {
        '/legacy/': { lit: '/vendor/lit-1/index.js' },
        'https://cdn.example.net/': { 'ui/': '/vendor/ui-for-cdn/' },
      },
    },
    PAGE,
  )!;
  const resolve = (specifier: string, referrer = SCRIPT) =>
    resolveModuleSpecifier(specifier, referrer, [map]);

  it('resolves exact keys, longest trailing-slash prefixes and scopes', () => {
    expect(resolve('lit')).toEqual({
      urls: ['https://example.com/vendor/lit/index.js'],
      mapped: true,
    });
    expect(resolve('lit/directives/class.js').urls).toEqual([
      'https://example.com/vendor/lit/directives/class.js',
    ]);
    expect(resolve('ui/button.js').urls).toEqual(['https://example.com/vendor/ui/button.js']);
    expect(resolve('ui/icons/star.js').urls).toEqual(['https://cdn.example.net/icons/star.js']);
    expect(resolve('lit', 'https://example.com/legacy/old-widget.js').urls).toEqual([
      'https://example.com/vendor/lit-1/index.js',
    ]);
    expect(resolve('ui/x.js', 'https://cdn.example.net/lib/a.js').urls).toEqual([
      'https://example.com/vendor/ui-for-cdn/x.js',
    ]);
    // URL-like specifiers are remapped too, after resolution against the importing module.
    expect(resolve('./old.js')).toEqual({ urls: ['https://example.com/app/new.js'], mapped: true });
    expect(resolve('./other.js')).toEqual({
      urls: ['https://example.com/app/other.js'],
      mapped: false,
    });
  });

  it('resolves nothing for unmapped, blocked, invalid or escaping specifiers', () => {
    expect(resolve('react').urls).toEqual([]);
    expect(resolve('blocked').urls).toEqual([]);
    expect(resolve('bad/x.js').urls).toEqual([]);
    expect(resolve('ui/../../secret.js').urls).toEqual([]);
    expect(resolveModuleSpecifier('lit', SCRIPT, []).urls).toEqual([]);
  });

  it('resolves under every map the site has, when they differ', () => {
    const other = parseImportMap({ imports: { lit: 'https://cdn.example.net/lit.js' } }, PAGE)!;
    expect(resolveModuleSpecifier('lit', SCRIPT, [map, other]).urls).toEqual([
      'https://example.com/vendor/lit/index.js',
      'https://cdn.example.net/lit.js',
    ]);
  });

  it('gives processJs the bare specifiers, which are found but never rewritten', () => {
    const code = `import { LitElement } from 'lit'; import 'ui/button.js'; import 'react'; import './old.js';`;
    const result = processJs(code, SCRIPT, () => '/rewritten.js', { importMaps: [map] });
    expect(result.refs.map((r) => [r.raw, r.url])).toEqual([
      ['lit', 'https://example.com/vendor/lit/index.js'],
      ['ui/button.js', 'https://example.com/vendor/ui/button.js'],
      ['./old.js', 'https://example.com/app/new.js'],
    ]);
    expect(result.code).toBe(code);
  });

  it('comes from the page: html.ts hands over the maps, and reads inline module scripts', () => {
    const html = `<!doctype html><head>
      <script type="importmap">{"imports": {"ui/": "/vendor/ui/"}}</script>
      <link rel="modulepreload" href="/app/config.js">
      <script type="module">import 'ui/shell.js'; import('./lazy.js');</script>
      <script type="module" src="/app/main.js"></script>
      <noscript><script type="importmap">{"imports": {"x": "/x.js"}}</script></noscript>
      <script type="application/json">{"import": "./not-code.js"}</script>
    </head>`;
    const result = processHtml(html, PAGE, keep);
    expect(result.importMaps).toHaveLength(1);
    expect(resolveModuleSpecifier('ui/a.js', SCRIPT, result.importMaps).urls).toEqual([
      'https://example.com/vendor/ui/a.js',
    ]);
    expect(result.refs.map((r) => [r.url, r.kind, r.context])).toEqual([
      ['https://example.com/vendor/ui/', 'module', 'script[type=importmap]'],
      ['https://example.com/app/config.js', 'module', 'link[rel=modulepreload]'],
      ['https://example.com/vendor/ui/shell.js', 'module', 'script js import'],
      ['https://example.com/pages/lazy.js', 'module', 'script js import()'],
      ['https://example.com/app/main.js', 'module', 'script[src]'],
      // Captured as before, but an inert map resolves nothing.
      ['https://example.com/x.js', 'module', 'noscript script[type=importmap]'],
    ]);
  });
});

describe('JavaScript bodies in other encodings', () => {
  it('decodes by BOM, then Content-Type charset, then UTF-8 when valid, else windows-1252', () => {
    const latin = Buffer.from(`import './caf\xe9.js'; const s = '\xe9t\xe9';`, 'latin1');
    expect(decodeBody(latin, 'text/javascript; charset=iso-8859-1', 'js').text).toContain('été');
    expect(decodeBody(latin, 'text/javascript', 'js').charset).toBe('windows-1252');
    const utf8 = Buffer.from(`const s = 'été';`, 'utf8');
    expect(decodeBody(utf8, 'text/javascript', 'js')).toEqual({
      text: `const s = 'été';`,
      charset: 'utf-8',
    });
    const { text } = decodeBody(latin, 'text/javascript', 'js');
    expect(urls(text)).toEqual(['https://example.com/app/caf%C3%A9.js']);
  });
});

describe('processJs: Vite builds', () => {
  it("lists what a code-split chunk needs from Vite's __vite__mapDeps, against the site's base", () => {
    const code =
      'const __vite__mapDeps=(i,m=__vite__mapDeps,d=(m.f||(m.f=["assets/Recipe-rC.js","assets/Recipe-T4.css","./rel.css"])))=>i.map(i=>d[i]);' +
      'const R=lazy(()=>b(()=>import(`./Recipe-rC.js`),__vite__mapDeps([0,1])));';
    const refs = processJs(code, SCRIPT, keep).refs.filter((r) => r.context.includes('mapDeps'));
    expect(refs.map((r) => [r.url, r.kind])).toEqual([
      ['https://example.com/assets/Recipe-rC.js', 'module'],
      ['https://example.com/assets/Recipe-T4.css', 'stylesheet'],
      ['https://example.com/app/rel.css', 'stylesheet'],
    ]);
    // A string that merely mentions the name lists nothing.
    expect(found('const s = "__vite__mapDeps=(m.f=[\\"x.css\\"])";')).toEqual([]);
  });
});
