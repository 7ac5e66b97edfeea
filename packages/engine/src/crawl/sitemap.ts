import { gunzipSync } from 'node:zlib';
import sax from 'sax';

/** A sitemap holds at most 50,000 URLs in 50 MB (sitemaps.org); more unpacked is a bomb. */
export const MAX_SITEMAP_BYTES = 50 * 1024 * 1024;
/** `<loc>` entries read from one file at most (sitemaps.org's limit). */
export const MAX_SITEMAP_LOCATIONS = 50_000;

export interface Sitemap {
  kind: 'index' | 'urlset';
  locations: string[];
}

/** Elements whose `<loc>` names a page (`url`) or another sitemap (`sitemap`). */
const LOC_PARENTS: ReadonlySet<string> = new Set(['url', 'sitemap']);

function localName(name: string): string {
  return name.slice(name.indexOf(':') + 1);
}

/**
 * `<loc>` entries of a sitemap or sitemap index (gzipped or not), and which kind it was. Entities
 * (`&amp;`, `&#38;`) and CDATA are decoded; prefixed tags (`<sm:loc>`) count by their local name,
 * and only a `<loc>` of a `<url>` or `<sitemap>` (not `<image:loc>`) is taken. Malformed XML ends
 * nothing: what was read is returned. A gzipped one that unpacks past MAX_SITEMAP_BYTES throws
 * (RangeError) without unpacking the rest.
 */
export function parseSitemap(body: Buffer, maxLocations = MAX_SITEMAP_LOCATIONS): Sitemap {
  const bytes =
    body[0] === 0x1f && body[1] === 0x8b
      ? gunzipSync(body, { maxOutputLength: MAX_SITEMAP_BYTES })
      : body;
  const sitemap: Sitemap = { kind: 'urlset', locations: [] };
  const open: string[] = [];
  let loc: string | null = null;
  // Lenient mode: unclosed tags and stray text are read past, as browsers' feed readers do.
  const parser = sax.parser(false, { lowercase: true });
  parser.onopentag = (tag) => {
    const name = localName(tag.name);
    if (name === 'sitemapindex') sitemap.kind = 'index';
    if (name === 'loc' && LOC_PARENTS.has(open[open.length - 1] ?? '')) loc = '';
    open.push(name);
  };
  parser.ontext = parser.oncdata = (text) => {
    if (loc !== null) loc += text;
  };
  parser.onclosetag = () => {
    const name = open.pop();
    if (name !== 'loc' || loc === null) return;
    const location = loc.trim();
    loc = null;
    if (location && sitemap.locations.length < maxLocations) sitemap.locations.push(location);
  };
  parser.onerror = () => {
    // Go on after the error: what follows may still be read.
    parser.error = null as unknown as Error;
  };
  try {
    parser.write(bytes.toString('utf8')).close();
  } catch {
    // a parser that gave up: keep what it read
  }
  return sitemap;
}
