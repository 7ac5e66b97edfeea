/**
 * CORS as a browser applies it, for route handlers that answer a page's requests from Node.
 *
 * Playwright's `route.fulfill` adds `Access-Control-Allow-Origin: <the page's origin>` (with
 * credentials allowed) to any cross-origin answer that has none, and answers every preflight
 * itself with "allowed" before a route handler sees it. So a script in a routed page could read
 * whatever the handler's client can fetch (with private networks allowed: the API on loopback),
 * and send any method with any header. A handler that calls these first asks the server's own
 * preflight, like Chromium would, and refuses a cross-origin answer that does not allow the page's
 * origin; an answer that does goes to Chromium with its own headers, and Chromium checks the rest
 * (credentials) as usual.
 */
import type { Request } from 'playwright-core';
import type { HttpClient } from '../net/http-client.js';

const SIMPLE_METHODS = new Set(['GET', 'HEAD', 'POST']);
/** Request headers a page may set without a preflight (Fetch's CORS-safelisted names). */
const SAFELISTED_HEADERS = new Set(['accept', 'accept-language', 'content-language', 'range']);
const SIMPLE_CONTENT_TYPES = new Set([
  'application/x-www-form-urlencoded',
  'multipart/form-data',
  'text/plain',
]);
/** Headers the browser itself adds to a request (never a page's own). */
const BROWSER_HEADERS = new Set([
  'user-agent',
  'referer',
  'origin',
  'cookie',
  'host',
  'connection',
  'content-length',
  'accept-encoding',
  'cache-control',
  'pragma',
  'upgrade-insecure-requests',
]);

/**
 * The origin a request is made for under CORS, or null when CORS does not apply: navigations
 * (documents and frames), same-origin requests, and no-cors requests (an image, a classic script,
 * a style sheet), which carry no `Origin` when they are GETs and whose answer the page cannot read.
 */
export function corsOriginOf(request: Request, url: string): string | null {
  if (request.resourceType() === 'document') return null;
  const origin = request.headers()['origin'];
  if (origin === undefined) return null;
  return new URL(url).origin === origin ? null : origin;
}

/** The names of the headers a page set that a preflight must allow, lower case and sorted. */
function unsafeHeaderNames(headers: Record<string, string>): string[] {
  const names: string[] = [];
  for (const [name, value] of Object.entries(headers)) {
    const key = name.toLowerCase();
    if (BROWSER_HEADERS.has(key) || key.startsWith('sec-')) continue;
    if (key === 'content-type') {
      const essence = value.split(';')[0]!.trim().toLowerCase();
      if (!SIMPLE_CONTENT_TYPES.has(essence)) names.push(key);
      continue;
    }
    if (!SAFELISTED_HEADERS.has(key)) names.push(key);
  }
  return names.sort();
}

/** Whether an answer's `Access-Control-Allow-Origin` lets a page of `origin` read it. */
export function corsAllows(origin: string, headers: Record<string, string>): boolean {
  const allowed = headers['access-control-allow-origin']?.trim();
  return allowed === '*' || allowed === origin;
}

/** The values of a comma-separated header, trimmed, without empty ones. */
function listOf(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
}

/**
 * Whether a cross-origin request may be sent: true for a simple one (GET, HEAD or POST with only
 * safelisted headers); otherwise the server's answer to an OPTIONS preflight, asked through
 * `client`, must be a 2xx that allows the origin, the method and every header the page set.
 */
export async function preflightAllows(
  client: HttpClient,
  url: string,
  origin: string,
  method: string,
  request: Request,
  options: { signal?: AbortSignal; maxRequestMs?: number } = {},
): Promise<boolean> {
  const headers = request.headers();
  const unsafe = unsafeHeaderNames(headers);
  if (SIMPLE_METHODS.has(method) && unsafe.length === 0) return true;
  const asked: Record<string, string> = {
    accept: '*/*',
    origin,
    'access-control-request-method': method,
  };
  if (unsafe.length > 0) asked['access-control-request-headers'] = unsafe.join(',');
  if (headers['user-agent']) asked['user-agent'] = headers['user-agent'];
  if (headers['referer']) asked['referer'] = headers['referer'];
  const response = await client.request(url, {
    method: 'OPTIONS',
    headers: asked,
    followRedirects: false,
    maxBytes: 64 * 1024,
    ...options,
  });
  await response.discard();
  if (response.status < 200 || response.status > 299) return false;
  if (!corsAllows(origin, response.headers)) return false;
  const methods = listOf(response.headers['access-control-allow-methods']);
  if (!SIMPLE_METHODS.has(method) && !methods.includes(method) && !methods.includes('*')) {
    return false;
  }
  const allowedHeaders = listOf(response.headers['access-control-allow-headers']).map((h) =>
    h.toLowerCase(),
  );
  return unsafe.every(
    (name) =>
      allowedHeaders.includes(name) || (allowedHeaders.includes('*') && name !== 'authorization'),
  );
}

/**
 * The origin a request carries after a redirect hop from `from` to `to`: a redirect to another
 * origin, from a URL not of the request's own origin, makes it "null" (Fetch's tainted origin).
 */
export function originAfterRedirect(origin: string, from: string, to: string): string {
  const fromOrigin = new URL(from).origin;
  return new URL(to).origin !== fromOrigin && origin !== fromOrigin ? 'null' : origin;
}
