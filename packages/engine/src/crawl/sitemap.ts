import { gunzipSync } from 'node:zlib';

/** `<loc>` entries of a sitemap or sitemap index (gzipped or not), and which kind it was. */
export function parseSitemap(body: Buffer): { kind: 'index' | 'urlset'; locations: string[] } {
  const bytes = body[0] === 0x1f && body[1] === 0x8b ? gunzipSync(body) : body;
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
