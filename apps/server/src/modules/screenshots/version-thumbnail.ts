/**
 * A thumbnail of a mirrored version, made without any network: Chromium opens the copy on an
 * origin that does not exist and every request is answered from the manifest and the blob store.
 * Paths the copy does not have get a 404; any other host is refused.
 */
import {
  readBlob,
  settledLocally,
  type BlobStore,
  type Manifest,
  type ManifestEntry,
} from '@mirror/engine';
import type { BrowserLauncher } from '../../platform/browser/browser-launcher.js';
import { takeThumbnail, THUMBNAIL_PAGE, trackNetworkIdle } from './thumbnail.js';

/** `.invalid` never resolves (RFC 2606), and Chromium is not allowed to try anyway. */
export const THUMBNAIL_ORIGIN = 'https://mirror-copy.invalid';

export const VERSION_THUMBNAIL_DEFAULTS = {
  timeoutMs: 15_000,
  settleQuietMs: 200,
  settleMaxMs: 1_000,
  maxRedirects: 5,
} as const;

export interface VersionThumbnailOptions {
  browser: BrowserLauncher;
  timeoutMs?: number;
}

const REDIRECT = new Set([301, 302, 303, 307, 308]);

/** The copy's entry for a path (and query), with the index and `.html` fallbacks of the host. */
export function findEntry(
  byPath: ReadonlyMap<string, ManifestEntry>,
  pathAndQuery: string,
): ManifestEntry | undefined {
  const exact = byPath.get(pathAndQuery);
  if (exact) return exact;
  const path = pathAndQuery.split('?')[0]!;
  const candidates = path.endsWith('/')
    ? [path, `${path}index.html`, `${path}index.htm`]
    : [path, `${path}/`, `${path}/index.html`, `${path}.html`, `${path}.htm`];
  for (const candidate of candidates) {
    const entry = byPath.get(candidate);
    if (entry) return entry;
  }
  return undefined;
}

/** Follows the copy's own redirects (same origin only) to the entry that has a body. */
function resolveEntry(
  byPath: ReadonlyMap<string, ManifestEntry>,
  url: URL,
): ManifestEntry | undefined {
  let current = url;
  for (let hop = 0; hop <= VERSION_THUMBNAIL_DEFAULTS.maxRedirects; hop++) {
    const entry = findEntry(byPath, `${current.pathname}${current.search}`);
    const location = entry?.headers.location;
    if (!entry || !REDIRECT.has(entry.status) || location === undefined) return entry;
    current = new URL(location, current);
    if (current.origin !== THUMBNAIL_ORIGIN) return undefined;
  }
  return undefined;
}

function headersOf(entry: ManifestEntry): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(entry.headers)) {
    if (name.toLowerCase() !== 'location') headers[name.toLowerCase()] = value;
  }
  headers['content-type'] = entry.contentType;
  return headers;
}

/** A JPEG of the copy's entry page, first screen (see THUMBNAIL). */
export async function captureVersionThumbnail(
  manifest: Manifest,
  blobs: BlobStore,
  options: VersionThumbnailOptions,
): Promise<Buffer> {
  const timeoutMs = options.timeoutMs ?? VERSION_THUMBNAIL_DEFAULTS.timeoutMs;
  const byPath = new Map(manifest.entries.map((entry) => [entry.path, entry]));
  const signal = AbortSignal.timeout(timeoutMs);
  const deadline = Date.now() + timeoutMs;
  try {
    return await options.browser.withPage({ ...THUMBNAIL_PAGE, signal }, async (page, context) => {
      await context.route('**/*', async (route) => {
        if (await settledLocally(route)) return;
        const url = new URL(route.request().url());
        if (url.origin !== THUMBNAIL_ORIGIN) return route.abort('blockedbyclient');
        const entry = resolveEntry(byPath, url);
        if (!entry || REDIRECT.has(entry.status)) {
          return route.fulfill({ status: 404, contentType: 'text/plain', body: 'Not found' });
        }
        try {
          await route.fulfill({
            status: entry.status,
            headers: headersOf(entry),
            body: await readBlob(blobs, entry.hash),
          });
        } catch {
          await route.abort('failed').catch(() => undefined);
        }
      });
      const waitForIdle = trackNetworkIdle(page);
      const entryUrl = new URL(manifest.entryPath, THUMBNAIL_ORIGIN).href;
      const loadBudget = Math.max(1_000, deadline - Date.now() - 3_000);
      await page.goto(entryUrl, { waitUntil: 'load', timeout: loadBudget }).catch((error) => {
        // A resource that never finishes holds `load` back: draw what is there.
        if (!(error instanceof Error && error.name === 'TimeoutError')) throw error;
      });
      await waitForIdle(
        VERSION_THUMBNAIL_DEFAULTS.settleQuietMs,
        Math.min(VERSION_THUMBNAIL_DEFAULTS.settleMaxMs, deadline - Date.now() - 2_000),
      );
      return await takeThumbnail(page, deadline - Date.now());
    });
  } catch (error) {
    if (signal.aborted) throw new Error(`thumbnail of the copy took over ${timeoutMs} ms`);
    throw error;
  }
}
