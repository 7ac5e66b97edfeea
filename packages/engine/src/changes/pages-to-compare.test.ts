import { describe, expect, it } from 'vitest';
import type { Manifest, ManifestEntry } from '../types.js';
import { pagesToCompare } from './pages-to-compare.js';

/** A version of a small site: each file's body is its text, stored under its path as hash. */
function version(files: Record<string, [contentType: string, body: string]>) {
  const entries: ManifestEntry[] = Object.entries(files).map(([path, [contentType, body]]) => ({
    path,
    url: `https://example.com${path}`,
    kind: contentType.startsWith('text/html') ? 'page' : 'asset',
    status: 200,
    contentType,
    hash: `h:${path}`,
    size: body.length,
    headers: {},
  }));
  const manifest: Manifest = {
    version: 1,
    startUrl: 'https://example.com/',
    entryPath: '/',
    createdAt: '2026-11-29T00:00:00Z',
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
  const bodies = new Map(entries.map((e) => [e.hash, files[e.path]![1]]));
  return {
    manifest,
    read: async (hash: string) => new TextEncoder().encode(bodies.get(hash) ?? ''),
  };
}

const HTML = 'text/html; charset=utf-8';
const site = version({
  '/': [HTML, '<link rel=stylesheet href="css/site.css"><h1>Home</h1>'],
  '/pricing': [HTML, '<link rel=stylesheet href="/css/site.css"><p>$12</p>'],
  '/about': [HTML, '<img src="../img/team.jpg?v=2"><p>Us</p>'],
  '/plain': [HTML, '<p>No styles</p>'],
  '/new': [HTML, '<link rel=stylesheet href="/css/site.css"><p>Added</p>'],
  '/css/site.css': ['text/css', 'body { background: url(../img/paper.png) }'],
  '/css/print.css': ['text/css', 'body { color: black }'],
  '/img/team.jpg': ['image/jpeg', 'jpeg'],
  '/img/paper.png': ['image/png', 'png'],
  '/js/app.js': ['text/javascript', 'site.css'],
});
const { manifest: before } = version({
  '/': [HTML, ''],
  '/pricing': [HTML, ''],
  '/about': [HTML, ''],
  '/plain': [HTML, ''],
});

describe('pagesToCompare: the pages a visual diff renders', () => {
  it('takes the changed pages first, then the pages that use a changed stylesheet or image', async () => {
    const paths = await pagesToCompare(before, site, {
      changedPages: ['/pricing'],
      changedFiles: ['/css/site.css', '/img/team.jpg'],
      maxPages: 10,
    });
    // /new is not in the previous version: nothing to compare it with. /plain uses neither file.
    expect(paths).toEqual(['/pricing', '/', '/about']);
  });

  it('follows an image or font through the stylesheets that use it', async () => {
    const paths = await pagesToCompare(before, site, {
      changedPages: [],
      changedFiles: ['/img/paper.png'],
      maxPages: 10,
    });
    expect(paths).toEqual(['/', '/pricing']);
  });

  it('leaves out files that do not change a look (a script) and stops at the plan’s pages', async () => {
    expect(
      await pagesToCompare(before, site, {
        changedPages: ['/pricing'],
        changedFiles: ['/js/app.js'],
        maxPages: 10,
      }),
    ).toEqual(['/pricing']);
    expect(
      await pagesToCompare(before, site, {
        changedPages: ['/pricing', '/about'],
        changedFiles: ['/css/site.css'],
        maxPages: 2,
      }),
    ).toEqual(['/pricing', '/about']);
    expect(
      await pagesToCompare(before, site, {
        changedPages: [],
        changedFiles: ['/css/site.css'],
        maxPages: 1,
      }),
    ).toEqual(['/']);
  });
});
