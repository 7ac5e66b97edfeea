import type { HttpClient, HttpResponse } from '../net/http-client.js';
import type { UrlMapper } from '../url-map.js';
import { DEFAULTS } from './defaults.js';
import { bodyTypeOf } from './body-type.js';
import { collect } from './fetch-policy.js';
import type { Frontier } from './frontier.js';
import type { Counters } from './progress.js';
import { ALLOW_ALL, parseRobots, type Robots } from './robots.js';
import type { Scope } from './scope.js';
import { parseSitemap } from './sitemap.js';

/**
 * Keeps a file the run read beside the crawl (robots.txt, a sitemap) in the copy, as answered;
 * never throws (a file that cannot be kept is only missing from the copy).
 */
export type KeepSiteFile = (
  url: URL,
  status: number,
  contentType: string,
  raw: Buffer,
) => Promise<void>;

async function keepQuietly(
  keep: KeepSiteFile | undefined,
  url: URL,
  response: HttpResponse,
  raw: Buffer,
): Promise<void> {
  if (response.status < 200 || response.status >= 300) return;
  try {
    await keep?.(url, response.status, response.headers['content-type'] ?? '', raw);
  } catch {
    // a store that refuses it stops the run on its own
  }
}

/**
 * The robots.txt of each origin, fetched once (every page of the origin waits for it), and kept
 * in the copy (`keep`) when the origin has one.
 */
export class RobotsCache {
  private readonly robots = new Map<string, Promise<Robots>>();

  constructor(
    private readonly client: HttpClient,
    private readonly signal: AbortSignal,
    private readonly counters: Counters,
    private readonly userAgent: string,
    private readonly respect: boolean,
    private readonly keep?: KeepSiteFile,
  ) {}

  for(url: URL): Promise<Robots> {
    const origin = url.origin;
    let robots = this.robots.get(origin);
    if (!robots) {
      robots = this.fetch(origin);
      this.robots.set(origin, robots);
    }
    return robots;
  }

  private async fetch(origin: string): Promise<Robots> {
    const robotsUrl = `${origin}/robots.txt`;
    try {
      const response = await this.client.request(robotsUrl, {
        method: 'GET',
        signal: this.signal,
        maxBytes: 512 * 1024,
        // Every page of the origin waits for its robots.txt: a server that does not answer it
        // is taken as having none, soon.
        maxRequestMs: DEFAULTS.robotsTimeoutMs,
      });
      this.counters.requests++;
      const raw = await collect(response.body);
      if (response.status >= 400) return ALLOW_ALL;
      const robots = parseRobots(robotsUrl, raw.toString('utf8'), this.userAgent);
      await keepQuietly(this.keep, new URL(robotsUrl), response, raw);
      return this.respect ? robots : { ...ALLOW_ALL, sitemaps: robots.sitemaps };
    } catch {
      return ALLOW_ALL;
    }
  }
}

/** What requests beside the crawl (sitemaps, the unknown-address probe) use of the run. */
export interface SideRequests {
  client: HttpClient;
  signal: AbortSignal;
  counters: Counters;
  robots: RobotsCache;
  mapper: UrlMapper;
  scope: Scope;
  frontier: Frontier;
  /** Keeps a sitemap the run read in the copy. */
  keep?: KeepSiteFile;
}

/**
 * Queues the pages the site's sitemaps list (those robots.txt names, and /sitemap.xml), following
 * sitemap indexes, up to DEFAULTS.maxSitemapFiles files and the pages the run may copy. Every
 * sitemap file read (indexes, their children, gzipped ones) is kept in the copy as it was
 * answered; one the site does not have is no failure.
 */
export async function readSitemaps(
  startUrl: URL,
  run: SideRequests,
  maxPages: number,
): Promise<void> {
  const robots = await run.robots.for(startUrl);
  const queue = [...new Set([...robots.sitemaps, `${startUrl.origin}/sitemap.xml`])];
  let files = 0;
  let found = 0;
  // More pages than the run may copy would only be counted as over the limit.
  const wanted = Math.min(DEFAULTS.maxSitemapUrls, maxPages);
  while (queue.length > 0 && files < DEFAULTS.maxSitemapFiles && found < wanted) {
    const next = queue.shift()!;
    files++;
    let sitemapUrl: URL;
    try {
      sitemapUrl = new URL(next);
    } catch {
      continue;
    }
    if (!run.mapper.isOwn(sitemapUrl)) continue;
    try {
      const response = await run.client.request(sitemapUrl.href, {
        method: 'GET',
        signal: run.signal,
        maxBytes: 50 * 1024 ** 2,
      });
      run.counters.requests++;
      if (response.status >= 400) {
        await response.discard();
        continue;
      }
      const raw = await collect(response.body);
      await keepQuietly(run.keep, sitemapUrl, response, raw);
      const sitemap = parseSitemap(raw, DEFAULTS.maxSitemapUrls);
      for (const location of sitemap.locations) {
        if (found >= wanted) break;
        if (sitemap.kind === 'index') {
          if (queue.length < DEFAULTS.maxSitemapFiles) queue.push(location);
        } else {
          try {
            const url = new URL(location);
            if (run.scope.pageRefusal(url, 1) === null) {
              run.frontier.enqueue(url, 1, 'page', false);
              found++;
            }
          } catch {
            // not a URL: skip
          }
        }
      }
    } catch {
      // no sitemap: links alone will do
    }
  }
}

/**
 * Asks the site for an address it cannot have, to copy what it does there: an app that routes
 * on the client answers every path with its shell (200), so deep links such as /products/42
 * work; another site answers with its own 404 page. Null when the answer is no page (or robots.txt
 * forbids asking).
 */
export async function fetchFallback(
  startUrl: URL,
  run: SideRequests,
  maxFileBytes: number,
): Promise<{ url: URL; status: number; contentType: string; raw: Buffer } | null> {
  const url = new URL(`/mirror-probe-${Math.random().toString(36).slice(2, 10)}`, startUrl);
  if (!(await run.robots.for(url)).isAllowed(url.href)) return null;
  let response: HttpResponse;
  try {
    run.counters.requests++;
    response = await run.client.request(url.href, {
      signal: run.signal,
      maxBytes: Math.min(maxFileBytes, DEFAULTS.maxParsedBytes),
      followRedirects: false,
    });
  } catch {
    return null;
  }
  const { status } = response;
  const contentType = response.headers['content-type'] ?? '';
  const isPage = bodyTypeOf(contentType, url, 'page') === 'html';
  if ((status !== 200 && status !== 404) || !isPage) {
    await response.discard();
    return null;
  }
  try {
    return { url, status, contentType, raw: await collect(response.body) };
  } catch {
    return null;
  }
}
