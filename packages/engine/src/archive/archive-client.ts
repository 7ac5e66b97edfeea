/**
 * An HttpClient that answers from an archive, with no network: the engine's ordinary `mirror()`
 * runs against it as against a live site. What the archive does not hold is a 404 with an empty
 * body; redirects are followed (hops recorded) or returned as is, as the real client does; bodies
 * stream from the BlobStore and `maxBytes` fails with the real client's ETOOLARGE.
 */
import type { HttpClient, HttpResponse, RedirectHop, RequestOptions } from '../net/http-client.js';
import { NetError } from '../net/errors.js';
import { toUrl } from '../net/http-client.js';
import type { ArchivedResponse, ArchiveIndex } from './types.js';

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
const MAX_REDIRECTS = 10;

export interface ArchiveClientOptions {
  /** Redirects followed before EREDIRECTLOOP. Default 10, as the real client. */
  maxRedirects?: number;
}

export function createArchiveClient(
  index: ArchiveIndex,
  options: ArchiveClientOptions = {},
): HttpClient {
  const maxRedirects = options.maxRedirects ?? MAX_REDIRECTS;

  async function request(
    input: string | URL,
    requestOptions: RequestOptions = {},
  ): Promise<HttpResponse> {
    requestOptions.signal?.throwIfAborted();
    const follow = requestOptions.followRedirects ?? true;
    let method = (requestOptions.method ?? 'GET').toUpperCase();
    let url = toUrl(input);
    const redirects: RedirectHop[] = [];
    for (;;) {
      const found = method === 'GET' || method === 'HEAD' ? lookup(index, url) : undefined;
      const location = found?.headers['location'];
      const target =
        follow && found !== undefined && REDIRECT_STATUSES.has(found.status) && location
          ? parseLocation(location, url)
          : null;
      if (target === null) return respond(url.href, method, found, redirects, requestOptions);
      if (redirects.length >= maxRedirects) {
        throw new NetError(
          'EREDIRECTLOOP',
          `Too many redirects (more than ${maxRedirects}) from ${redirects[0]?.from ?? url.href}`,
          { url: url.href },
        );
      }
      redirects.push({ from: url.href, to: target.href, status: found?.status ?? 0 });
      if (found?.status === 303 && method !== 'HEAD') method = 'GET';
      url = target;
    }
  }

  return { request, close: async () => {} };
}

/** The engine's probe of an address a site cannot have (`fetchFallback`): a random path. */
const PROBE_PATH = /^\/mirror-probe-[a-z0-9]+$/;

/**
 * The archived response for a URL: as is, then with or without an empty query (`?`). A probe of
 * an unknown address gets the archive's answer to such a probe (an export of a copy holds the
 * site's answer to its own, at another random path): the copy keeps its "page not found" or app
 * shell.
 */
function lookup(index: ArchiveIndex, url: URL): ArchivedResponse | undefined {
  const exact = index.get(url.href);
  if (exact !== undefined) return exact;
  if (url.href.endsWith('?')) return index.get(url.href.slice(0, -1));
  if (url.search === '') {
    const withQuery = index.get(`${url.href}?`);
    if (withQuery !== undefined) return withQuery;
  }
  if (PROBE_PATH.test(url.pathname)) {
    for (const response of index.responses()) {
      const archived = new URL(response.url);
      if (archived.origin === url.origin && PROBE_PATH.test(archived.pathname)) return response;
    }
  }
  return undefined;
}

function respond(
  href: string,
  method: string,
  found: ArchivedResponse | undefined,
  redirects: RedirectHop[],
  options: RequestOptions,
): HttpResponse {
  const status = found?.status ?? 404;
  const headers = found === undefined ? {} : { ...found.headers };
  const hasBody = found !== undefined && method !== 'HEAD' && status !== 204 && status !== 304;
  const { maxBytes } = options;
  if (hasBody && maxBytes !== undefined && found.size > maxBytes) {
    throw tooLarge(href, maxBytes);
  }
  let used = false;
  async function* stream(): AsyncGenerator<Uint8Array> {
    if (!hasBody) return;
    let received = 0;
    for await (const chunk of found.body()) {
      options.signal?.throwIfAborted();
      received += chunk.byteLength;
      if (maxBytes !== undefined && received > maxBytes) throw tooLarge(href, maxBytes);
      yield chunk;
    }
  }
  return {
    url: href,
    status,
    headers,
    redirects,
    // The archive's date: a copy made from it keeps when each file was fetched.
    ...(found ? { fetchedAt: found.date } : {}),
    body: {
      [Symbol.asyncIterator]() {
        if (used) throw new NetError('EBODYUSED', `The body of ${href} was already read`);
        used = true;
        return stream();
      },
    },
    discard: async () => {
      used = true;
    },
  };
}

function parseLocation(location: string, base: URL): URL | null {
  try {
    const url = new URL(location, base);
    url.hash = '';
    return url;
  } catch {
    return null;
  }
}

function tooLarge(url: string, maxBytes: number): NetError {
  return new NetError('ETOOLARGE', `Response body of ${url} exceeds ${maxBytes} bytes`, { url });
}
