import { cleanSiteTitle } from '@mirror/contract/site-rules';
import { processHtml } from './references/index.js';
import { readBlob } from './storage/blob-utils.js';
import type { BlobStore, Manifest, ManifestEntry } from './types.js';

/** Redirects followed from the entry path to the home page. */
const MAX_HOPS = 5;
/** A home page larger than this is not read for its title. */
const MAX_HOME_BYTES = 5 * 1024 * 1024;

const isRedirect = (entry: ManifestEntry) => entry.status >= 300 && entry.status < 400;

/**
 * The title of a copy's home page (its entry page, after redirects inside the copy), decoded and
 * cleaned as a site's name (`cleanSiteTitle`); undefined when the home page has none.
 */
export async function homeTitle(
  manifest: Pick<Manifest, 'entries' | 'entryPath'>,
  store: BlobStore,
): Promise<string | undefined> {
  const byPath = new Map(manifest.entries.map((entry) => [entry.path, entry]));
  let path = manifest.entryPath;
  for (let hop = 0; hop <= MAX_HOPS; hop++) {
    const entry =
      byPath.get(path) ?? (path.endsWith('/') ? byPath.get(`${path}index.html`) : undefined);
    if (!entry) return undefined;
    if (isRedirect(entry)) {
      const location = entry.headers['location'];
      // Only redirects within the copy (rewritten to root-relative paths) lead to its home page.
      if (!location?.startsWith('/') || location.startsWith('//')) return undefined;
      path = location.split('#')[0]!;
      continue;
    }
    if (entry.status >= 300 || !/html/i.test(entry.contentType) || entry.size > MAX_HOME_BYTES) {
      return undefined;
    }
    const html = (await readBlob(store, entry.hash)).toString('utf8');
    return cleanSiteTitle(processHtml(html, entry.url, () => undefined).title) ?? undefined;
  }
  return undefined;
}
