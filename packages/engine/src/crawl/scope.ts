import type { UrlMapper } from '../url-map.js';

export interface ScopeOptions {
  mapper: UrlMapper;
  include?: (string | RegExp)[];
  exclude?: (string | RegExp)[];
  maxDepth?: number;
}

const toRegExp = (p: string | RegExp) => (typeof p === 'string' ? new RegExp(p) : p);

/** Which pages the crawl follows: the site's own host(s), include/exclude patterns, depth. */
export function createScope(options: ScopeOptions) {
  const include = (options.include ?? []).map(toRegExp);
  const exclude = (options.exclude ?? []).map(toRegExp);
  return {
    /** Null when the page is in scope, else why not. */
    pageRefusal(url: URL, depth: number): string | null {
      if (!options.mapper.isOwn(url)) return 'other site';
      if (options.maxDepth !== undefined && depth > options.maxDepth)
        return `deeper than ${options.maxDepth}`;
      if (include.length > 0 && !include.some((r) => r.test(url.href)))
        return 'not matched by include patterns';
      if (exclude.some((r) => r.test(url.href))) return 'matched by an exclude pattern';
      return null;
    },
    /** Assets are captured from any host (CDNs), unless excluded. */
    assetRefusal(url: URL): string | null {
      if (exclude.some((r) => r.test(url.href))) return 'matched by an exclude pattern';
      return null;
    },
  };
}

export type Scope = ReturnType<typeof createScope>;
