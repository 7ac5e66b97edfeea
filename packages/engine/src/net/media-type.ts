import { MIMEType } from 'whatwg-mimetype';

/** The parsed Content-Type the engine (and the server) acts on. */
export interface MediaType {
  /** `type/subtype`, lower-cased, without parameters (`text/html`). */
  essence: string;
  /** The `charset` parameter as sent (unquoted), when there is one. */
  charset: string | undefined;
}

/**
 * A Content-Type header value, parsed as browsers do (WHATWG MIME Sniffing): `null` when it is
 * missing or no media type (`garbage`, `''`).
 */
export function parseMediaType(header: string | undefined): MediaType | null {
  if (!header) return null;
  let known = parsedTypes.get(header);
  if (known === undefined) {
    const parsed = MIMEType.parse(header);
    known = parsed
      ? Object.freeze({ essence: parsed.essence, charset: parsed.parameters.get('charset') })
      : null;
    // A site sends a handful of distinct values; one sending a new value each time refills it.
    if (parsedTypes.size >= PARSED_TYPES_KEPT) parsedTypes.clear();
    parsedTypes.set(header, known);
  }
  return known;
}

/**
 * Content-Type values already parsed: every response of a run parses its header several times,
 * and the parser's objects were 6% of a run's allocations (bench:mirror, 12,000 URLs).
 */
const parsedTypes = new Map<string, Readonly<MediaType> | null>();
const PARSED_TYPES_KEPT = 256;

/** The essence of a Content-Type header value (`text/html`), or '' when it names none. */
export function essenceOf(header: string | undefined): string {
  return parseMediaType(header)?.essence ?? '';
}
