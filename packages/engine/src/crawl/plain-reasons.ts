import { classifyMirrorFailure } from '@mirror/contract/mirror-failures';
import type { FailedUrl } from '../types.js';

/**
 * Why a URL could not be copied, as a person would say it: the run's own words for its first
 * failure when nothing at all could be fetched ("Nothing could be fetched from …: <reason>.").
 * The technical detail stays in the failure's `detail`.
 */
export function plainReason(
  failure: Pick<FailedUrl, 'reason' | 'detail' | 'status' | 'code'>,
): string {
  const code = failure.code ?? '';
  switch (failure.reason) {
    case 'timeout':
      return code === 'ETOOSLOW'
        ? 'the server sent its answer too slowly'
        : 'the server did not answer in time';
    case 'network':
      switch (classifyMirrorFailure({ ...failure, message: failure.detail })) {
        case 'refused':
          return 'the server refused the connection';
        case 'dns':
          return 'there is no server at that name';
        case 'bad-response':
          return "the server's answer is not valid HTTP";
        case 'redirect-loop':
          return 'the address redirects too many times';
        case 'tls':
          return "a secure connection could not be made: the site's certificate or encryption is not valid";
        default:
          return /RESET|SOCKET|EPIPE|CLOSED/.test(code)
            ? 'the server closed the connection'
            : 'the server could not be reached';
      }
    case 'http-error':
      return failure.status !== undefined
        ? `the server answered with an error (HTTP ${failure.status})`
        : 'the server answered with an error';
    case 'too-large':
      return 'the page is larger than a copy may hold';
    case 'refused-address':
      return 'its address is not a public one';
    case 'robots':
      return "the site's robots.txt does not allow it";
    case 'bot-challenge':
      return 'the site answered with a bot check that only a person can pass';
    case 'limit':
      return failure.detail.startsWith('time limit')
        ? 'the time limit was reached before it could be fetched'
        : 'a limit of the run was reached before it could be fetched';
    case 'trap':
      return 'it looks like an endless series of pages';
    case 'invalid':
      return 'its address is not valid';
  }
}
