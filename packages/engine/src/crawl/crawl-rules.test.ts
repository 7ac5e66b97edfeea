import { describe, expect, it } from 'vitest';
import { createUrlMapper } from '../url-map.js';
import { parseRobots } from './robots.js';
import { createScope } from './scope.js';
import { parseSitemap } from './sitemap.js';
import { createShapeBudget, trapReason } from './traps.js';
import { gzipSync } from 'node:zlib';

const now = new Date('2026-11-22T00:00:00Z');

describe('crawler traps', () => {
  it.each([
    ['https://s.test/a/a/a/a/page', /repeats 4 times/],
    ['https://s.test/x/b/c/b/c/b/c/', /repeating path pattern/],
    ['https://s.test/calendar/2091/03', /calendar date 2091-03/],
    ['https://s.test/events?from=1970-01', /calendar date 1970-01/],
    [`https://s.test/${'deep/'.repeat(31)}`, /too deep|repeats/],
    [`https://s.test/?q=${'x'.repeat(2100)}`, /longer than/],
  ])('flags %s', (url, reason) => {
    expect(trapReason(new URL(url), now)).toMatch(reason);
  });

  it.each([
    'https://s.test/blog/2026/11/post',
    'https://s.test/a/b/c/d',
    'https://s.test/docs/api/v2/api/index.html',
  ])('lets %s through', (url) => {
    expect(trapReason(new URL(url), now)).toBeNull();
  });

  it('caps URLs of one pattern', () => {
    const budget = createShapeBudget(3);
    const take = (n: number) => budget.take(new URL(`https://s.test/list?page=${n}`));
    expect([1, 2, 3, 4, 5].map(take)).toEqual([true, true, true, false, false]);
    expect(budget.take(new URL('https://s.test/other?page=1'))).toBe(true);
    // Numbered paths are ordinary pages (posts, products): only the page limit bounds them.
    expect([1, 2, 3, 4, 5].every((n) => budget.take(new URL(`https://s.test/p/${n}.html`)))).toBe(
      true,
    );
  });
});

describe('scope', () => {
  const mapper = createUrlMapper('https://www.site.test/', { includeSubdomains: true });
  const scope = createScope({ mapper, include: ['/docs/'], exclude: [/\.pdf$/], maxDepth: 2 });

  it('follows the site and its subdomains within depth and patterns', () => {
    expect(scope.pageRefusal(new URL('https://www.site.test/docs/a'), 1)).toBeNull();
    expect(scope.pageRefusal(new URL('https://blog.site.test/docs/a'), 1)).toBeNull();
    expect(scope.pageRefusal(new URL('https://other.test/docs/a'), 1)).toBe('other site');
    expect(scope.pageRefusal(new URL('https://www.site.test/docs/a'), 3)).toBe('deeper than 2');
    expect(scope.pageRefusal(new URL('https://www.site.test/about'), 1)).toBe(
      'not matched by include patterns',
    );
    expect(scope.pageRefusal(new URL('https://www.site.test/docs/a.pdf'), 1)).toBe(
      'matched by an exclude pattern',
    );
    expect(scope.assetRefusal(new URL('https://cdn.test/x.png'))).toBeNull();
  });
});

describe('robots.txt and sitemaps', () => {
  it('refuses a gzipped sitemap that unpacks past 50 MB, without unpacking it all', () => {
    // 64 KB of gzip that unpacks to 64 MB; its gzip members repeated, 1.6 GB.
    const member = gzipSync(Buffer.alloc(64 * 1024 * 1024), { level: 9 });
    const bomb = Buffer.concat(Array.from({ length: 25 }, () => member));
    const before = process.memoryUsage().arrayBuffers;
    expect(() => parseSitemap(bomb)).toThrow(RangeError);
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(200 * 1024 * 1024);
  });

  it('reads rules for our agent, crawl delay and sitemaps', () => {
    const robots = parseRobots(
      'https://s.test/robots.txt',
      'User-agent: *\nDisallow: /private/\nCrawl-delay: 2\nSitemap: https://s.test/map.xml\n',
      'MirrorBot/1.0',
    );
    expect(robots.isAllowed('https://s.test/private/x')).toBe(false);
    expect(robots.isAllowed('https://s.test/public')).toBe(true);
    expect(robots.crawlDelayMs).toBe(2000);
    expect(robots.sitemaps).toEqual(['https://s.test/map.xml']);
  });

  it('parses url sets, indexes, CDATA, entities and gzip', () => {
    const set = parseSitemap(
      Buffer.from(
        '<urlset><url><loc> https://s.test/a?x=1&amp;y=2 </loc></url><url><loc><![CDATA[https://s.test/b]]></loc></url></urlset>',
      ),
    );
    expect(set).toEqual({
      kind: 'urlset',
      locations: ['https://s.test/a?x=1&y=2', 'https://s.test/b'],
    });
    const index = parseSitemap(
      gzipSync(
        Buffer.from(
          '<sitemapindex><sitemap><loc>https://s.test/s1.xml</loc></sitemap></sitemapindex>',
        ),
      ),
    );
    expect(index).toEqual({ kind: 'index', locations: ['https://s.test/s1.xml'] });
  });
});
