import type { HttpClient, HttpResponse } from '../net/http-client.js';
import type { FailureReason } from '../types.js';
import { createUrlMapper, type UrlMapper } from '../url-map.js';

/** The `code` of an error (`ETIMEDOUT`, `EREFUSEDADDRESS`), or ''. */
export function errorCode(err: unknown): string {
  return err && typeof err === 'object' && 'code' in err
    ? String((err as { code: unknown }).code)
    : '';
}

/** The failure reason a fetch error is reported under. */
export function categorize(err: unknown): FailureReason {
  switch (errorCode(err)) {
    case 'EREFUSEDADDRESS':
    case 'EBADSCHEME':
      return 'refused-address';
    case 'ETOOLARGE':
      return 'too-large';
    case 'ETIMEDOUT':
    case 'ETOOSLOW':
    case 'UND_ERR_CONNECT_TIMEOUT':
    case 'UND_ERR_HEADERS_TIMEOUT':
    case 'UND_ERR_BODY_TIMEOUT':
      return 'timeout';
    default:
      return 'network';
  }
}

/**
 * Whether a request that threw is tried again after `attempt` tries. A timeout is tried once more
 * (a server that did not answer in 30 s rarely will); a server too slow to send within a request's
 * time is no faster the next time.
 */
export function retriesRequest(err: unknown, attempt: number, retries: number): boolean {
  const reason = categorize(err);
  const tries = reason === 'timeout' ? Math.min(1, retries) : retries;
  const retriable = (reason === 'timeout' || reason === 'network') && errorCode(err) !== 'ETOOSLOW';
  return retriable && attempt < tries;
}

/** The wait before try `attempt + 1`: as asked (Retry-After), or an exponential backoff. */
export function backoffMs(attempt: number, waitMs: number): number {
  return waitMs || 250 * 2 ** attempt * (0.5 + Math.random());
}

/** Retry-After in ms (seconds or an HTTP date), at most a minute; `fallback` without one. */
export function retryAfterMs(headers: Record<string, string>, fallback: number): number {
  const value = headers['retry-after'];
  if (!value) return fallback;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.min(seconds * 1000, 60_000);
  const at = Date.parse(value);
  return Number.isFinite(at) ? Math.min(Math.max(0, at - Date.now()), 60_000) : fallback;
}

export function isBotChallenge(response: HttpResponse): boolean {
  return (
    response.headers['cf-mitigated'] === 'challenge' ||
    ((response.status === 403 || response.status === 503) &&
      (response.headers['server'] ?? '').toLowerCase().includes('cloudflare') &&
      'cf-ray' in response.headers)
  );
}

export async function collect(body: AsyncIterable<Uint8Array>): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of body) chunks.push(chunk);
  return Buffer.concat(chunks);
}

/**
 * Reads a body into memory up to `limit` bytes. A longer one (a page that declared no length) is
 * not held: what was read and the rest of the stream go on as `rest`, to be stored unparsed.
 */
export async function collectUpTo(
  body: AsyncIterable<Uint8Array>,
  limit: number,
): Promise<{ buffer: Buffer } | { rest: AsyncIterable<Uint8Array> }> {
  const iterator = body[Symbol.asyncIterator]();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const next = await iterator.next();
    if (next.done === true) return { buffer: Buffer.concat(chunks) };
    chunks.push(next.value);
    size += next.value.byteLength;
    if (size > limit) {
      return {
        rest: (async function* () {
          yield* chunks.splice(0);
          yield* { [Symbol.asyncIterator]: () => iterator };
        })(),
      };
    }
  }
}

/**
 * The site: a start address that redirects to another host (example.com → www.example.com) makes
 * the final host the site; the copy still answers the original path with the redirect.
 */
export async function resolveSite(
  client: HttpClient,
  startUrl: URL,
  signal: AbortSignal,
  includeSubdomains: boolean,
): Promise<UrlMapper> {
  let current = startUrl;
  for (let hop = 0; hop < 10; hop++) {
    let response: HttpResponse;
    try {
      response = await client.request(current.href, {
        method: 'GET',
        signal,
        followRedirects: false,
      });
    } catch {
      break;
    }
    // Only the status and Location matter here; the body is released unread (the crawl fetches it).
    await response.discard();
    const location = response.headers['location'];
    if (response.status < 300 || response.status >= 400 || !location) break;
    let next: URL;
    try {
      next = new URL(location, current);
    } catch {
      break;
    }
    if (next.host === current.host) break;
    current = next;
  }
  return createUrlMapper(current.href, { includeSubdomains });
}
