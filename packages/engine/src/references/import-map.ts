import { isRecord } from './json.js';

/** A specifier key and its address (null: the map blocks the specifier). */
type MapEntry = readonly [key: string, address: URL | null];

/** An import map with keys and addresses normalized against the page that holds it. */
export interface ImportMap {
  /** Longest key first, as the HTML standard sorts them. */
  imports: MapEntry[];
  scopes: { prefix: string; imports: MapEntry[] }[];
}

/** `/x`, `./x`, `../x` against the base, or an absolute URL; null for a bare specifier. */
function urlLike(specifier: string, base: string): URL | null {
  try {
    if (specifier.startsWith('/') || specifier.startsWith('./') || specifier.startsWith('../'))
      return new URL(specifier, base);
    return new URL(specifier);
  } catch {
    return null;
  }
}

const byKeyDescending = (a: MapEntry, b: MapEntry) => (a[0] < b[0] ? 1 : a[0] > b[0] ? -1 : 0);

function specifierMap(table: unknown, base: string): MapEntry[] {
  if (!isRecord(table)) return [];
  const entries: MapEntry[] = [];
  for (const [key, value] of Object.entries(table)) {
    if (key === '') continue;
    const normalized = urlLike(key, base)?.href ?? key;
    let address = typeof value === 'string' ? urlLike(value, base) : null;
    // A prefix key needs a prefix address.
    if (address && key.endsWith('/') && !address.href.endsWith('/')) address = null;
    entries.push([normalized, address]);
  }
  return entries.sort(byKeyDescending);
}

/** Normalizes the parsed JSON of a `<script type=importmap>`; undefined when it is not an object. */
export function parseImportMap(json: unknown, baseUrl: string): ImportMap | undefined {
  if (!isRecord(json)) return undefined;
  const scopes: ImportMap['scopes'] = [];
  if (isRecord(json.scopes)) {
    for (const [prefix, table] of Object.entries(json.scopes)) {
      let url: URL;
      try {
        url = new URL(prefix, baseUrl);
      } catch {
        continue;
      }
      scopes.push({ prefix: url.href, imports: specifierMap(table, baseUrl) });
    }
  }
  scopes.sort((a, b) => (a.prefix < b.prefix ? 1 : a.prefix > b.prefix ? -1 : 0));
  return { imports: specifierMap(json.imports, baseUrl), scopes };
}

const SPECIAL = new Set(['http:', 'https:', 'ftp:', 'ws:', 'wss:', 'file:']);

/** The address for a specifier in one table: a URL, null when blocked, undefined when no key matches. */
function matchIn(table: MapEntry[], normalized: string, asUrl: URL | null): URL | null | undefined {
  for (const [key, address] of table) {
    if (key === normalized) return address;
    if (
      key.endsWith('/') &&
      normalized.startsWith(key) &&
      (!asUrl || SPECIAL.has(asUrl.protocol))
    ) {
      if (!address) return null;
      try {
        const url = new URL(normalized.slice(key.length), address);
        // `../` may not climb out of the mapped prefix.
        return url.href.startsWith(address.href) ? url : null;
      } catch {
        return null;
      }
    }
  }
  return undefined;
}

function resolveWith(
  map: ImportMap,
  normalized: string,
  asUrl: URL | null,
  referrer: string,
): URL | null | undefined {
  for (const scope of map.scopes) {
    if (
      scope.prefix === referrer ||
      (scope.prefix.endsWith('/') && referrer.startsWith(scope.prefix))
    ) {
      const found = matchIn(scope.imports, normalized, asUrl);
      if (found !== undefined) return found;
    }
  }
  return matchIn(map.imports, normalized, asUrl);
}

export interface ResolvedSpecifier {
  /** Every URL the specifier stands for under one of the maps (or itself when none applies). */
  urls: string[];
  /** A map resolved it: the specifier is bare, or a map redirects this URL-like specifier. */
  mapped: boolean;
}

/**
 * Resolves a module specifier as the HTML standard does, under each of several import maps in
 * turn: a module shared by pages with different maps may stand for different files.
 */
export function resolveModuleSpecifier(
  specifier: string,
  referrer: string,
  maps: readonly ImportMap[],
): ResolvedSpecifier {
  const asUrl = urlLike(specifier, referrer);
  const normalized = asUrl?.href ?? specifier;
  const urls = new Set<string>();
  let mapped = false;
  for (const map of maps) {
    const found = resolveWith(map, normalized, asUrl, referrer);
    if (found !== undefined) mapped = true;
    if (found) urls.add(found.href);
    else if (found === undefined && asUrl) urls.add(asUrl.href);
  }
  if (maps.length === 0 && asUrl) urls.add(asUrl.href);
  return { urls: [...urls], mapped };
}
