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
  const parsed = MIMEType.parse(header);
  return parsed ? { essence: parsed.essence, charset: parsed.parameters.get('charset') } : null;
}

/** The essence of a Content-Type header value (`text/html`), or '' when it names none. */
export function essenceOf(header: string | undefined): string {
  return parseMediaType(header)?.essence ?? '';
}
