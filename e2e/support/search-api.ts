import http from 'node:http';
import { E2E_PORT } from './server';

/**
 * Idea search answers from the bundled catalogue (real internet sites) merged with the optional web
 * search provider. The e2e server is pointed (SEARCH_API_ENV in playwright.config.ts) at this local
 * stand-in speaking Brave Search's wire protocol, so a spec can put a locally served website among
 * the references and the server's real search client is exercised.
 */
export const E2E_SEARCH_PORT = Number(process.env.E2E_SEARCH_PORT ?? E2E_PORT + 10);
const SEARCH_API_KEY = 'e2e-search-key';

/** For the webServer's env in playwright.config.ts. */
export const SEARCH_API_ENV = {
  SEARCH_API_KEY,
  SEARCH_API_URL: `http://127.0.0.1:${E2E_SEARCH_PORT}/res/v1/web/search`,
};

export interface WebResult {
  title: string;
  url: string;
  description: string;
}

export interface SearchApi {
  /** The queries received, newest last. */
  queries: string[];
  close: () => Promise<void>;
}

/**
 * Answers every query with `results` (Brave: `{ web: { results } }`, key in X-Subscription-Token).
 * The server knows one stand-in address, so specs running in parallel take turns: while another
 * spec's stand-in holds the port, this waits for it (up to `waitForPortMs`).
 */
export async function startSearchApi(
  results: WebResult[],
  { waitForPortMs = 20_000 }: { waitForPortMs?: number } = {},
): Promise<SearchApi> {
  const queries: string[] = [];
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (req.method !== 'GET' || url.pathname !== '/res/v1/web/search') {
      return send(404, { type: 'ErrorResponse', error: { status: 404 } });
    }
    if (req.headers['x-subscription-token'] !== SEARCH_API_KEY) {
      return send(401, { type: 'ErrorResponse', error: { status: 401 } });
    }
    queries.push(url.searchParams.get('q') ?? '');
    send(200, { type: 'search', web: { type: 'search', results } });
  });
  const deadline = Date.now() + waitForPortMs;
  for (;;) {
    try {
      await new Promise<void>((resolve, reject) => {
        const onError = (error: Error) => {
          server.off('listening', onListening);
          reject(error);
        };
        const onListening = () => {
          server.off('error', onError);
          resolve();
        };
        server.once('error', onError);
        server.once('listening', onListening);
        server.listen(E2E_SEARCH_PORT, '127.0.0.1');
      });
      break;
    } catch (error) {
      const inUse = (error as NodeJS.ErrnoException).code === 'EADDRINUSE';
      if (!inUse || Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
  return {
    queries,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
