import { z } from 'zod';

export interface WebResult {
  title: string;
  url: string;
  description: string;
}

export interface WebSearchProvider {
  search(query: string, count: number): Promise<WebResult[]>;
}

export interface BraveSearchOptions {
  apiUrl: string;
  apiKey: string;
  /** The whole call, answer included; on expiry the search fails and the caller falls back. */
  timeoutMs: number;
}

/** Brave answers at most 20 results per call and reads at most 400 characters of the query. */
const MAX_COUNT = 20;
const MAX_QUERY_LENGTH = 400;
const MAX_TITLE_LENGTH = 200;
const MAX_DESCRIPTION_LENGTH = 300;

const BraveAnswer = z.object({
  web: z.object({ results: z.array(z.unknown()) }).optional(),
});

const BraveResult = z.object({
  title: z.string(),
  url: z.string(),
  description: z.string().optional(),
});

const ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
};

/** Brave marks matched words with <strong> and escapes entities; the grid wants plain text. */
export function toPlainText(html: string, maxLength: number): string {
  const text = html
    .replace(/<[^>]*>/g, '')
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (entity, name: string) => {
      if (name[0] === '#') {
        const code =
          name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : Number(name.slice(1));
        return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : '';
      }
      return ENTITIES[name.toLowerCase()] ?? entity;
    })
    .replace(/\s+/g, ' ')
    .trim();
  return text.length > maxLength ? `${text.slice(0, maxLength - 1).trimEnd()}…` : text;
}

/** Only plain http(s) addresses without credentials become references. */
function publicWebUrl(raw: string): string | null {
  try {
    const url = new URL(raw);
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
    if (url.username || url.password) return null;
    return url.href;
  } catch {
    return null;
  }
}

/**
 * Brave Search's web search API: `GET {apiUrl}?q=…&count=N` with the key in `X-Subscription-Token`,
 * answering `{ web: { results: [{ title, url, description }] } }`. Items that do not fit are
 * skipped; a failed call, a non-2xx answer or the time limit throws.
 */
export function createBraveSearch(options: BraveSearchOptions): WebSearchProvider {
  return {
    async search(query, count) {
      const url = new URL(options.apiUrl);
      url.searchParams.set('q', query.slice(0, MAX_QUERY_LENGTH));
      url.searchParams.set('count', String(Math.min(Math.max(1, count), MAX_COUNT)));
      const response = await fetch(url, {
        headers: { accept: 'application/json', 'x-subscription-token': options.apiKey },
        signal: AbortSignal.timeout(options.timeoutMs),
      });
      if (!response.ok) {
        await response.body?.cancel();
        throw new Error(`web search answered ${response.status}`);
      }
      const answer = BraveAnswer.parse(await response.json());
      const results: WebResult[] = [];
      for (const item of answer.web?.results ?? []) {
        const parsed = BraveResult.safeParse(item);
        if (!parsed.success) continue;
        const href = publicWebUrl(parsed.data.url);
        const title = toPlainText(parsed.data.title, MAX_TITLE_LENGTH);
        if (!href || !title) continue;
        results.push({
          title,
          url: href,
          description: toPlainText(parsed.data.description ?? '', MAX_DESCRIPTION_LENGTH),
        });
      }
      return results;
    },
  };
}
