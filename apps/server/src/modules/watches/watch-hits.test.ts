import type { ChangeReport, WatchRule } from '@mirror/contract';
import { compareVersions, type Manifest, type ManifestEntry } from '@mirror/engine';
import { describe, expect, it } from 'vitest';
import { findWatchHits, partText } from './watch-hits.js';

/** Two versions of a site as the engine would leave them: pages by path, bodies by hash. */
function version(pages: Record<string, string>) {
  const bodies = new Map<string, Uint8Array>();
  const entries = Object.entries(pages).map(([path, html], i): ManifestEntry => {
    const hash = `${path}#${html.length}#${i}#${html}`;
    bodies.set(hash, new TextEncoder().encode(html));
    return {
      url: `https://shop.example${path}`,
      path,
      kind: 'page',
      status: 200,
      contentType: 'text/html',
      hash,
      size: html.length,
      headers: {},
    } as unknown as ManifestEntry;
  });
  return {
    manifest: { entries } as unknown as Manifest,
    read: async (hash: string) => bodies.get(hash)!,
  };
}

const rule = (r: Partial<WatchRule>): WatchRule => ({
  id: 'w',
  scope: 'site',
  pages: [],
  selector: null,
  textFallback: null,
  keywords: [],
  minWords: 0,
  ...r,
});

const page = (body: string) =>
  `<!doctype html><html><head><title>T</title></head><body>${body}</body></html>`;

async function hits(
  before: Record<string, string>,
  after: Record<string, string>,
  watches: WatchRule[],
) {
  const a = version(before);
  const b = version(after);
  const report: ChangeReport = await compareVersions(a, b);
  return findWatchHits(a, b, report, watches);
}

describe('watch hits', () => {
  it('finds a part by its selector, else by the start of its text, innermost first, never in scripts', () => {
    const html = page(
      '<main><div class="card"><h2>Pro</h2><p id="price">Pro $9 a month</p></div><script>var x = "Pro $9";</script></main>',
    );
    expect(partText(html, { selector: '#price', textFallback: null })).toBe('Pro $9 a month');
    // The site renamed the id: the fallback finds the paragraph, not the card or the body.
    expect(partText(html, { selector: '#cost', textFallback: 'pro $9' })).toBe('Pro $9 a month');
    expect(partText(html, { selector: '#cost', textFallback: 'Enterprise' })).toBeNull();
  });

  it('tells a change inside a watched part, not outside it, and a part that is gone', async () => {
    const before = { '/': page('<p id="price">Pro $9</p><p>News: spring</p>') };
    const part = rule({ scope: 'part', pages: ['/'], selector: '#price', textFallback: 'Pro' });
    expect(
      await hits(before, { '/': page('<p id="price">Pro $9</p><p>News: summer</p>') }, [part]),
    ).toEqual([]);
    expect(
      await hits(before, { '/': page('<p id="price">Pro $12</p><p>News: spring</p>') }, [part]),
    ).toEqual([
      {
        watchId: 'w',
        reasons: [
          { kind: 'part-changed', path: '/', words: 2, before: 'Pro $9', after: 'Pro $12' },
        ],
      },
    ]);
    expect(await hits(before, { '/': page('<p>News: spring</p>') }, [part])).toEqual([
      { watchId: 'w', reasons: [{ kind: 'part-missing', path: '/', before: 'Pro $9' }] },
    ]);
    // A date in the part is not a change.
    const dated = rule({ scope: 'part', pages: ['/'], selector: '#when', textFallback: null });
    expect(
      await hits(
        { '/': page('<p id="when">Updated November 27, 2026</p><p>a</p>') },
        { '/': page('<p id="when">Updated November 28, 2026</p><p>b</p>') },
        [dated],
      ),
    ).toEqual([]);
  });

  it('tells keywords appearing or disappearing, as asked, in its pages only', async () => {
    const before = {
      '/mug': page('<p>Blue mug: in stock</p>'),
      '/cup': page('<p>Cup: sold out</p>'),
    };
    const after = {
      '/mug': page('<p>Blue mug: SOLD OUT</p>'),
      '/cup': page('<p>Cup: in stock</p>'),
    };
    const appears = rule({ keywords: [{ text: 'Sold out', when: 'appears' }] });
    const either = rule({ id: 'e', keywords: [{ text: 'sold out', when: 'either' }] });
    const cupOnly = rule({
      id: 'c',
      scope: 'pages',
      pages: ['/cup'],
      keywords: [{ text: 'sold out', when: 'appears' }],
    });
    expect(await hits(before, after, [appears, either, cupOnly])).toEqual([
      { watchId: 'w', reasons: [{ kind: 'keyword-appeared', path: '/mug', keyword: 'Sold out' }] },
      {
        watchId: 'e',
        reasons: [
          { kind: 'keyword-appeared', path: '/mug', keyword: 'sold out' },
          { kind: 'keyword-disappeared', path: '/cup', keyword: 'sold out' },
        ],
      },
    ]);
  });

  it('waits for the minimum number of changed words; a page added or removed always counts', async () => {
    const before = { '/': page('<p>one two three</p>'), '/old': page('<p>old</p>') };
    const small = { '/': page('<p>one two four</p>'), '/old': page('<p>old</p>') };
    const big = rule({ minWords: 5 });
    expect(await hits(before, small, [big])).toEqual([]);
    expect(
      await hits(before, { '/': page('<p>one two three</p>'), '/new': page('<p>new</p>') }, [big]),
    ).toEqual([
      {
        watchId: 'w',
        reasons: [
          { kind: 'page-added', path: '/new' },
          { kind: 'page-removed', path: '/old' },
        ],
      },
    ]);
  });
});
