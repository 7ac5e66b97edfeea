/**
 * The engine's HTTP client: undici with keep-alive and HTTP/2 (when the server offers it through
 * ALPN), every connection guarded by the address policy, redirects followed by hand so each hop is
 * re-checked, bodies streamed (never buffered), decoded and capped, every request bounded in time
 * (request-clock.ts), and no server able to crash the process (paused-parser.test.ts: undici 8
 * finishes a paused parser itself, where undici 7 asserted and killed the process, issue 5360).
 */
import { createRequire } from 'node:module';
import { isIP } from 'node:net';
import { Readable, pipeline } from 'node:stream';
import zlib from 'node:zlib';
import type * as Undici from 'undici';
import type { Dispatcher } from 'undici';
import { parseHostAsIp } from './address-policy.js';
import { dispatch, type RawResponse, type ResponseBody } from './dispatch.js';
import { NetError, RefusedAddressError } from './errors.js';
import { RequestClock, type SpeedRule } from './request-clock.js';
import {
  assertHttpScheme,
  createAddressCheck,
  createSafeLookup,
  type SafeLookupOptions,
} from './safe-lookup.js';

export interface HttpClientOptions extends SafeLookupOptions {
  userAgent?: string;
  /** Connect, response-headers and body-idle timeout (each, not in total). Default 30 s. */
  timeoutMs?: number;
  /**
   * Longest a request may take in total, from sending it to the last body byte, redirects
   * included; past it the request fails with ETOOSLOW (and an unread body is released).
   * Default 120 s; Infinity turns it off.
   */
  maxRequestMs?: number;
  /**
   * Slowest average body speed accepted, in bytes per second of waiting for the server, once the
   * client has waited `minSpeedAfterMs` for the body; slower fails with ETOOSLOW. Default 1024;
   * 0 turns the rule off.
   */
  minBytesPerSecond?: number;
  /** Default 15 s. */
  minSpeedAfterMs?: number;
  /** Open connections per origin. Default 6. */
  connectionsPerHost?: number;
  /** Redirects followed before EREDIRECTLOOP. Default 10. */
  maxRedirects?: number;
  /**
   * TEST-ONLY seam: TLS trust roots (PEM) that REPLACE the system ones, for fixture servers with
   * self-signed certificates. Never set in production.
   */
  tlsCa?: string | string[];
}

export interface RequestOptions {
  /** Default GET. */
  method?: string;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** Decoded body bytes allowed; more aborts the body with ETOOLARGE. */
  maxBytes?: number;
  /** Overrides the client's maxRequestMs for this request. */
  maxRequestMs?: number;
  /** Default true. With false a 3xx is returned as is (the mirror keeps redirects as redirects). */
  followRedirects?: boolean;
  /**
   * Request body (a page's POST, replayed by the render tier). Dropped, with the method turned to
   * GET, when a redirect says so (303, or 301/302 after a POST), as browsers do.
   */
  body?: Uint8Array | string;
}

export interface RedirectHop {
  from: string;
  to: string;
  status: number;
}

export interface HttpResponse {
  /** The final URL, after redirects (without fragment). */
  url: string;
  status: number;
  /**
   * Response headers, names lower-case; repeated headers joined with ', '. When the body was
   * decoded, content-encoding and content-length are removed (they describe the wire bytes).
   */
  headers: Record<string, string>;
  redirects: RedirectHop[];
  /** When the origin answered, when that was not just now: an archived response's date. */
  fetchedAt?: Date;
  /**
   * The body, decoded, streamed; can be iterated once. Errors carry a NetError code. Stopping
   * early (break, throw) releases the connection.
   */
  body: AsyncIterable<Uint8Array>;
  /**
   * Releases the body, read or not, partly read or not (lets the connection be reused when what
   * is left is small and already there). A body neither read to the end nor discarded holds its
   * connection until the request's deadline (maxRequestMs).
   */
  discard(): Promise<void>;
}

