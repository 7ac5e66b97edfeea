// @vitest-environment node
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { NETWORK_ERROR_MESSAGE, STORAGE_KEYS } from '@mirror/contract';
import { ApiError, api, configureApiClient, setUnauthorizedHandler } from './api-client';

function createStorage(): Storage {
  const data = new Map<string, string>();
  return {
    get length() {
      return data.size;
    },
    clear: () => data.clear(),
    getItem: (key) => data.get(key) ?? null,
    key: (index) => Array.from(data.keys())[index] ?? null,
    removeItem: (key) => void data.delete(key),
    setItem: (key, value) => void data.set(key, String(value)),
  };
}

let server: http.Server;
let baseUrl: string;
const storage = createStorage();

function send(res: http.ServerResponse, status: number, body?: unknown, type = 'application/json') {
  res.writeHead(status, { 'Content-Type': type });
  res.end(body === undefined ? '' : typeof body === 'string' ? body : JSON.stringify(body));
}

beforeAll(async () => {
  vi.stubGlobal('window', { localStorage: storage, location: { assign: vi.fn() } });
  server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk: Buffer) => (raw += chunk.toString()));
    req.on('end', () => {
      switch (req.url) {
        case '/api/echo':
          return send(res, 200, {
            method: req.method,
            authorization: req.headers.authorization ?? null,
            contentType: req.headers['content-type'] ?? null,
            body: raw ? JSON.parse(raw) : null,
          });
        case '/api/message':
          return send(res, 400, { message: 'Email is required.' });
        case '/api/messages':
          return send(res, 400, { message: ['Email is required.', 'Password is required.'] });
        case '/api/bare-400':
          return send(res, 400);
        case '/api/bare-403':
          return send(res, 403, 'nope', 'text/plain');
        case '/api/bare-404':
          return send(res, 404, {});
        case '/api/bare-500':
          return send(res, 500, '<html>oops</html>', 'text/html');
        case '/api/bare-418':
          return send(res, 418);
        case '/api/unauthorized':
          return send(res, 401, {});
        case '/api/slow':
          setTimeout(() => send(res, 200, {}), 500);
          return;
        case '/api/cut-off':
          // Headers and half a body, then the connection is gone.
          res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': '100' });
          res.write('{"user":');
          setTimeout(() => res.destroy(), 20);
          return;
        case '/api/no-content':
          res.writeHead(204);
          return res.end();
        default:
          return send(res, 404, { message: 'No route' });
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`;
});

afterAll(async () => {
  vi.unstubAllGlobals();
  await new Promise((resolve) => server.close(resolve));
});

beforeEach(() => {
  storage.clear();
  configureApiClient({ baseUrl, timeoutMs: 10_000 });
});

async function failureOf(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

describe('api client', () => {
  it('sends JSON with the stored bearer token', async () => {
    storage.setItem(STORAGE_KEYS.token, 'secret-token');
    const answer = await api.post<Record<string, unknown>>('/echo', { email: 'a@b.co' });
    expect(answer).toEqual({
      method: 'POST',
      authorization: 'Bearer secret-token',
      contentType: 'application/json',
      body: { email: 'a@b.co' },
    });
  });

  it('sends no authorization header without a token and accepts empty answers', async () => {
    const answer = await api.get<Record<string, unknown>>('/echo');
    expect(answer.authorization).toBeNull();
    await expect(api.delete('/no-content')).resolves.toBeNull();
  });

  it('keeps the server message, joining a list with "; "', async () => {
    expect((await failureOf(api.get('/message'))).message).toBe('Email is required.');
    const error = await failureOf(api.get('/messages'));
    expect(error.message).toBe('Email is required.; Password is required.');
    expect(error.status).toBe(400);
  });

  it.each([
    ['/bare-400', 400, 'Bad request. Please check your input.'],
    ['/bare-403', 403, 'Access denied. You do not have permission.'],
    ['/bare-404', 404, 'Resource not found.'],
    ['/bare-500', 500, 'Server error. Please try again later.'],
    ['/bare-418', 418, 'Request failed with status 418'],
  ])('falls back to the SPEC text for %s', async (path, status, message) => {
    const error = await failureOf(api.get(path, { defaultMessage: 'Login failed' }));
    expect(error.status).toBe(status);
    expect(error.message).toBe(message);
  });

  it('reports a network error when nothing answers', async () => {
    configureApiClient({ baseUrl: 'http://127.0.0.1:1/api' });
    const error = await failureOf(api.get('/echo'));
    expect(error.status).toBe(0);
    expect(error.message).toBe(NETWORK_ERROR_MESSAGE);
  });

  it('reports a network error when the answer is cut off mid-body', async () => {
    const error = await api.get('/cut-off').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 0, message: NETWORK_ERROR_MESSAGE });
    // A call that names its own message keeps it.
    const named = await api
      .get('/cut-off', { defaultMessage: 'Failed to load billing' })
      .catch((e: unknown) => e);
    expect(named).toMatchObject({ status: 0, message: 'Failed to load billing' });
  });

  it('gives up after the timeout', async () => {
    configureApiClient({ timeoutMs: 50 });
    const error = await failureOf(api.get('/slow'));
    expect(error.message).toBe(NETWORK_ERROR_MESSAGE);
  });

  it('on 401 with a session removes the token and calls the one handler', async () => {
    const handler = vi.fn();
    const restore = setUnauthorizedHandler(handler);
    storage.setItem(STORAGE_KEYS.token, 'expired');
    const error = await failureOf(api.get('/unauthorized'));
    expect(error.message).toBe('Authentication required. Please log in.');
    expect(storage.getItem(STORAGE_KEYS.token)).toBeNull();
    expect(handler).toHaveBeenCalledTimes(1);

    // A 401 without a session (a wrong password on the login form) is only an error.
    await failureOf(api.post('/unauthorized', {}));
    expect(handler).toHaveBeenCalledTimes(1);
    restore();
  });
});
