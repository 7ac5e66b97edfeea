/** Inflating a gzipped WARC with its failures named: truncated, damaged, a bomb. */
import { Readable } from 'node:stream';
import zlib from 'node:zlib';
import { ArchiveError } from './errors.js';
import { BOMB_RATIO } from './warc-scan.js';

/**
 * Inflates a gzipped WARC (every member, in order), counting bytes both sides: a truncated gzip,
 * damaged gzip data and an inflation past the limit each become their ArchiveError.
 */
export async function* inflateWarc(
  compressed: AsyncIterable<Uint8Array>,
  maxBytes: number,
): AsyncGenerator<Uint8Array> {
  let read = 0;
  const counted = (async function* () {
    for await (const chunk of compressed) {
      read += chunk.byteLength;
      yield chunk;
    }
  })();
  const gunzip = zlib.createGunzip();
  const input = Readable.from(counted, { objectMode: false });
  input.pipe(gunzip);
  input.on('error', (error) => gunzip.destroy(error));
  let inflated = 0;
  try {
    for await (const chunk of gunzip) {
      const data = chunk as Buffer;
      inflated += data.length;
      if (inflated > maxBytes) {
        throw inflated / Math.max(read, 1) > BOMB_RATIO
          ? new ArchiveError(
              'zip-bomb',
              `The archive inflates past ${maxBytes} bytes from ${read}: it is a compression bomb.`,
            )
          : new ArchiveError(
              'too-large',
              `The archive inflates to more than the ${maxBytes} bytes allowed.`,
            );
      }
      yield data;
    }
  } catch (error) {
    throw gzipError(error);
  } finally {
    gunzip.destroy();
    input.destroy();
  }
}

function gzipError(error: unknown): unknown {
  if (error instanceof ArchiveError) return error;
  const code = (error as { code?: unknown } | null)?.code;
  if (
    code === 'Z_BUF_ERROR' ||
    (error instanceof Error && /unexpected end of file/i.test(error.message))
  ) {
    return new ArchiveError(
      'truncated',
      'The archive ends in the middle of a record: it was cut short (truncated gzip).',
      { cause: error },
    );
  }
  if (typeof code === 'string' && code.startsWith('Z_')) {
    return new ArchiveError(
      'bad-record',
      "The archive's gzip data is damaged: it cannot be inflated.",
      { cause: error },
    );
  }
  return error;
}