export interface HttpClient {
  request(url: string | URL, options?: RequestOptions): Promise<HttpResponse>;
  /** Closes the pooled connections; waits for requests in flight. */
  close(): Promise<void>;
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
const CREDENTIAL_HEADERS = ['authorization', 'cookie', 'proxy-authorization'];
const TIMEOUT_CODES = new Set([
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'ETIMEDOUT',
]);
/** The server's answer is not HTTP we can read, or was cut short of its declared end. */
const BAD_RESPONSE_CODES = new Set([
  'UND_ERR_HEADERS_OVERFLOW',
  'UND_ERR_RES_CONTENT_LENGTH_MISMATCH',
  'UND_ERR_RES_EXCEEDED_MAX_SIZE',
]);
/**
 * An unwanted body (redirect, discard) is read rather than destroyed only when it is small and
 * arrives promptly: reading keeps the connection for the next request, but a big or slow body is
 * cheaper to drop with its connection than to wait for.
 */
const RELEASE_LIMIT = 64 * 1024;
const RELEASE_GRACE_MS = 1_000;

// The two parts of undici the client uses, not its entry point: that loads fetch, WebSocket,
// caches and mocks too, 109 modules and a quarter of a plain run's start-up (0.1 CPU-s; the
// package has no export map, and the client only dispatches, so `request()` is not needed).
const requireUndici = createRequire(import.meta.url);
const Agent = requireUndici('undici/lib/dispatcher/agent.js') as typeof Undici.Agent;
const buildConnector = requireUndici('undici/lib/core/connect.js') as typeof Undici.buildConnector;

/** A content encoding the client (and the archive reader) decode. */
export type Encoding = 'gzip' | 'deflate' | 'br';

/**
 * An undici connector that applies the address policy: IP-literal hosts (which Node connects to
 * without calling `lookup`) are checked here, host names through the safe lookup at connect time.
 */
export function createSafeConnector(
  options: SafeLookupOptions & { timeoutMs?: number; tlsCa?: string | string[] },
): Undici.buildConnector.connector {
  const check = createAddressCheck(options);
  const connect = buildConnector({
    allowH2: true,
    timeout: options.timeoutMs ?? 30_000,
    lookup: createSafeLookup(options),
    ...(options.tlsCa === undefined ? {} : { ca: options.tlsCa }),
  });
  return (connectOptions, callback) => {
    const { hostname } = connectOptions;
    const literal = parseHostAsIp(hostname);
    try {
      if (literal !== null) check(hostname, literal);
      else if (isIP(hostname) !== 0) throw new RefusedAddressError(hostname, hostname, 'invalid');
    } catch (error) {
      callback(error as Error, null);
      return;
    }
    connect(connectOptions, callback);
  };
}

/** The URL to request, without its fragment; EINVALIDURL when it is none. */
export function toUrl(input: string | URL): URL {
  try {
    const url = new URL(input);
    url.hash = '';
    return url;
  } catch (error) {
    throw new NetError('EINVALIDURL', `Invalid URL: ${String(input)}`, { cause: error });
  }
}

/** The redirect target; null when the Location cannot be read (the 3xx is then final). */
function parseLocation(location: string, base: URL): URL | null {
  try {
    return new URL(location, base);
  } catch {
    return null;
  }
}

/** Encodings to undo, outermost first; null when one is unknown (the body is left as sent). */
export function decodingChain(contentEncoding: string | undefined): Encoding[] | null {
  if (contentEncoding === undefined) return [];
  const chain: Encoding[] = [];
  for (const token of contentEncoding.split(',')) {
    const name = token.trim().toLowerCase();
    if (name === '' || name === 'identity') continue;
    if (name === 'gzip' || name === 'x-gzip') chain.push('gzip');
    else if (name === 'deflate') chain.push('deflate');
    else if (name === 'br') chain.push('br');
    else return null;
  }
  return chain.reverse();
}

function createDecoder(
  encoding: Encoding,
  head: Uint8Array,
): zlib.Gunzip | zlib.BrotliDecompress | zlib.Inflate | zlib.InflateRaw {
  // Lenient flushing, like browsers: a body cut short still yields what arrived.
  const flush = { flush: zlib.constants.Z_SYNC_FLUSH, finishFlush: zlib.constants.Z_SYNC_FLUSH };
  if (encoding === 'gzip') return zlib.createGunzip(flush);
  if (encoding === 'br') {
    return zlib.createBrotliDecompress({
      flush: zlib.constants.BROTLI_OPERATION_FLUSH,
      finishFlush: zlib.constants.BROTLI_OPERATION_FLUSH,
    });
  }
  // "deflate" is meant to be zlib-wrapped, but some servers send raw deflate: look at the header.
  const [cmf = 0, flg = 0] = head;
  const zlibWrapped = (cmf & 0x0f) === 8 && (cmf * 256 + flg) % 31 === 0;
  return zlibWrapped ? zlib.createInflate(flush) : zlib.createInflateRaw(flush);
}

/** A body decoded from its content encoding, streamed (shared with the archive reader). */
export async function* decode(
  source: AsyncIterable<Uint8Array>,
  encoding: Encoding,
): AsyncGenerator<Uint8Array> {
  const iterator = source[Symbol.asyncIterator]();
  const first = await iterator.next();
  if (first.done === true) return; // An empty body has nothing to decode.
  const head = first.value;
  const decoder = createDecoder(encoding, head);
  const input = Readable.from(
    (async function* () {
      yield head;
      // Delegating keeps return() flowing back to the source when the consumer stops early.
      yield* { [Symbol.asyncIterator]: () => iterator };
    })(),
  );
  // Errors of either side surface through the decoder, which is what we iterate.
  pipeline(input, decoder, () => {});
  for await (const chunk of decoder) yield chunk as Uint8Array;
}

function mapError(error: unknown, url: string): unknown {
  if (error instanceof NetError) return error;
  if (error instanceof Error) {
    const cause = (error as { cause?: unknown }).cause;
    if (cause instanceof NetError) return cause;
    const code = (error as { code?: unknown }).code;
    if (typeof code === 'string' && TIMEOUT_CODES.has(code)) {
      return new NetError('ETIMEDOUT', `Timed out fetching ${url}: ${error.message}`, {
        url,
        cause: error,
      });
    }
    // llhttp's codes (HPE_INVALID_CHUNK_SIZE, …; none at all for some) and zlib's name the
    // detail, not the kind of failure, and change with their versions: one stable code, the
    // detail in the message.
    if (
      error.name === 'HTTPParserError' ||
      (typeof code === 'string' &&
        (code.startsWith('HPE_') || BAD_RESPONSE_CODES.has(code) || isDecodeError(error)))
    ) {
      return new NetError('EBADRESPONSE', `Bad response from ${url}: ${error.message}`, {
        url,
        cause: error,
      });
    }
    if (typeof code === 'string' && code !== 'UND_ERR_ABORTED' && error.name !== 'AbortError') {
      return new NetError(code, `${error.message} (${url})`, { url, cause: error });
    }
  }
  return error;
}

/**
 * undici ends a body a tick before it frees the connection: without this pause a request sent
 * right after reading a body (the next redirect hop, the crawler's next URL) opens a second
 * connection instead of reusing the first.
 */
function connectionReleased(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

function tooLarge(url: string, maxBytes: number): NetError {
  return new NetError('ETOOLARGE', `Response body of ${url} exceeds ${maxBytes} bytes`, { url });
}

/** zlib's and brotli's errors carry an errno; the codes are Z_… and ERR__… (brotli's). */
function isDecodeError(error: Error): boolean {
  const code = String((error as { code?: unknown }).code);
  return typeof (error as { errno?: unknown }).errno === 'number' && /^(Z_|ERR__)/.test(code);
}

/** Frees a body we do not want; see RELEASE_LIMIT. Resolves once the body is closed. */
function release(body: ResponseBody): Promise<void> {
  return body.dump(RELEASE_LIMIT, RELEASE_GRACE_MS);
}

/** The body of a 204, a 304 or a HEAD answer. */
const NO_BODY: AsyncIterable<Uint8Array> = {
  [Symbol.asyncIterator]: () => ({
    next: () => Promise.resolve({ done: true, value: undefined }),
  }),
};

export function createHttpClient(options: HttpClientOptions = {}): HttpClient {
  const timeoutMs = options.timeoutMs ?? 30_000;
  const maxRedirects = options.maxRedirects ?? 10;
  const maxRequestMs = options.maxRequestMs ?? 120_000;
  const speed: SpeedRule = {
    minBytesPerSecond: options.minBytesPerSecond ?? 1024,
    afterMs: options.minSpeedAfterMs ?? 15_000,
  };
  const check = createAddressCheck(options);
  const agent = new Agent({
    connect: createSafeConnector({ ...options, timeoutMs }),
    allowH2: true,
    connections: options.connectionsPerHost ?? 6,
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
    keepAliveTimeout: 10_000,
    keepAliveMaxTimeout: 60_000,
  });

  /** Scheme and IP-literal checks before a hop; host names are checked when connecting. */
  function preflight(url: URL): void {
    assertHttpScheme(url);
    const literal = parseHostAsIp(url.hostname);
    if (literal !== null) {
      try {
        check(url.hostname, literal);
      } catch (error) {
        const refused = error as RefusedAddressError;
        throw new RefusedAddressError(refused.host, refused.address, refused.reason, {
          url: url.href,
        });
      }
    }
  }

  async function send(
    url: URL,
    method: string,
    headers: Record<string, string>,
    clock: RequestClock,
    body: Uint8Array | string | undefined,
  ): Promise<RawResponse> {
    try {
      return await dispatch(
        agent,
        {
          origin: url.origin,
          path: `${url.pathname}${url.search}`,
          method: method as Dispatcher.HttpMethod,
          headers,
          body: body ?? null,
          headersTimeout: timeoutMs,
          bodyTimeout: timeoutMs,
        },
        clock.signal,
        clock,
      );
    } catch (error) {
      throw mapError(error, url.href);
    }
  }

  /**
   * The final response. Its raw body is consumed, released or destroyed on every path: read to
   * its end, dropped by an early stop or a failure of the reader, discarded, or destroyed by the
   * request's deadline.
   */
  async function respond(
    url: URL,
    method: string,
    res: RawResponse,
    redirects: RedirectHop[],
    maxBytes: number | undefined,
  ): Promise<HttpResponse> {
    const raw = res.body;
    const headers = res.headers;
    const href = url.href;
    const hasBody = method !== 'HEAD' && res.statusCode !== 204 && res.statusCode !== 304;
    const declared = Number(headers['content-length']);
    if (hasBody && maxBytes !== undefined && Number.isFinite(declared) && declared > maxBytes) {
      raw.destroy();
      throw tooLarge(href, maxBytes);
    }
    if (!hasBody) {
      await release(raw);
      await connectionReleased();
    }
    const chain = hasBody ? decodingChain(headers['content-encoding']) : [];
    let body: AsyncIterable<Uint8Array> = hasBody ? raw : NO_BODY;
    if (chain !== null && chain.length > 0) {
      for (const encoding of chain) body = decode(body, encoding);
      delete headers['content-encoding'];
      delete headers['content-length'];
    }
    const decoded = body;
    let used = false;
    async function* guarded(): AsyncGenerator<Uint8Array> {
      let received = 0;
      try {
        for await (const chunk of decoded) {
          received += chunk.byteLength;
          if (maxBytes !== undefined && received > maxBytes) throw tooLarge(href, maxBytes);
          yield chunk;
        }
        await connectionReleased();
      } catch (error) {
        throw mapError(error, href);
      } finally {
        // After an early stop, a failure, or a decoder done before its input, the rest of the
        // body is not wanted: dropped with its connection. (A no-op on a body read to its end.)
        raw.destroy();
      }
    }
    return {
      url: href,
      status: res.statusCode,
      headers,
      redirects,
      body: {
        [Symbol.asyncIterator]() {
          if (used) throw new NetError('EBODYUSED', `The body of ${href} was already read`);
          used = true;
          return guarded();
        },
      },
      async discard() {
        if (used) {
          raw.destroy();
          return;
        }
        used = true;
        await release(raw);
        await connectionReleased();
      },
    };
  }

  async function request(input: string | URL, requestOptions: RequestOptions = {}) {
    const { maxBytes } = requestOptions;
    const follow = requestOptions.followRedirects ?? true;
    let url = toUrl(input);
    let method = (requestOptions.method ?? 'GET').toUpperCase();
    const headers: Record<string, string> = {
      'accept-encoding': 'gzip, deflate, br',
      ...(options.userAgent === undefined ? {} : { 'user-agent': options.userAgent }),
    };
    for (const [name, value] of Object.entries(requestOptions.headers ?? {})) {
      headers[name.toLowerCase()] = value;
    }
    const redirects: RedirectHop[] = [];
    let body = requestOptions.body;
    const clock = new RequestClock(
      url.href,
      requestOptions.maxRequestMs ?? maxRequestMs,
      speed,
      requestOptions.signal,
    );

    try {
      for (;;) {
        preflight(url);
        clock.hop(url.href);
        const res = await send(url, method, headers, clock, body);
        const location = res.headers['location'];
        const target =
          follow && REDIRECT_STATUSES.has(res.statusCode) && typeof location === 'string'
            ? parseLocation(location, url)
            : null;
        if (target === null) {
          // The limits hold until the body is over, however it ends.
          res.body.onClose(() => clock.stop());
          return await respond(url, method, res, redirects, maxBytes);
        }

        await release(res.body);
        clock.throwIfAborted();
        await connectionReleased();
        target.hash = '';
        if (redirects.length >= maxRedirects) {
          throw new NetError(
            'EREDIRECTLOOP',
            `Too many redirects (more than ${maxRedirects}) from ${redirects[0]?.from ?? url.href}`,
            { url: url.href },
          );
        }
        redirects.push({ from: url.href, to: target.href, status: res.statusCode });
        if (
          res.statusCode === 303
            ? method !== 'HEAD'
            : (res.statusCode === 301 || res.statusCode === 302) && method === 'POST'
        ) {
          method = 'GET';
          body = undefined;
          delete headers['content-type'];
        }
        if (target.origin !== url.origin) {
          for (const name of CREDENTIAL_HEADERS) delete headers[name];
        }
        url = target;
      }
    } catch (error) {
      clock.stop();
      throw mapError(error, url.href);
    }
  }

  return {
    request,
    close: () => agent.close(),
  };
}
