/**
 * The copy of an ES-module app keeps its module graph: every specifier in every copied module, and
 * every `new URL(…, import.meta.url)`, lands on the copy of the file it named on the site, however
 * it was spelled (relative, root-relative, absolute, through the page's import map, statically or
 * by `import()`), on the site or on another host. Random graphs (fast-check); the copy is read as
 * the browser would resolve it, whatever the rewrite left as fetched or edited.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mirror } from '../src/index.js';
import { readBlob } from '../src/storage/blob-utils.js';
import { createMemoryBlobStore } from '../src/storage/memory-blob-store.js';

/** Where modules live: on the site, and on a second host (a CDN). */
const SITE_PATHS = ['/app.js', '/lib/b.js', '/lib/deep/c.mjs', '/x/d.js'];
const CDN_PATHS = ['/cdn/e.js', '/cdn/sub/f.js'];
const SPELLINGS = ['relative', 'root', 'absolute', 'bare'] as const;
const FORMS = ['static', 'dynamic', 'metaUrl'] as const;
type Spelling = (typeof SPELLINGS)[number];
type Form = (typeof FORMS)[number];

interface Line {
  target: number;
  spelling: Spelling;
  form: Form;
}

const TYPES: Record<string, string> = {
  html: 'text/html; charset=utf-8',
  js: 'text/javascript',
  mjs: 'text/javascript',
  css: 'text/css',
  png: 'image/png',
};

/** A mutable site: each run serves its own files on the same two servers. */
function startServer() {
  let files = new Map<string, string>();
  const server = http.createServer((req, res) => {
    const body = files.get(new URL(req.url ?? '/', 'http://x').pathname);
    if (body === undefined) return void res.writeHead(404).end();
    const ext = /\.(\w+)$/.exec(new URL(req.url ?? '/', 'http://x').pathname)?.[1] ?? '';
    const type = TYPES[ext] ?? 'application/octet-stream';
    res.writeHead(200, { 'content-type': type }).end(body);
  });
  return new Promise<{ origin: string; serve(f: Map<string, string>): void; close(): void }>(
    (resolve) =>
      server.listen(0, '127.0.0.1', () =>
        resolve({
          origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
          serve: (f) => (files = f),
          close: () => void server.close(),
        }),
      ),
  );
}

function relativeTo(from: string, to: string): string {
  const fromDir = from.split('/').slice(0, -1);
  const toParts = to.split('/');
  let common = 0;
  while (common < fromDir.length && fromDir[common] === toParts[common]) common++;
  const up = fromDir.length - common;
  const rest = toParts.slice(common).join('/');
  return up === 0 ? `./${rest}` : `${'../'.repeat(up)}${rest}`;
}

let site: Awaited<ReturnType<typeof startServer>>;
let cdn: Awaited<ReturnType<typeof startServer>>;
beforeAll(async () => {
  [site, cdn] = await Promise.all([startServer(), startServer()]);
});
afterAll(() => {
  site.close();
  cdn.close();
});

/** Serves these files on the two hosts and copies the site from `start`: its entries by URL. */
async function copyOf(
  siteFiles: Map<string, string>,
  cdnFiles: Map<string, string>,
  start: string,
) {
  site.serve(siteFiles);
  cdn.serve(cdnFiles);
  const store = createMemoryBlobStore();
  const manifest = await mirror({
    url: `${site.origin}${start}`,
    store,
    allowPrivateNetworks: true,
    render: 'never',
  });
  return { store, byUrl: new Map(manifest.entries.map((e) => [e.url, e])) };
}

