import { describe, expect, it } from 'vitest';
import type { Manifest, ManifestEntry } from '../types.js';
import { mergeManifests } from './recapture.js';

const entry = (path: string, hash: string, extra: Partial<ManifestEntry> = {}): ManifestEntry => ({
  path,
  url: `https://site.test${path}`,
  kind: path.endsWith('.png') ? 'asset' : 'page',
  status: 200,
  contentType: path.endsWith('.png') ? 'image/png' : 'text/html',
  hash,
  size: 10,
  headers: {},
  ...extra,
});

const manifest = (entries: ManifestEntry[], failed: string[] = []): Manifest => ({
  version: 1,
  startUrl: 'https://site.test/',
  entryPath: '/',
  createdAt: '2026-11-27T00:00:00.000Z',
  entries,
  failures: failed.map((path) => ({
    url: `https://site.test${path}`,
    reason: 'http-error',
    detail: 'HTTP 500',
    status: 500,
  })),
  failureCounts: failed.length ? { 'http-error': failed.length, timeout: 2 } : {},
  notes: [],
  stats: {
    pages: 2,
    assets: 0,
    bytes: 20,
    requests: 3,
    notModified: 0,
    rendered: 0,
    durationMs: 5,
  },
});

describe('mergeManifests', () => {
  it('takes the page captured again and the file it now has, and forgets that file failed', () => {
    const base = manifest([entry('/', 'old-home'), entry('/about', 'about')], ['/hero.png']);
    const patch = manifest([
      entry('/', 'new-home', { rendered: true }),
      entry('/hero.png', 'hero'),
    ]);

    const merged = mergeManifests(base, patch);

    expect(merged.entries.map((e) => [e.path, e.hash])).toEqual([
      ['/', 'new-home'],
      ['/about', 'about'],
      ['/hero.png', 'hero'],
    ]);
    expect(merged.failures).toEqual([]);
    expect(merged.failureCounts).toEqual({ 'http-error': 0, timeout: 2 });
    expect(merged.entryPath).toBe('/');
  });
});
