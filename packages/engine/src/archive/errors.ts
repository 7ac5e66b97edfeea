/**
 * Errors of reading an archive (WARC, WARC.GZ, WACZ). Each carries a stable `code` and a message
 * written for a person: what is wrong with the file, in one sentence.
 */

export type ArchiveErrorCode =
  /** Not a WARC, gzipped WARC or WACZ at all (a random or empty file). */
  | 'not-an-archive'
  /** The file ends in the middle of a record, a gzip member or the zip. */
  | 'truncated'
  /** A record is malformed: bad header block, wrong Content-Length, a hash that does not match. */
  | 'bad-record'
  /** A compressed part inflates far beyond its size or beyond what the zip declares. */
  | 'zip-bomb'
  /** The archive holds more than the limits allow (bytes or records). */
  | 'too-large'
  /** The archive holds no response a copy could be made from. */
  | 'no-pages';

export class ArchiveError extends Error {
  readonly code: ArchiveErrorCode;

  constructor(code: ArchiveErrorCode, message: string, options: { cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'ArchiveError';
    this.code = code;
  }
}

export function isArchiveError(error: unknown): error is ArchiveError {
  return error instanceof ArchiveError;
}
