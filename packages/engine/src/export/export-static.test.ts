import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createFsBlobStore } from '../storage/fs-blob-store.js';
import type { Manifest, ManifestEntry } from '../types.js';
import { exportStatic } from './export-static.js';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => fs.rmSync(d, { recursive: true, force: true })));
function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'export-'));
  dirs.push(dir);
  return dir;
}

async function copyOf(files: Record<string, [contentType: string, body: string]>) {
  const store = createFsBlobStore(tempDir(), { scratch: true });
  const entries: ManifestEntry[] = [];
  for (const [copyPath, [contentType, body]] of Object.entries(files)) {
    const { hash, size } = await store.put(
      (async function* () {
        yield Buffer.from(body);
      })(),
    );
    entries.push({
      path: copyPath,
      url: `https://example.com${copyPath}`,
      kind: contentType.startsWith('text/html') ? 'page' : 'asset',
      status: 200,
      contentType,
      hash,
      size,
      headers: {},
    });
  }
  const manifest: Manifest = {
    version: 1,
    startUrl: 'https://example.com/',
    entryPath: '/',
    createdAt: new Date(0).toISOString(),
    entries,
    failures: [],
    notes: [],
    stats: {
      pages: 0,
      assets: 0,
      bytes: 0,
      requests: 0,
      notModified: 0,
      rendered: 0,
      durationMs: 0,
    },
  };
  return { store, manifest };
}

const read = (dir: string, file: string) => fs.readFileSync(path.join(dir, file), 'utf8');

