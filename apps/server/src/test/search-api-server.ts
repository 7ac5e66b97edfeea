import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One scripted answer of the local search API: results, an error status, or raw JSON. */
export type SearchAnswer =
  | { results: unknown[]; delayMs?: number }
  | { status: number; delayMs?: number }
  | { body: unknown; delayMs?: number };

export interface SearchRequest {
  query: string | null;
  count: string | null;
  token: string | undefined;
  accept: string | undefined;
}

/**
 * A local server speaking Brave Search's web search API (`GET /res/v1/web/search?q=…&count=N`,
 * key in `X-Subscription-Token`, answer `{ web: { results: [{ title, url, description }] } }`),
 * so tests run our real fetch client against it. Each request takes the next scripted answer (the
 * last one repeats) and is recorded. A wrong or missing key gets Brave's 401.
 */
export async function startSearchApiServer(answers: SearchAnswer[], apiKey = 'test-search-key') {
  const requests: SearchRequest[] = [];
  let next = 0;
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const send = (status: number, body: unknown) => {
      if (res.destroyed) return;
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (req.method !== 'GET' || url.pathname !== '/res/v1/web/search') {
      return send(404, { type: 'ErrorResponse', error: { status: 404, code: 'NOT_FOUND' } });
    }
    const token = req.headers['x-subscription-token'];
    requests.push({
      query: url.searchParams.get('q'),
      count: url.searchParams.get('count'),
      token: typeof token === 'string' ? token : undefined,
      accept: req.headers.accept,
    });
    if (token !== apiKey) {
      return send(401, {
        type: 'ErrorResponse',
        error: { status: 401, code: 'SUBSCRIPTION_TOKEN_INVALID' },
      });
    }
    const answer = answers[Math.min(next++, answers.length - 1)]!;
    setTimeout(() => {
      if ('status' in answer) {
        return send(answer.status, { type: 'ErrorResponse', error: { status: answer.status } });
      }
      if ('body' in answer) return send(200, answer.body);
      send(200, {
        type: 'search',
        query: { original: url.searchParams.get('q') },
        web: { type: 'search', results: answer.results },
      });
    }, answer.delayMs ?? 0);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/res/v1/web/search`,
    apiKey,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A web result as Brave shapes it: matched words in <strong>, entities escaped. */
export function braveResult(title: string, url: string, description = '') {
  return {
    title,
    url,
    description,
    type: 'search_result',
    meta_url: { hostname: new URL(url).hostname },
  };
}
