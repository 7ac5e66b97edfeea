/**
 * Why a mirror run failed, in stable categories (issue 20, item 3). The server stores the category
 * beside its English sentence and the technical detail; the web app says the category in the
 * reader's language and keeps the detail behind a "Details" toggle. Zod-free: the web imports it.
 */
export const MIRROR_FAILURE_KINDS = [
  /** The name does not resolve (no such host, or the lookup failed). */
  'dns',
  /** Nothing listens at the address: the connection was refused. */
  'refused',
  /** The connection broke or the network could not reach the server. */
  'connection',
  /** The TLS handshake failed or the certificate cannot be trusted. */
  'tls',
  /** The server did not answer, or answered too slowly. */
  'timeout',
  /** The answer is not HTTP that can be read. */
  'bad-response',
  /** The address redirects in a loop or too many times. */
  'redirect-loop',
  /** HTTP 401 or 403: the site does not let the copier in. */
  'http-forbidden',
  /** HTTP 404 or 410: nothing at that address. */
  'http-not-found',
  /** HTTP 5xx: the site's server had an error. */
  'http-server',
  /** Any other HTTP error status. */
  'http-other',
  /** robots.txt forbids copying. */
  'robots',
  /** A bot check (captcha, challenge page) that only a person can pass. */
  'bot-challenge',
  /** The page is larger than a copy may hold. */
  'too-large',
  /** The address is private, local or internal: refused. */
  'blocked-address',
  /** The address is not a valid http(s) URL. */
  'invalid-url',
  /** The run used up the time a copy may take. */
  'time-limit',
  /** The run needed more memory than a copy may use. */
  'memory-limit',
  /** The copying process stopped unexpectedly. */
  'crashed',
  /** The server could not store the copy (its disk is full or failing). */
  'server-storage',
  /** The copy would take more storage than the owner's plan includes. */
  'storage-quota',
  /** The site went beyond its owner's plan (a downgrade) while the run was under way: read-only. */
  'plan-limit',
  'unknown',
] as const;
export type MirrorFailureKind = (typeof MIRROR_FAILURE_KINDS)[number];

/** What is known about a failure: the engine's reason, an error's code and message, an HTTP status. */
export interface FailureEvidence {
  /** The engine's FailureReason (`network`, `timeout`, `http-error`, `robots`, …), when known. */
  reason?: string;
  /** A Node, undici or OpenSSL error code (ENOTFOUND, UND_ERR_CONNECT_TIMEOUT, CERT_HAS_EXPIRED…). */
  code?: string;
  status?: number;
  /** The error's own text (`getaddrinfo ENOTFOUND …`, `…:SSL routines:…`, `net::ERR_…`). */
  message?: string;
}

const DNS_CODES = new Set([
  'ENOTFOUND',
  'EAI_AGAIN',
  'EAI_NONAME',
  'EAI_FAIL',
  'EAI_NODATA',
  'ENODATA',
  'ESERVFAIL',
]);
const TIMEOUT_CODES = new Set([
  'ETIMEDOUT',
  'ETOOSLOW',
  'ESOCKETTIMEDOUT',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
]);
const CONNECTION_CODES = new Set([
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ENETUNREACH',
  'ENETDOWN',
  'EHOSTUNREACH',
  'EHOSTDOWN',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
  'UND_ERR_DESTROYED',
]);
const BAD_RESPONSE_CODES = new Set([
  'EBADRESPONSE',
  'UND_ERR_HEADERS_OVERFLOW',
  'UND_ERR_RES_CONTENT_LENGTH_MISMATCH',
  'UND_ERR_REQ_CONTENT_LENGTH_MISMATCH',
  'Z_DATA_ERROR',
  'Z_BUF_ERROR',
]);
/** OpenSSL's and Node's certificate verdicts, and TLS/SSL protocol errors. */
const TLS_CODE = /CERT|SELF_SIGNED|UNABLE_TO_VERIFY|UNABLE_TO_GET_ISSUER|^ERR_TLS_|^ERR_SSL_/;
const TLS_TEXT =
  /SSL routines|ssl3_|tlsv1 alert|TLS handshake|certificate|self[- ]signed|wrong version number|net::ERR_(CERT_|SSL_)/i;
