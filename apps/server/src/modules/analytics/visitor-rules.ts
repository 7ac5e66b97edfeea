/**
 * What counts as a visit, and how visitors are told apart without cookies. Pure functions: the
 * visit recorder calls them on the sites host's hot path (bots are memoized per User-Agent value).
 */
import { createHash } from 'node:crypto';

/**
 * Words that only crawlers, link previewers, monitors, scripts and automated browsers put in their
 * User-Agent. `bot` counts as a word's end (Googlebot, AhrefsBot/7.0, Slackbot-LinkExpanding) but
 * not inside a name (Cubot phones).
 */
const BOT_WORDS = new RegExp(
  [
    'bot(?:$|[\\s/;:)_.,+-])',
    'robot',
    'crawl',
    'spider',
    'slurp',
    'archiver',
    'scrap',
    'headless',
    'phantomjs',
    'puppeteer',
    'playwright',
    'selenium',
    'webdriver',
    'lighthouse',
    'pagespeed',
    'gtmetrix',
    'ptst/',
    'pingdom',
    'uptime',
    'monitor',
    'synthetic',
    'statuscake',
    'site24x7',
    'check_http',
    'health-?check',
    'preview',
    'facebookexternalhit',
    'embedly',
    'iframely',
    'google-(?:inspectiontool|read-aloud|safety|site-verification|structured-data)',
    'googleother',
    'mediapartners',
    'feedfetcher',
    'validator',
    'httpclient',
    'python',
    'curl',
    'wget',
    '\\+https?://',
  ].join('|'),
  'i',
);

/**
 * True for a User-Agent that is not a person's browser: empty, not a browser's `Mozilla/…` or
 * `Opera/…` (curl, wget, Go, Python, Java, okhttp, link previewers, load generators), or a
 * browser-like one naming a crawler, a monitor, a headless or driven browser.
 */
export function isBotUserAgent(userAgent: string | undefined): boolean {
  const ua = userAgent?.trim() ?? '';
  if (ua === '') return true;
  if (!ua.startsWith('Mozilla/') && !ua.startsWith('Opera/')) return true;
  return BOT_WORDS.test(ua.replace(/cubot/gi, ''));
}

/**
 * How many visitors one address (an IPv6 /64) can count as in a day. Any client sets its
 * User-Agent, so it is a weak signal: it tells apart a few people behind one router, never more.
 */
export const VISITORS_PER_ADDRESS = 4;

/**
 * Which of an address's VISITORS_PER_ADDRESS visitors a User-Agent stands for (FNV-1a of the
 * value): the same browser always lands on the same one, in every process; fifty made-up
 * User-Agents land on at most four.
 */
export function userAgentSlotOf(userAgent: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < userAgent.length; i++) {
    hash ^= userAgent.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0) % VISITORS_PER_ADDRESS;
}

/**
 * A visitor's mark for one day and one site (or parked domain): SHA-256 of the day's secret salt,
 * the scope, the address (its /64 for IPv6, `addressGroupOf`) and the visitor's User-Agent slot
 * (`userAgentSlotOf`), 128 bits in hex. The salt changes every day and is deleted after two, so
 * marks cannot be linked across days or traced back to an address.
 */
export function hashVisitor(salt: string, scope: string, address: string, signal: string): string {
  return createHash('sha256')
    .update(`${salt}\n${scope}\n${address}\n${signal}`)
    .digest('hex')
    .slice(0, 32);
}

/** The UTC day (YYYY-MM-DD) of a time in milliseconds. */
export function utcDayOf(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** The UTC day `days` before `day` (YYYY-MM-DD). */
export function dayBefore(day: string, days: number): string {
  return utcDayOf(Date.parse(`${day}T00:00:00Z`) - days * 86_400_000);
}

/** Where the authority of a URL-ish string starts and ends, or null when it has none. */
function authorityBounds(url: string): [number, number] | null {
  const scheme = url.indexOf('://');
  if (scheme === -1) return null;
  const from = scheme + 3;
  let to = url.length;
  for (let i = from; i < url.length; i++) {
    const c = url.charCodeAt(i);
    if (c === 47 /* / */ || c === 63 /* ? */ || c === 35 /* # */) {
      to = i;
      break;
    }
  }
  return to > from ? [from, to] : null;
}

/** The host[:port] of a Referer value, compared case-insensitively with the request's Host. */
export function refererIsSameHost(referer: string | undefined, host: string): boolean {
  if (referer === undefined || host === '') return false;
  const bounds = authorityBounds(referer);
  if (bounds === null || bounds[1] - bounds[0] !== host.length) return false;
  return referer.slice(bounds[0], bounds[1]).toLowerCase() === host.toLowerCase();
}

const MAX_KEY_LENGTH = 200;

/**
 * The host a Referer names, as the top referrers list it: lower case, without user, port or a
 * leading `www.`; null when it names none.
 */
export function referrerHostOf(referer: string | undefined): string | null {
  if (referer === undefined) return null;
  const bounds = authorityBounds(referer);
  if (bounds === null) return null;
  let host = referer.slice(bounds[0], bounds[1]).toLowerCase();
  host = host.slice(host.lastIndexOf('@') + 1);
  host = host.startsWith('[') ? host.slice(0, host.indexOf(']') + 1) : host.split(':')[0]!;
  if (host.startsWith('www.')) host = host.slice(4);
  if (host === '' || host.length > MAX_KEY_LENGTH || !/^[a-z0-9.\-[\]:_]+$/.test(host)) {
    return null;
  }
  return host;
}

/**
 * The path of a request target as top pages list it: no query or fragment (they may carry
 * personal data), at most 200 characters.
 */
export function pagePathOf(url: string): string {
  let path = url;
  if (!path.startsWith('/')) {
    const bounds = authorityBounds(path);
    path = bounds === null ? '/' : path.slice(bounds[1]) || '/';
  }
  const end = path.search(/[?#]/);
  if (end !== -1) path = path.slice(0, end);
  if (path === '') path = '/';
  return path.length > MAX_KEY_LENGTH ? path.slice(0, MAX_KEY_LENGTH) : path;
}
