/**
 * Errors of the network layer. Every error carries a `code` the crawler can map to a
 * FailureReason: EREFUSEDADDRESS → refused-address, ETIMEDOUT / ETOOSLOW → timeout, ETOOLARGE →
 * too-large, EREDIRECTLOOP / EBADSCHEME → invalid, anything else (EBADRESPONSE, ECONNREFUSED,
 * ENOTFOUND, UND_ERR_SOCKET, …) → network.
 */

export type NetErrorCode =
  | 'EREFUSEDADDRESS'
  | 'ETIMEDOUT'
  /**
   * The server took longer than the request's deadline (maxRequestMs), or sent its body slower
   * than the minimum speed: "<url> sent too slowly: N bytes in M s (…)".
   */
  | 'ETOOSLOW'
  | 'ETOOLARGE'
  | 'EREDIRECTLOOP'
  | 'EBADSCHEME'
  /** The URL handed to request() does not parse. */
  | 'EINVALIDURL'
  /** HttpResponse.body iterated a second time. */
  | 'EBODYUSED'
  /**
   * The answer is not HTTP the client can read (bad status line, chunk size or header block,
   * headers too large), was cut short of its declared length, or does not decode (bad gzip).
   */
  | 'EBADRESPONSE'
  // Network codes passed through from Node and undici (ECONNREFUSED, ENOTFOUND, UND_ERR_SOCKET…).
  | (string & {});

export class NetError extends Error {
  readonly code: NetErrorCode;
  /** The URL being fetched when the error happened (the hop, for redirects), when known. */
  readonly url: string | undefined;

  constructor(
    code: NetErrorCode,
    message: string,
    options: { url?: string; cause?: unknown } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'NetError';
    this.code = code;
    this.url = options.url;
  }
}

/** A host resolved to (or is) an address the policy forbids: loopback, private, metadata, … */
export class RefusedAddressError extends NetError {
  readonly host: string;
  readonly address: string;
  /** Why the address is refused, from classifyAddress: 'loopback', 'private', 'link-local', … */
  readonly reason: string;

  constructor(host: string, address: string, reason: string, options: { url?: string } = {}) {
    const literal = host === address || host === `[${address}]`;
    super(
      'EREFUSEDADDRESS',
      literal
        ? `Refused address: ${host} (${reason})`
        : `Refused address: ${host} resolves to ${address} (${reason})`,
      options,
    );
    this.name = 'RefusedAddressError';
    this.host = host;
    this.address = address;
    this.reason = reason;
  }
}

export function isNetError(error: unknown): error is NetError {
  return error instanceof NetError;
}