describe('the copy of an ES-module app', () => {
  it('resolves every module specifier to the copy of the file it named', async () => {
    const modules = SITE_PATHS.length + CDN_PATHS.length;
    const line = fc.record({
      target: fc.nat({ max: modules - 1 }),
      spelling: fc.constantFrom(...SPELLINGS),
      form: fc.constantFrom(...FORMS),
    });
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(line, { maxLength: 4 }), { minLength: modules, maxLength: modules }),
        async (graph: Line[][]) => {
          const where = (k: number) =>
            k < SITE_PATHS.length
              ? { origin: site.origin, path: SITE_PATHS[k]! }
              : { origin: cdn.origin, path: CDN_PATHS[k - SITE_PATHS.length]! };
          const imports: Record<string, string> = {};
          for (let k = 0; k < modules; k++) {
            const { origin, path } = where(k);
            imports[`m${k}`] = origin === site.origin ? path : `${origin}${path}`;
          }
          /** What each module's lines say, and the file each names. */
          const expected = new Map<string, { spec: string; form: Form; target: string }[]>();
          const siteFiles = new Map<string, string>();
          const cdnFiles = new Map<string, string>();
          for (let k = 0; k < modules; k++) {
            const from = where(k);
            const lines = graph[k]!.map(({ target, spelling, form }) => {
              const to = where(target);
              const sameHost = to.origin === from.origin;
              let spec: string;
              if (spelling === 'bare' && form !== 'metaUrl') spec = `m${target}`;
              else if (spelling === 'relative' && sameHost) spec = relativeTo(from.path, to.path);
              else if (spelling === 'root' && sameHost) spec = to.path;
              else spec = `${to.origin}${to.path}`;
              return { spec, form, target: `${to.origin}${to.path}` };
            });
            expected.set(`${from.origin}${from.path}`, lines);
            const text = lines
              .map(({ spec, form }) =>
                form === 'static'
                  ? `import '${spec}';`
                  : form === 'dynamic'
                    ? `export const load${k} = () => import('${spec}');`
                    : `export const url${k} = new URL('${spec}', import.meta.url);`,
              )
              .join('\n');
            (from.origin === site.origin ? siteFiles : cdnFiles).set(from.path, `${text}\n`);
          }
          siteFiles.set(
            '/app.html',
            `<!doctype html><script type="importmap">${JSON.stringify({ imports })}</script>` +
              SITE_PATHS.map((p) => `<script type="module" src="${p}"></script>`).join(''),
          );
          const { store, byUrl } = await copyOf(siteFiles, cdnFiles, '/app.html');
          const copyBase = 'http://copy.invalid';
          const page = byUrl.get(`${site.origin}/app.html`)!;
          const html = (await readBlob(store, page.hash)).toString();
          const map = JSON.parse(/<script type="importmap">(.*?)<\/script>/.exec(html)![1]!) as {
            imports: Record<string, string>;
          };
          for (const [url, lines] of expected) {
            const entry = byUrl.get(url);
            // A module nothing reached is not in the copy (a CDN file no line names).
            if (!entry) continue;
            const copied = (await readBlob(store, entry.hash)).toString().split('\n');
            lines.forEach(({ spec, form, target }, i) => {
              const written = /\(?['"]([^'"]+)['"]/.exec(copied[i]!)![1]!;
              const scriptUrl = `${copyBase}${entry.path}`;
              const resolved =
                /^(?:\.{0,2}\/|[a-z]+:)/.test(written) || form === 'metaUrl'
                  ? new URL(written, scriptUrl)
                  : new URL(map.imports[written]!, `${copyBase}${page.path}`);
              const file = byUrl.get(target);
              expect(file, `${target} is in the copy`).toBeDefined();
              expect(
                `${resolved.origin}${resolved.pathname}${resolved.search}`,
                `${entry.path} line ${i + 1}: ${spec}`,
              ).toBe(`${copyBase}${file!.path}`);
            });
          }
        },
      ),
      { numRuns: 100 },
    );
  });

  it('resolves every url() and @import of its style sheets to the copy of the file it named', async () => {
    const sheets = ['/a.css', '/css/b.css', '/css/deep/c.css', '/cdn/d.css', '/cdn/sub/e.css'];
    const images = ['/img/i.png', '/css/j.png', '/cdn/k.png', '/cdn/sub/l.png'];
    const onCdn = (p: string) => p.startsWith('/cdn/');
    const files = [...sheets, ...images];
    const line = fc.record({
      target: fc.nat({ max: files.length - 1 }),
      spelling: fc.constantFrom('relative', 'root', 'absolute'),
      form: fc.constantFrom('url', 'quoted', 'import'),
    });
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(line, { maxLength: 4 }), {
          minLength: sheets.length,
          maxLength: sheets.length,
        }),
        async (graph) => {
          const originOf = (p: string) => (onCdn(p) ? cdn.origin : site.origin);
          const expected = new Map<string, string[]>();
          const siteFiles = new Map<string, string>();
          const cdnFiles = new Map<string, string>();
          const png = Buffer.from('89504e470d0a1a0a', 'hex').toString('latin1');
          for (const p of images) (onCdn(p) ? cdnFiles : siteFiles).set(p, png);
          sheets.forEach((from, k) => {
            const lines: string[] = [];
            const text = graph[k]!.map(({ target, spelling, form }) => {
              // An @import names a style sheet; url() anything.
              const to = form === 'import' ? sheets[target % sheets.length]! : files[target]!;
              const sameHost = onCdn(to) === onCdn(from);
              const spec =
                spelling === 'relative' && sameHost
                  ? relativeTo(from, to)
                  : spelling === 'root' && sameHost
                    ? to
                    : `${originOf(to)}${to}`;
              lines.push(`${originOf(to)}${to}`);
              return form === 'import'
                ? `@import '${spec}';`
                : form === 'quoted'
                  ? `.q${k} { background: url("${spec}"); }`
                  : `.u${k} { background: url(${spec}); }`;
            });
            // @import rules come first, as CSS wants them.
            const ordered = text
              .map((t, i) => [t, lines[i]!] as const)
              .sort((x, y) => Number(!x[0].startsWith('@')) - Number(!y[0].startsWith('@')));
            expected.set(
              `${originOf(from)}${from}`,
              ordered.map(([, target]) => target),
            );
            (onCdn(from) ? cdnFiles : siteFiles).set(
              from,
              `${ordered.map(([t]) => t).join('\n')}\n`,
            );
          });
          siteFiles.set(
            '/styled.html',
            '<!doctype html>' +
              sheets.map((p) => `<link rel="stylesheet" href="${originOf(p)}${p}">`).join(''),
          );
          const { store, byUrl } = await copyOf(siteFiles, cdnFiles, '/styled.html');
          for (const [url, targets] of expected) {
            const entry = byUrl.get(url)!;
            expect(entry, url).toBeDefined();
            const copied = (await readBlob(store, entry.hash)).toString().split('\n');
            targets.forEach((target, i) => {
              const written = /(?:url\(|@import )["']?([^"')]+)["']?/.exec(copied[i]!)![1]!;
              const resolved = new URL(written, `http://copy.invalid${entry.path}`);
              const file = byUrl.get(target);
              expect(file, `${target} is in the copy`).toBeDefined();
              expect(
                `${resolved.origin}${resolved.pathname}`,
                `${entry.path} line ${i + 1}: ${copied[i]}`,
              ).toBe(`http://copy.invalid${file!.path}`);
            });
          }
        },
      ),
      { numRuns: 100 },
    );
  });
});
