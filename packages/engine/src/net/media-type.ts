import { MIMEType } from 'whatwg-mimetype';
import { memoize } from './memo.js';

/** The parsed Content-Type the engine (and the server) acts on. */
export interface MediaType {
  /** `type/subtype`, lower-cased, without parameters (`text/html`). */
  essence: string;
  /** The `charset` parameter as sent (unquoted), when there is one. */
  charset: string | undefined;
}

/**
 * Every response of a run parses its Content-Type several times, from a handful of distinct
 * values: the parser's objects were 6% of a run's allocations (bench:mirror, 12,000 URLs).
 */
const parseKnown = memoize((header: string): Readonly<MediaType> | null => {
  const parsed = MIMEType.parse(header);
  return parsed
    ? Object.freeze({ essence: parsed.essence, charset: parsed.parameters.get('charset') })
    : null;
}, 256);

/**
 * A Content-Type header value, parsed as browsers do (WHATWG MIME Sniffing): `null` when it is
 * missing or no media type (`garbage`, `''`).
 */
export function parseMediaType(header: string | undefined): MediaType | null {
  return header ? parseKnown(header) : null;
}

/** The essence of a Content-Type header value (`text/html`), or '' when it names none. */
export function essenceOf(header: string | undefined): string {
  return parseMediaType(header)?.essence ?? '';
}
