import { describe, expect, it } from 'vitest';
import { homeTitle } from './home-title.js';
import { createMemoryBlobStore } from './storage/memory-blob-store.js';
import type { ManifestEntry } from './types.js';

async function copyOf(
  entryPath: string,
  files: Record<string, { status?: number; type?: string; body?: string; location?: string }>,
) {
  const store = createMemoryBlobStore();
  const entries: ManifestEntry[] = [];
  for (const [path, file] of Object.entries(files)) {
    const { hash, size } = await store.put(
      (async function* () {
        yield Buffer.from(file.body ?? '');
      })(),
    );
    entries.push({
      path,
      url: `https://example.com${path}`,
      kind: 'page',
      status: file.status ?? 200,
      contentType: file.type ?? 'text/html; charset=utf-8',
      hash,
      size,
      headers: file.location ? { location: file.location } : {},
    });
  }
  return homeTitle({ entries, entryPath }, store);
}

describe("a copy's home title", () => {
  it('is the decoded title with its whitespace collapsed', async () => {
    const title = await copyOf('/', {
      '/': { body: '<title>\n  Clean&nbsp;Blog &amp;\tFriends  </title><h1>Hi</h1>' },
      '/about.html': { body: '<title>About</title>' },
    });
    expect(title).toBe('Clean Blog & Friends');
  });

  it('follows redirects inside the copy to the home page', async () => {
    const title = await copyOf('/', {
      '/': { status: 301, body: '', location: '/en/' },
      '/en/': { status: 302, body: '', location: '/en/index.html' },
      '/en/index.html': { body: '<svg><title>logo</title></svg><title>Bakery</title>' },
    });
    expect(title).toBe('Bakery');
  });

  it('is cut to 100 characters with an ellipsis', async () => {
    const title = await copyOf('/', {
      '/': { body: `<title>${'Long title '.repeat(20)}</title>` },
    });
    expect(Array.from(title!).length).toBeLessThanOrEqual(100);
    expect(title).toMatch(/^(Long title ){8}Long title…$/);
  });

  it('is absent when the home page has no title, an empty one, or is not a page', async () => {
    expect(await copyOf('/', { '/': { body: '<h1>No title</h1>' } })).toBeUndefined();
    expect(await copyOf('/', { '/': { body: '<title>  \n </title>' } })).toBeUndefined();
    expect(await copyOf('/', { '/': { type: 'application/json', body: '{}' } })).toBeUndefined();
    expect(
      await copyOf('/', { '/': { status: 301, location: 'https://elsewhere.example/' } }),
    ).toBeUndefined();
  });
});
