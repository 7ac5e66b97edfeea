/**
 * Where a URL lives in the copy. The copy is served from the root of its own (sub)domain and keeps
 * the original paths, so scripts that build URLs at run time still find their files: same-site URLs
 * become root-relative (`/a/b?q`), other hosts move under a reserved prefix (`/_x/<host>/a/b?q`).
 */
export const FOREIGN_PREFIX = '/_x/';

export interface UrlMapper {
  /** True when the URL belongs to the mirrored site (same host, or a subdomain when included). */
  isOwn(url: URL): boolean;
  /** Path + query in the copy; the fragment is not part of it. */
  toCopyPath(url: URL): string;
  /** The original URL of a copy path (inverse of toCopyPath). */
  toOriginalUrl(copyPath: string): string;
}

function hostKey(url: URL): string {
  return url.port ? `${url.hostname}:${url.port}` : url.hostname;
}

export function createUrlMapper(
  startUrl: string,
  options: { includeSubdomains?: boolean } = {},
): UrlMapper {
  const start = new URL(startUrl);
  const siteHost = hostKey(start);
  const siteHostname = start.hostname.replace(/^www\./, '');
  const scheme = start.protocol;

  const isOwn = (url: URL) =>
    hostKey(url) === siteHost ||
    (options.includeSubdomains === true &&
      (url.hostname === siteHostname || url.hostname.endsWith(`.${siteHostname}`)) &&
      url.port === start.port);

  return {
    isOwn,
    toCopyPath(url) {
      const path = `${url.pathname}${url.search}`;
      if (hostKey(url) === siteHost) return path;
      // Other hosts keep their scheme implicitly (https unless it was http on a non-https site).
      const schemeTag = url.protocol === scheme ? '' : url.protocol === 'http:' ? '~http/' : '';
      return `${FOREIGN_PREFIX}${schemeTag}${hostKey(url)}${path}`;
    },
    toOriginalUrl(copyPath) {
      if (!copyPath.startsWith(FOREIGN_PREFIX)) return new URL(copyPath, start).href;
      let rest = copyPath.slice(FOREIGN_PREFIX.length);
      let protocol = scheme;
      if (rest.startsWith('~http/')) {
        protocol = 'http:';
        rest = rest.slice('~http/'.length);
      }
      const slash = rest.indexOf('/');
      const host = slash === -1 ? rest : rest.slice(0, slash);
      const path = slash === -1 ? '/' : rest.slice(slash);
      return new URL(path, `${protocol}//${host}`).href;
    },
  };
}
