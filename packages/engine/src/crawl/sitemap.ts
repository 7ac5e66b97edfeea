import { gunzipSync } from 'node:zlib';

/** A sitemap holds at most 50,000 URLs in 50 MB (sitemaps.org); more unpacked is a bomb. */
export const MAX_SITEMAP_BYTES = 50 * 1024 * 1024;

/**
 * `<loc>` entries of a sitemap or sitemap index (gzipped or not), and which kind it was. A gzipped
 * one that unpacks past MAX_SITEMAP_BYTES throws (RangeError) without unpacking the rest.
 */
export function parseSitemap(body: Buffer): { kind: 'index' | 'urlset'; locations: string[] } {
  const bytes =
    body[0] === 0x1f && body[1] === 0x8b
      ? gunzipSync(body, { maxOutputLength: MAX_SITEMAP_BYTES })
      : body;
  const xml = bytes.toString('utf8');
  const kind = /<sitemapindex[\s>]/i.test(xml) ? 'index' : 'urlset';
  const locations: string[] = [];
  for (const match of xml.matchAll(
    /<loc>\s*(?:<!\[CDATA\[)?\s*([^<\]]+?)\s*(?:\]\]>)?\s*<\/loc>/gi,
  )) {
    locations.push(decodeXmlEntities(match[1]!));
  }
  return { kind, locations };
}

function decodeXmlEntities(text: string): string {
  return text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&');
}
