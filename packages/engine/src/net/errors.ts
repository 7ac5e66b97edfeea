/**
 * Errors of the network layer. Every error carries a `code` the crawler can map to a
 * FailureReason: EREFUSEDADDRESS → refused-address, ETIMEDOUT → timeout, ETOOLARGE → too-large,
 * EREDIRECTLOOP / EBADSCHEME → invalid, anything else (ECONNREFUSED, ENOTFOUND, UND_ERR_SOCKET, …)
 * → network.
 */

export type NetErrorCode =
  | 'EREFUSEDADDRESS'
  | 'ETIMEDOUT'
  | 'ETOOLARGE'
  | 'EREDIRECTLOOP'
  | 'EBADSCHEME'
  /** The URL handed to request() does not parse. */
  | 'EINVALIDURL'
  /** HttpResponse.body iterated a second time. */
  | 'EBODYUSED'
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
