import { describe, expect, it } from 'vitest';
import {
  classifyMirrorFailure,
  type FailureEvidence,
  type MirrorFailureKind,
} from './mirror-failures.js';

// Shapes as Node 20, undici 7, OpenSSL 3 and Chromium report them (captured from real failures;
// the engine keeps an error's code and message, with the URL appended, in its failure record).
const cases: [string, FailureEvidence, MirrorFailureKind][] = [
  [
    'no such host',
    { reason: 'network', code: 'ENOTFOUND', message: 'getaddrinfo ENOTFOUND no-such.invalid' },
    'dns',
  ],
  [
    'lookup failed for now',
    { reason: 'network', code: 'EAI_AGAIN', message: 'getaddrinfo EAI_AGAIN shop.example' },
    'dns',
  ],
  [
    'refused',
    { reason: 'network', code: 'ECONNREFUSED', message: 'connect ECONNREFUSED 203.0.113.9:443' },
    'refused',
  ],
  [
    'reset',
    { reason: 'network', code: 'ECONNRESET', message: 'read ECONNRESET (https://a.example/)' },
    'connection',
  ],
  [
    'undici socket closed',
    { reason: 'network', code: 'UND_ERR_SOCKET', message: 'other side closed' },
    'connection',
  ],
  [
    'unreachable network',
    { reason: 'network', code: 'ENETUNREACH', message: 'connect ENETUNREACH 2001:db8::1:443' },
    'connection',
  ],
  [
    'connect timeout',
    {
      reason: 'timeout',
      code: 'UND_ERR_CONNECT_TIMEOUT',
      message: 'Connect Timeout Error (attempted address: a.example:443, timeout: 10000ms)',
    },
    'timeout',
  ],
  [
    'headers timeout',
    { reason: 'timeout', code: 'UND_ERR_HEADERS_TIMEOUT', message: 'Headers Timeout Error' },
    'timeout',
  ],
  [
    'engine timeout',
    { reason: 'timeout', code: 'ETIMEDOUT', message: 'Timed out fetching https://a.example/' },
    'timeout',
  ],
  [
    'too slow a body',
    { reason: 'timeout', code: 'ETOOSLOW', message: 'https://a.example/ sent too slowly' },
    'timeout',
  ],
  [
    'certificate for another name',
    {
      reason: 'network',
      code: 'ERR_TLS_CERT_ALTNAME_INVALID',
      message:
        "Hostname/IP does not match certificate's altnames: Host: a.example. is not in the cert's altnames: DNS:*.b.example",
    },
    'tls',
  ],
  [
    'expired certificate',
    { reason: 'network', code: 'CERT_HAS_EXPIRED', message: 'certificate has expired' },
    'tls',
  ],
  [
    'self-signed certificate',
    {
      reason: 'network',
      code: 'DEPTH_ZERO_SELF_SIGNED_CERT',
      message: 'self-signed certificate',
    },
    'tls',
  ],
  [
    'incomplete chain',
    {
      reason: 'network',
      code: 'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
      message: 'unable to verify the first certificate',
    },
    'tls',
  ],
  [
    'self-signed in chain',
    {
      reason: 'network',
      code: 'SELF_SIGNED_CERT_IN_CHAIN',
      message: 'self-signed certificate in certificate chain',
    },
    'tls',
  ],
  [
    'OpenSSL wrong version (undici)',
    {
      reason: 'network',
      code: 'ERR_SSL_WRONG_VERSION_NUMBER',
      message:
        '805C86D3517F0000:error:0A00010B:SSL routines:ssl3_get_record:wrong version number:../deps/openssl/openssl/ssl/record/ssl3_record.c:350:\n',
    },
    'tls',
  ],
  [
    'OpenSSL wrong version (node:https)',
    {
      reason: 'network',
      code: 'EPROTO',
      message:
        'write EPROTO 805C86D3517F0000:error:0A00010B:SSL routines:ssl3_get_record:wrong version number:../deps/openssl/openssl/ssl/record/ssl3_record.c:350:\n',
    },
    'tls',
  ],
  [
    'OpenSSL handshake alert without a code',
    {
      message:
        'C0D7A1F3:error:0A000410:SSL routines:ssl3_read_bytes:sslv3 alert handshake failure:../deps/openssl/openssl/ssl/record/rec_layer_s3.c:1586:SSL alert number 40',
    },
    'tls',
  ],
  [
    'Chromium certificate error',
    { reason: 'network', message: 'rendering failed: net::ERR_CERT_AUTHORITY_INVALID at …' },
    'tls',
  ],
  [
    'Chromium name not resolved',
    { reason: 'network', message: 'rendering failed: net::ERR_NAME_NOT_RESOLVED at …' },
    'dns',
  ],
  [
    'unreadable HTTP',
    {
      reason: 'network',
      code: 'EBADRESPONSE',
      message: 'Bad response from http://a.example/: Response does not match the HTTP/1.1 protocol',
    },
    'bad-response',
  ],
  [
    'redirect loop',
    { reason: 'invalid', code: 'EREDIRECTLOOP', message: 'Too many redirects' },
    'redirect-loop',
  ],
  ['forbidden', { reason: 'http-error', status: 403, message: 'HTTP 403' }, 'http-forbidden'],
  ['unauthorized', { reason: 'http-error', status: 401, message: 'HTTP 401' }, 'http-forbidden'],
  ['not found', { reason: 'http-error', status: 404, message: 'HTTP 404' }, 'http-not-found'],
  [
    'service unavailable after tries',
    { reason: 'http-error', status: 503, message: 'HTTP 503 after 4 tries' },
    'http-server',
  ],
  ['teapot', { reason: 'http-error', status: 418, message: 'HTTP 418' }, 'http-other'],
  ['robots', { reason: 'robots', message: 'disallowed by robots.txt' }, 'robots'],
  [
    'bot challenge',
    { reason: 'bot-challenge', status: 403, message: 'the site answered with a bot challenge' },
    'bot-challenge',
  ],
  [
    'too large',
    { reason: 'too-large', code: 'ETOOLARGE', message: 'Response body exceeds 5 bytes' },
    'too-large',
  ],
  [
    'private address',
    {
      reason: 'refused-address',
      code: 'EREFUSEDADDRESS',
      message: 'Refused address: intranet.example resolves to 10.0.0.7 (private)',
    },
    'blocked-address',
  ],
  ['time ran out', { reason: 'limit', message: 'time limit reached' }, 'time-limit'],
  ['disk full', { code: 'ENOSPC', message: 'ENOSPC: no space left on device' }, 'server-storage'],
  ['nothing known', { message: 'Something odd' }, 'unknown'],
  ['a network error without a code', { reason: 'network', message: 'fetch failed' }, 'connection'],
];

describe('classifyMirrorFailure', () => {
  it.each(cases)('%s', (_name, evidence, kind) => {
    expect(classifyMirrorFailure(evidence)).toBe(kind);
  });
});
