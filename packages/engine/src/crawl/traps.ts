/**
 * Crawler traps: URLs that multiply without adding content. Each check is cheap and conservative;
 * a URL flagged here is reported (reason 'trap'), never silently dropped.
 */
export const TRAP_LIMITS = {
  maxUrlLength: 2_000,
  maxPathSegments: 30,
  maxSegmentRepeats: 3,
  /**
   * Distinct query-string variants allowed per page "shape" (path with digits generalized, query
   * keys only): endless `?page=N` or `?date=…` listings. Numbered paths (`/p/123.html`) are normal
   * and only bounded by the page limit.
   */
  maxPerShape: 1_000,
  /** Dates further than this from today, in years, look like an endless calendar. */
  calendarYears: 5,
};

export function trapReason(url: URL, now = new Date()): string | null {
  if (url.href.length > TRAP_LIMITS.maxUrlLength)
    return `URL longer than ${TRAP_LIMITS.maxUrlLength} characters`;
  const segments = url.pathname.split('/').filter(Boolean);
  if (segments.length > TRAP_LIMITS.maxPathSegments) return 'path too deep';
  const counts = new Map<string, number>();
  for (const s of segments) counts.set(s, (counts.get(s) ?? 0) + 1);
  for (const [segment, count] of counts) {
    if (count > TRAP_LIMITS.maxSegmentRepeats)
      return `path segment "${segment}" repeats ${count} times`;
  }
  if (hasRepeatingSequence(segments)) return 'repeating path pattern';
  const year = now.getUTCFullYear();
  for (const match of `${url.pathname}?${url.search}`.matchAll(
    /(?:^|[^0-9])((?:19|20|21)\d\d)[-/](0?[1-9]|1[0-2])(?:[^0-9]|$)/g,
  )) {
    const y = Number(match[1]);
    if (Math.abs(y - year) > TRAP_LIMITS.calendarYears)
      return `calendar date ${match[1]}-${match[2]} far from today`;
  }
  return null;
}

function hasRepeatingSequence(segments: string[]): boolean {
  // a/b/c/a/b/c/a/b/c: a block of 2+ segments repeated three times in a row.
  for (let size = 2; size * 3 <= segments.length; size++) {
    for (let start = 0; start + size * 3 <= segments.length; start++) {
      const block = segments.slice(start, start + size).join('/');
      if (
        segments.slice(start + size, start + size * 2).join('/') === block &&
        segments.slice(start + size * 2, start + size * 3).join('/') === block
      ) {
        return true;
      }
    }
  }
  return false;
}

/** Counts query-string URLs per shape so a pattern that keeps producing new URLs (?page=1,2,3…) is capped. */
export function createShapeBudget(limit = TRAP_LIMITS.maxPerShape) {
  const seen = new Map<string, number>();
  return {
    /** False once the URL's shape has used its budget; URLs without a query always pass. */
    take(url: URL): boolean {
      if (!url.search) return true;
      const keys = [...url.searchParams.keys()].sort().join('&');
      const shape = `${url.host}${url.pathname.replace(/\d+/g, '#')}?${keys}`;
      const n = (seen.get(shape) ?? 0) + 1;
      seen.set(shape, n);
      return n <= limit;
    },
  };
}