describe('static export', () => {
  it('writes query variants that agree under their bare name too, as the sites host answers them', async () => {
    const payload = '0:{"tree":["blog","hello-world"]}';
    const { store, manifest } = await copyOf({
      '/': ['text/html; charset=utf-8', '<p>home</p>'],
      // Next.js asks for a page's payload with a cache key that changes with the page it leaves.
      '/blog/hello-world/index.txt?_rsc=1p3rq': ['text/x-component', payload],
      '/blog/hello-world/index.txt?_rsc=cmrh0': ['text/x-component', payload],
      '/config.json?t=1700000000': ['application/json', '{"theme":"dark"}'],
      // One variant of a query that chooses content proves nothing: no bare file.
      '/api/list?page=2': ['application/json', '[3,4]'],
      '/api/items?page=1': ['application/json', '[1]'],
      '/api/items?page=2': ['application/json', '[2]'],
    });
    const out = tempDir();
    await exportStatic(manifest, store, out);
    expect(read(out, 'blog/hello-world/index.txt')).toBe(payload);
    expect(read(out, 'config.json')).toBe('{"theme":"dark"}');
    expect(fs.existsSync(path.join(out, 'api/list.json'))).toBe(false);
    expect(fs.existsSync(path.join(out, 'api/list'))).toBe(false);
    expect(fs.existsSync(path.join(out, 'api/items.json'))).toBe(false);
  });

  it('keeps the query of a version-stamped file in references and writes the file under its bare name', async () => {
    // Sphinx's theme (`pydoctheme.css?2022.1`) and WordPress (`?ver=6.4.2`) stamp every asset.
    const page =
      '<!doctype html><LINK REL=stylesheet HREF="/s.css?2022.1"><script src=/a.js?ver=6.4.2></script>';
    const { store, manifest } = await copyOf({
      '/': ['text/html; charset=utf-8', page],
      '/s.css?2022.1': ['text/css', 'a{color:red}'],
      '/a.js?ver=6.4.2': ['text/javascript', 'void 0'],
    });
    const out = tempDir();
    await exportStatic(manifest, store, out, { placeBlobs: 'move' });
    // A static server ignores the query: the page needs no change.
    expect(read(out, 'index.html')).toBe(page);
    expect(read(out, 's.css')).toBe('a{color:red}');
    expect(read(out, 'a.js')).toBe('void 0');
    expect(fs.readdirSync(out).sort()).toEqual(['a.js', 'index.html', 's.css']);
  });

  it('points references to a version-stamped file at the name its bare file got when another took it', async () => {
    const { store, manifest } = await copyOf({
      '/': [
        'text/html',
        '<link rel=stylesheet href="/s.css?v=2"><link rel=stylesheet href="/S.css">',
      ],
      '/S.css': ['text/css', 'b{color:blue}'],
      '/s.css?v=2': ['text/css', 'a{color:red}'],
    });
    const out = tempDir();
    await exportStatic(manifest, store, out, { placeBlobs: 'move' });
    const href = /href="(\/s-[0-9a-f]{8}\.css)"/.exec(read(out, 'index.html'))?.[1];
    expect(href).toBeDefined();
    expect(read(out, href!.slice(1))).toBe('a{color:red}');
    expect(read(out, 'S.css')).toBe('b{color:blue}');
  });

  it('parses again only the documents that reference a file the export renames', async () => {
    // Parsed again, its folder link would say `/docs/index.html`: it is placed as it is.
    const odd = '<!doctype html><P CLASS=x>No data here <a href=/docs/>docs</a>';
    const { store, manifest } = await copyOf({
      '/': ['text/html', '<a href="/list?page=2">next</a> <a href="/about.html">about</a>'],
      '/list?page=2': ['text/html', '<a href="/">home</a>'],
      '/about.html': ['text/html', odd],
      '/docs/': ['text/html', 'Docs'],
      '/s.css': ['text/css', 'a{background:url(/data)}'],
      '/data': ['image/png', 'PNG'],
      '/unknown.html': ['text/html', '<a href="/data">data</a>'],
    });
    const references = new Map<string, ReadonlySet<string>>([
      ['/', new Set(['/list?page=2', '/about.html'])],
      ['/list?page=2', new Set(['/'])],
      ['/about.html', new Set(['/docs/'])],
      ['/s.css', new Set(['/data'])],
      // '/unknown.html' is not listed: it is parsed again, as without `references`.
    ]);
    const out = tempDir();
    await exportStatic(manifest, store, out, { placeBlobs: 'move', references });
    expect(read(out, 'index.html')).toContain('href="/list@page=2.html"');
    expect(read(out, 'about.html')).toBe(odd);
    expect(read(out, 's.css')).toBe('a{background:url(/data.png)}');
    expect(read(out, 'unknown.html')).toContain('href="/data.png"');
    expect(read(out, 'data.png')).toBe('PNG');
  });

  it('places documents byte for byte when every copy path keeps its name', async () => {
    // Odd but valid markup and a relative reference: nothing is re-serialized.
    const page = '<!doctype html><P CLASS=x>Hi <a href="docs/a.html">a</a> <img src=/i.png>';
    const { store, manifest } = await copyOf({
      '/': ['text/html; charset=utf-8', page],
      '/docs/a.html': ['text/html', '<a href="/">home</a>'],
      '/s.css': ['text/css', 'a{background:url( /i.png )}'],
      '/i.png': ['image/png', 'PNG'],
    });
    const out = tempDir();
    await exportStatic(manifest, store, out, { placeBlobs: 'move' });
    expect(read(out, 'index.html')).toBe(page);
    expect(read(out, 'docs/a.html')).toBe('<a href="/">home</a>');
    expect(read(out, 's.css')).toBe('a{background:url( /i.png )}');
    expect(read(out, 'i.png')).toBe('PNG');
  });

  it('rewrites references when some copy paths get another name in the export', async () => {
    const { store, manifest } = await copyOf({
      '/': ['text/html', '<a href="/list?page=2">next</a> <a href="/about">about</a>'],
      '/list?page=2': ['text/html', '<link rel=stylesheet href="/s.css">'],
      '/about': ['text/html', 'About'],
      '/s.css': ['text/css', 'a{color:red}'],
    });
    const out = tempDir();
    await exportStatic(manifest, store, out, { placeBlobs: 'move' });
    expect(read(out, 'index.html')).toContain('href="/list@page=2.html"');
    expect(read(out, 'index.html')).toContain('href="/about.html"');
    expect(read(out, 'list@page=2.html')).toContain('href="/s.css"');
    expect(read(out, 's.css')).toBe('a{color:red}');
  });

  it('holds a page its links call both `/` and `index.html` once, with no renamed copy', async () => {
    // A Start Bootstrap theme: the home link says `index.html`, so the copy has `/` and `/index.html`.
    const home = '<!doctype html><title>Clean Blog</title><a href="index.html">Home</a>';
    const { store, manifest } = await copyOf({
      '/': ['text/html', home],
      '/index.html': ['text/html', home],
      '/about/': ['text/html', '<a href="/about/index.html">About</a> <a href="/">Home</a>'],
      '/about/index.html': ['text/html', '<a href="/">Home</a> (served a second later)'],
      '/s.css': ['text/css', 'a{color:red}'],
    });
    const out = tempDir();
    await exportStatic(manifest, store, out, { placeBlobs: 'move' });
    const files = fs.readdirSync(out, { recursive: true, encoding: 'utf8' }).sort();
    expect(files).toEqual(['about', 'about/index.html', 'index.html', 's.css']);
    expect(read(out, 'index.html')).toBe(home);
    expect(read(out, 'about/index.html')).toContain('About');
  });
});