const DNS_TEXT = /getaddrinfo|ENOTFOUND|EAI_AGAIN|no such host|net::ERR_NAME_NOT_RESOLVED/i;
const REFUSED_TEXT = /ECONNREFUSED|connection refused|net::ERR_CONNECTION_REFUSED/i;
const TIMEOUT_TEXT = /timed? ?out|timeout|net::ERR_TIMED_OUT/i;
const CONNECTION_TEXT =
  /ECONNRESET|socket hang up|other side closed|net::ERR_(CONNECTION_(RESET|CLOSED)|ADDRESS_UNREACHABLE|INTERNET_DISCONNECTED)/i;

function fromStatus(status: number | undefined): MirrorFailureKind {
  if (status === 401 || status === 403) return 'http-forbidden';
  if (status === 404 || status === 410) return 'http-not-found';
  if (status !== undefined && status >= 500) return 'http-server';
  return 'http-other';
}

function fromCode(code: string, message: string): MirrorFailureKind | null {
  if (!code) return null;
  if (DNS_CODES.has(code)) return 'dns';
  if (code === 'ECONNREFUSED') return 'refused';
  if (TIMEOUT_CODES.has(code)) return 'timeout';
  if (TLS_CODE.test(code)) return 'tls';
  // EPROTO is OpenSSL's "write EPROTO …:SSL routines:…" nearly always; trust the text.
  if (code === 'EPROTO') return TLS_TEXT.test(message) ? 'tls' : 'connection';
  if (CONNECTION_CODES.has(code)) return 'connection';
  if (BAD_RESPONSE_CODES.has(code) || code.startsWith('HPE_')) return 'bad-response';
  if (code === 'ETOOLARGE' || code === 'UND_ERR_RES_EXCEEDED_MAX_SIZE') return 'too-large';
  if (code === 'EREFUSEDADDRESS') return 'blocked-address';
  if (code === 'EREDIRECTLOOP') return 'redirect-loop';
  if (code === 'EBADSCHEME' || code === 'EINVALIDURL' || code === 'ERR_INVALID_URL')
    return 'invalid-url';
  if (code === 'ENOSPC' || code === 'EDQUOT' || code === 'EROFS' || code === 'EIO')
    return 'server-storage';
  return null;
}

function fromText(message: string): MirrorFailureKind | null {
  if (!message) return null;
  if (TLS_TEXT.test(message)) return 'tls';
  if (DNS_TEXT.test(message)) return 'dns';
  if (REFUSED_TEXT.test(message)) return 'refused';
  if (TIMEOUT_TEXT.test(message)) return 'timeout';
  if (CONNECTION_TEXT.test(message)) return 'connection';
  return null;
}

/**
 * The category of a failure, from what is known of it: the engine's verdict first (robots, a bot
 * check, an HTTP status…), then the error's code, then its text (OpenSSL and Chromium put the
 * cause only there). Pure; a failure nothing matches is `unknown`.
 */
export function classifyMirrorFailure(evidence: FailureEvidence): MirrorFailureKind {
  const code = evidence.code ?? '';
  const message = evidence.message ?? '';
  switch (evidence.reason) {
    case 'robots':
      return 'robots';
    case 'bot-challenge':
      return 'bot-challenge';
    case 'too-large':
      return 'too-large';
    case 'refused-address':
      return 'blocked-address';
    case 'http-error':
      return fromStatus(evidence.status);
    case 'invalid':
      return code === 'EREDIRECTLOOP' ? 'redirect-loop' : 'invalid-url';
    case 'limit':
      // The start page was still waiting when the run's time ran out (or it was stopped).
      return /page limit|file limit|byte limit/.test(message) ? 'unknown' : 'time-limit';
    case 'trap':
      return 'unknown';
  }
  const known = fromCode(code, message) ?? fromText(message);
  if (known) return known;
  if (evidence.reason === 'timeout') return 'timeout';
  if (evidence.reason === 'network') return 'connection';
  if (evidence.status !== undefined && evidence.status >= 400) return fromStatus(evidence.status);
  return 'unknown';
}

export function isMirrorFailureKind(value: unknown): value is MirrorFailureKind {
  return typeof value === 'string' && (MIRROR_FAILURE_KINDS as readonly string[]).includes(value);
}
