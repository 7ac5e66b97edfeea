import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { API_BASE_PATH } from '@mirror/contract';
import { configureApiClient } from '../lib/api-client';

export interface RecordedRequest {
  method: string;
  path: string;
  authorization: string | null;
  body: unknown;
}

export interface Reply {
  status?: number;
  body?: unknown;
  /** Sends `body` (a string) as it is with this type, instead of as JSON. */
  contentType?: string;
}

/** `METHOD /path` (under /api) → the answer, or a function of the request that makes one. */
export type Routes = Record<string, Reply | ((request: RecordedRequest) => Reply)>;

export interface TestServer {
  requests: RecordedRequest[];
  /** Replaces the answers from now on (the recorded requests stay). */
  setRoutes: (routes: Routes) => void;
  close: () => Promise<void>;
}

/**
 * A real HTTP server on 127.0.0.1 standing in for the API, with the app's api client pointed at it:
 * components are tested through their real fetch, headers and error handling.
 */
export async function startTestServer(initialRoutes: Routes): Promise<TestServer> {
  let routes = initialRoutes;
  const requests: RecordedRequest[] = [];
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk: Buffer) => (raw += chunk.toString()));
    req.on('end', () => {
      const path = (req.url ?? '').replace(/^\/api/, '');
      const request: RecordedRequest = {
        method: req.method ?? 'GET',
        path,
        authorization: req.headers.authorization ?? null,
        body: raw ? (JSON.parse(raw) as unknown) : null,
      };
      requests.push(request);
      const route = routes[`${request.method} ${path}`];
      const reply =
        typeof route === 'function'
          ? route(request)
          : (route ?? { status: 404, body: { message: 'No route' } });
      if (reply.contentType) {
        res.writeHead(reply.status ?? 200, { 'Content-Type': reply.contentType });
        res.end(String(reply.body ?? ''));
        return;
      }
      res.writeHead(reply.status ?? 200, { 'Content-Type': 'application/json' });
      res.end(reply.body === undefined ? '' : JSON.stringify(reply.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  configureApiClient({ baseUrl: `http://127.0.0.1:${port}${API_BASE_PATH}` });
  return {
    requests,
    setRoutes: (next) => {
      routes = next;
    },
    close: async () => {
      configureApiClient({ baseUrl: API_BASE_PATH });
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
