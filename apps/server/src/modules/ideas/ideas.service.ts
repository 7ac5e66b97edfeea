import { IDEA_MESSAGES, IDEA_SEARCH_LIMIT, type ReferenceWebsite } from '@mirror/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config/env.js';
import { tooManyRequests } from '../../errors.js';
import type { UserRow } from '../../platform/db/schema.js';
import type { RateLimiter, RateLimitRule } from '../../platform/rate-limit/rate-limiter.js';
import type { ScreenshotsService } from '../screenshots/screenshots.service.js';
import { searchCatalogue } from './catalogue-search.js';
import { createBraveSearch, type WebResult, type WebSearchProvider } from './web-search.js';

const MINUTE = 60_000;

/** Per signed-in user: generous for typing ideas, low enough to cap a paid web search API's bill. */
export const IDEA_SEARCH_RATE_LIMIT: RateLimitRule = { limit: 30, windowMs: 10 * MINUTE };

/** The web search must answer within this, or the catalogue answers alone. */
export const WEB_SEARCH_TIMEOUT_MS = 4_000;

export interface IdeasServiceDeps {
  config: Config;
  limiter: RateLimiter;
  log: FastifyBaseLogger;
  /** Shorter in tests of the time limit. */
  webSearchTimeoutMs?: number;
  /** The references' stored screenshots, and captures of the missing ones (docs/screenshots.md). */
  screenshots?: Pick<ScreenshotsService, 'referencePreviews'>;
}

export interface IdeaSearch {
  idea: string;
  limit?: number;
}

/** `www.example.com` and `example.com` are one site. */
function siteKey(url: string): string {
  return new URL(url).hostname.toLowerCase().replace(/^www\./, '');
}

function fromWeb(result: WebResult): ReferenceWebsite {
  return {
    title: result.title,
    url: result.url,
    screenshot: null,
    screenshotUrl: null,
    frameable: false,
    previewUrl: result.url,
    description: result.description,
    category: null,
    source: 'web',
  };
}

/**
 * Catalogue and web results taken in turns, catalogue first (curated, known to be well designed;
 * the web adds sites specific to the idea), skipping any site already taken, up to `limit`.
 * When one list runs out the other fills the rest.
 */
export function mergeReferences(
  catalogue: readonly ReferenceWebsite[],
  web: readonly ReferenceWebsite[],
  limit: number,
): ReferenceWebsite[] {
  const merged: ReferenceWebsite[] = [];
  const seen = new Set<string>();
  for (let i = 0; merged.length < limit && (i < catalogue.length || i < web.length); i++) {
    for (const candidate of [catalogue[i], web[i]]) {
      if (!candidate || merged.length >= limit) continue;
      const key = siteKey(candidate.url);
      if (seen.has(key)) continue;
      seen.add(key);
      merged.push(candidate);
    }
  }
  return merged;
}

export function createIdeasService(deps: IdeasServiceDeps) {
  const { config, limiter, log } = deps;
  const web: WebSearchProvider | null = config.search.apiKey
    ? createBraveSearch({
        apiUrl: config.search.apiUrl,
        apiKey: config.search.apiKey,
        timeoutMs: deps.webSearchTimeoutMs ?? WEB_SEARCH_TIMEOUT_MS,
      })
    : null;

  async function searchWeb(idea: string, limit: number): Promise<ReferenceWebsite[]> {
    if (!web) return [];
    try {
      return (await web.search(idea, limit)).map(fromWeb);
    } catch (err) {
      log.warn({ err }, 'web search failed; answering from the catalogue alone');
      return [];
    }
  }

  /**
   * Each reference's stored screenshot (fresh or stale) and whether it may be framed; captures of
   * the ones without a fresh screenshot start in the background (REFERENCE_SCREENSHOTS).
   */
  async function withPreviews(references: ReferenceWebsite[]): Promise<ReferenceWebsite[]> {
    if (!deps.screenshots || references.length === 0) return references;
    try {
      const previews = await deps.screenshots.referencePreviews(
        references.map((r) => r.url),
        { capture: config.mirror.referenceScreenshots },
      );
      return references.map((reference) => {
        const preview = previews.get(reference.url);
        if (!preview) return reference;
        return {
          ...reference,
          screenshot: preview.screenshotUrl,
          screenshotUrl: preview.screenshotUrl,
          frameable: preview.frameable,
        };
      });
    } catch (err) {
      // The references are the answer; their pictures can come later.
      log.warn({ err }, 'reference screenshots could not be looked up');
      return references;
    }
  }

  return {
    /** SPEC §7 `POST /domains/search-by-idea`: reference websites for an idea, best first. */
    async searchByIdea(user: UserRow, input: IdeaSearch): Promise<ReferenceWebsite[]> {
      const hit = await limiter.hit(`idea-search:user:${user.id}`, IDEA_SEARCH_RATE_LIMIT);
      if (!hit.allowed) throw tooManyRequests(hit.retryAfterSeconds, IDEA_MESSAGES.searchLimit);
      const limit = input.limit ?? IDEA_SEARCH_LIMIT;
      const webResults = searchWeb(input.idea, limit);
      const catalogue = searchCatalogue(input.idea, limit).map(({ site }): ReferenceWebsite => ({
        title: site.title,
        url: site.url,
        screenshot: null,
        screenshotUrl: null,
        frameable: false,
        previewUrl: site.url,
        description: site.description,
        category: site.category,
        source: 'catalogue',
      }));
      return withPreviews(mergeReferences(catalogue, await webResults, limit));
    },
  };
}

export type IdeasService = ReturnType<typeof createIdeasService>;
