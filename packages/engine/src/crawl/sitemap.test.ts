import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { parseSitemap } from './sitemap.js';

const urlset = (body: string) => Buffer.from(`<?xml version="1.0"?><urlset>${body}</urlset>`);

describe('parseSitemap', () => {
  it.each([
    ['&amp;', '<url><loc>https://s.test/a?x=1&amp;y=2</loc></url>'],
    ['&#38;', '<url><loc>https://s.test/a?x=1&#38;y=2</loc></url>'],
    ['&#x26;', '<url><loc>https://s.test/a?x=1&#x26;y=2</loc></url>'],
    ['CDATA', '<url><loc><![CDATA[https://s.test/a?x=1&y=2]]></loc></url>'],
    ['surrounding space', '<url><loc>\n  https://s.test/a?x=1&amp;y=2\n</loc></url>'],
  ])('decodes a <loc> written with %s', (_, body) => {
    expect(parseSitemap(urlset(body)).locations).toEqual(['https://s.test/a?x=1&y=2']);
  });

  it('reads namespaced and prefixed tags, and skips the <loc> of an image', () => {
    const xml = `<?xml version="1.0"?>
      <sm:urlset xmlns:sm="http://www.sitemaps.org/schemas/sitemap/0.9"
                 xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">
        <sm:url><sm:loc>https://s.test/a</sm:loc>
          <image:image><image:loc>https://s.test/a.png</image:loc></image:image>
        </sm:url>
        <sm:url><sm:loc>https://s.test/b</sm:loc></sm:url>
      </sm:urlset>`;
    expect(parseSitemap(Buffer.from(xml))).toEqual({
      kind: 'urlset',
      locations: ['https://s.test/a', 'https://s.test/b'],
    });
  });

  it('tells a sitemap index, gzipped or not', () => {
    const xml =
      '<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>https://s.test/s1.xml</loc></sitemap></sitemapindex>';
    const expected = { kind: 'index', locations: ['https://s.test/s1.xml'] };
    expect(parseSitemap(Buffer.from(xml))).toEqual(expected);
    expect(parseSitemap(gzipSync(Buffer.from(xml)))).toEqual(expected);
  });

  it.each([
    [
      'an unclosed document',
      '<urlset><url><loc>https://s.test/a</loc></url><url><loc>https://s.test/b',
    ],
    [
      'a stray closing tag',
      '<urlset><url><loc>https://s.test/a</loc></url></nope><url><loc>https://s.test/b</loc></url>',
    ],
    [
      'a bare ampersand',
      '<urlset><url><loc>https://s.test/a</loc></url><url><loc>https://s.test/b?x=1&y</loc></url>',
    ],
  ])('returns what it read from %s, without throwing', (_, xml) => {
    const { locations } = parseSitemap(Buffer.from(xml));
    expect(locations[0]).toBe('https://s.test/a');
  });

  it('returns nothing for bytes that are no XML', () => {
    expect(parseSitemap(Buffer.from([0xff, 0x00, 0x3c, 0x3c, 0x3e]))).toEqual({
      kind: 'urlset',
      locations: [],
    });
  });

  it('keeps at most the given number of locations', () => {
    const body = Array.from({ length: 5 }, (_, i) => `<url><loc>https://s.test/${i}</loc></url>`);
    expect(parseSitemap(urlset(body.join('')), 3).locations).toHaveLength(3);
  });
});
