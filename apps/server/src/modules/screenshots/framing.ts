/**
 * Whether a website lets the app show it in a frame (issue 19, item 4): the reference grid offers a
 * live frame only then, the screenshot otherwise. Read from the headers of the main document the
 * capture loaded (after its redirects), the way Chromium reads them:
 *
 * - a CSP `frame-ancestors` directive (enforced policies only: report-only policies and `<meta>`
 *   tags do not count) decides alone when present, and every policy that has one must allow us;
 * - otherwise `X-Frame-Options` `DENY` or `SAMEORIGIN` (we are never the site's origin) refuses,
 *   as does any value we do not understand (Chromium ignores `ALLOW-FROM`; we stay on the safe
 *   side and show the screenshot).
 */

/** The main document's headers that decide framing (null: not sent). */
export interface DocumentFraming {
  xFrameOptions: string | null;
  contentSecurityPolicy: string | null;
}

/** The two headers, from a response's (lower-case) header map. */
export function documentFraming(headers: Record<string, string>): DocumentFraming {
  return {
    xFrameOptions: headers['x-frame-options'] ?? null,
    contentSecurityPolicy: headers['content-security-policy'] ?? null,
  };
}

const DEFAULT_PORTS: Record<string, string> = { 'http:': '80', 'https:': '443' };

/** One CSP source expression against the embedding page's origin. */
function sourceMatches(source: string, embedder: URL): boolean {
  const value = source.toLowerCase();
  if (value === '*') return embedder.protocol === 'http:' || embedder.protocol === 'https:';
  if (value.startsWith("'")) return false; // 'self' is the site's own origin, 'none' nothing.
  // A scheme source: `https:` (an `http:` source also allows https, CSP level 3).
  const scheme = /^([a-z][a-z0-9+.-]*):$/.exec(value);
  if (scheme) {
    return (
      `${scheme[1]}:` === embedder.protocol ||
      (scheme[1] === 'http' && embedder.protocol === 'https:')
    );
  }
  // A host source: [scheme://]host[:port][/path]; the path does not matter for ancestors.
  const host = /^(?:([a-z][a-z0-9+.-]*):\/\/)?(\*|(?:\*\.)?[^/:]+)(?::(\d+|\*))?(?:\/.*)?$/.exec(
    value,
  );
  if (!host) return false;
  const [, sourceScheme, sourceHost, sourcePort] = host;
  if (sourceScheme !== undefined) {
    const ok =
      `${sourceScheme}:` === embedder.protocol ||
      (sourceScheme === 'http' && embedder.protocol === 'https:');
    if (!ok) return false;
  } else if (embedder.protocol !== 'http:' && embedder.protocol !== 'https:') {
    return false;
  }
  const hostname = embedder.hostname.toLowerCase();
  if (sourceHost === '*') {
    // Any host.
  } else if (sourceHost!.startsWith('*.')) {
    if (!hostname.endsWith(sourceHost!.slice(1))) return false;
  } else if (hostname !== sourceHost) {
    return false;
  }
  if (sourcePort === '*') return true;
  const port = embedder.port || DEFAULT_PORTS[embedder.protocol] || '';
  const wanted =
    sourcePort ?? DEFAULT_PORTS[sourceScheme ? `${sourceScheme}:` : embedder.protocol] ?? '';
  return port === wanted || (sourcePort === undefined && sourceScheme === 'http' && port === '443');
}

/** The `frame-ancestors` source lists of each enforced policy that has one. */
function frameAncestors(csp: string): string[][] {
  const lists: string[][] = [];
  // Several policies arrive joined by commas (several headers, or one header listing them).
  for (const policy of csp.split(',')) {
    for (const directive of policy.split(';')) {
      const [name, ...sources] = directive.trim().split(/\s+/);
      if (name?.toLowerCase() === 'frame-ancestors') {
        lists.push(sources.filter(Boolean));
        break; // Only a policy's first occurrence of a directive counts.
      }
    }
  }
  return lists;
}

/** Whether a page with these headers may be framed by a page of `embedderOrigin`. */
export function allowsFraming(framing: DocumentFraming, embedderOrigin: string): boolean {
  const embedder = new URL(embedderOrigin);
  if (framing.contentSecurityPolicy !== null) {
    const lists = frameAncestors(framing.contentSecurityPolicy);
    if (lists.length > 0) {
      return lists.every((sources) => sources.some((source) => sourceMatches(source, embedder)));
    }
  }
  if (framing.xFrameOptions === null) return true;
  const values = framing.xFrameOptions
    .split(',')
    .map((v) => v.trim().toLowerCase())
    .filter(Boolean);
  return values.every((v) => v === 'allowall');
}
