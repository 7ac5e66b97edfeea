import { classifyMirrorFailure, type MirrorFailureKind } from '@mirror/contract/mirror-failures';
import type { FailedUrl } from '../types.js';
import { errorCode } from './fetch-policy.js';

export type MirrorErrorCode =
  | 'invalid-url'
  | 'refused-address'
  | 'nothing-fetched'
  | 'aborted'
  /** The blob store could not take a file (disk full, read-only, I/O error): nothing is complete. */
  | 'storage';

/** Why a run failed, for a person: a category, and the technical detail behind it. */
export interface MirrorFailure {
  kind: MirrorFailureKind;
  /** The address, error code and message as they came (shown behind a "Details" toggle). */
  detail: string;
}

export class MirrorError extends Error {
  readonly failure: MirrorFailure | undefined;

  constructor(
    readonly code: MirrorErrorCode,
    message: string,
    options: { cause?: unknown; failure?: MirrorFailure } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'MirrorError';
    this.failure = options.failure;
  }
}

/** A failed URL's evidence, as the Details toggle shows it: the address, then code and message. */
export function failureOf(failed: FailedUrl): MirrorFailure {
  const reason = failed.code ? `${failed.code}: ${failed.detail}` : failed.detail;
  return {
    kind: classifyMirrorFailure({ ...failed, message: failed.detail }),
    detail: `${failed.url}\n${reason}`.trim(),
  };
}

/** Why the start address cannot be mirrored, from the error its address check threw. */
export function startUrlError(err: unknown, startUrl: URL): MirrorError {
  const code = errorCode(err);
  const message = err instanceof Error ? err.message : String(err);
  if (code === 'EREFUSEDADDRESS' || code === 'EBADSCHEME') {
    return new MirrorError('refused-address', message, {
      failure: {
        kind: code === 'EBADSCHEME' ? 'invalid-url' : 'blocked-address',
        detail: message,
      },
    });
  }
  return new MirrorError(
    'nothing-fetched',
    `Cannot reach ${startUrl.host}: ${code === 'ENOTFOUND' ? 'no such host' : 'its name could not be looked up'}.`,
    {
      failure: {
        kind: classifyMirrorFailure({ code, message }) === 'dns' ? 'dns' : 'connection',
        detail: code ? `${code}: ${message}` : message,
      },
    },
  );
}
