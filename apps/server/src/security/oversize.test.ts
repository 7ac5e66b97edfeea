import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUp, type SignedUp } from '../test/api-helpers.js';
import { createTestApp, type TestApp } from '../test/test-app.js';
import { expectErrorShape, rawRequest, snapshotStore } from '../test/hostile-helpers.js';

/**
 * Hostile input, part 2: request bodies over the 1 MiB limit (`bodyLimit` in app.ts) are refused
 * with 413 and a clear message in the API's error shape, before anything is parsed or written —
 * whether the size is declared (content-length), only found while reading (chunked), or declared
 * huge by a client that never sends it. Just under the limit, the same endpoints read the body.
 */

const LIMIT = 1_048_576;
const TOO_LARGE = { message: 'Request body is too large.' };

let t: TestApp;
let user: SignedUp;
let siteId: string;
let port: number;

beforeAll(async () => {
  t = await createTestApp({ RATE_LIMIT_FACTOR: '1000' }, { runJobs: false });
  user = await signUp(t);
  const site = await t.app.inject({
    method: 'POST',
    url: '/api/domains/clone',
    headers: user.headers,
    payload: { sourceUrl: 'https://oversize-fixture.example.com' },
  });
  expect(site.statusCode).toBe(201);
  siteId = site.json().id as string;
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  port = (t.app.server.address() as AddressInfo).port;
}, 30_000);

afterAll(async () => {
  await t?.close();
});

/** A JSON body of exactly `bytes` bytes: a valid object with one long text. */
function jsonOfSize(bytes: number, field = 'padding'): string {
  const frame = JSON.stringify({ [field]: '' });
  return JSON.stringify({ [field]: 'x'.repeat(bytes - frame.length) });
}

/** Representative endpoints that read a body: visitors' and users', JSON and raw. */
const ENDPOINTS = [
  { name: 'register (visitor)', method: 'POST', url: '/api/auth/register', auth: false },
  { name: 'clone (visitor)', method: 'POST', url: '/api/domains/clone', auth: false },
  { name: 'park a domain', method: 'POST', url: '/api/domains/park', auth: true },
  {
    name: 'customize',
    method: 'PUT',
    url: () => `/api/domains/clone/${siteId}/customize`,
    auth: true,
  },
  { name: 'Stripe webhook (raw body)', method: 'POST', url: '/api/payments/webhook', auth: false },
] as const;

const urlOf = (endpoint: (typeof ENDPOINTS)[number]) =>
  typeof endpoint.url === 'function' ? endpoint.url() : endpoint.url;

describe('oversize request bodies', () => {
  it('answers 413 in the error shape for a body one byte over the limit, and far over it', async () => {
    const before = await snapshotStore(t);
    for (const endpoint of ENDPOINTS) {
      for (const size of [LIMIT + 1, 5 * LIMIT]) {
        const res = await t.app.inject({
          method: endpoint.method,
          url: urlOf(endpoint),
          headers: {
            'content-type': 'application/json',
            ...(endpoint.auth ? user.headers : {}),
          },
          payload: jsonOfSize(size),
        });
        const context = `${endpoint.name}, ${size} bytes`;
        expect(res.statusCode, context).toBe(413);
        expectErrorShape(res, context);
        expect(res.json(), context).toEqual(TOO_LARGE);
      }
    }
    expect(await snapshotStore(t)).toEqual(before);
  });

  it('reads a body just under the limit (the limit is the documented 1 MiB, not less)', async () => {
    for (const endpoint of ENDPOINTS) {
      const res = await t.app.inject({
        method: endpoint.method,
        url: urlOf(endpoint),
        headers: { 'content-type': 'application/json', ...(endpoint.auth ? user.headers : {}) },
        payload: jsonOfSize(LIMIT - 1_024),
      });
      // Read and judged on its content (a 4xx about the fields or the address), never "too large".
      expect(res.statusCode, endpoint.name).not.toBe(413);
      expect(res.statusCode, endpoint.name).toBeLessThan(500);
    }
  });

  it('refuses a chunked body once it passes the limit, with no content-length to go by', async () => {
    const before = await snapshotStore(t);
    const res = await rawRequest(port, {
      method: 'POST',
      path: '/api/domains/clone',
      headers: { host: `127.0.0.1:${port}`, 'content-type': 'application/json' },
      body: jsonOfSize(3 * LIMIT, 'sourceUrl'),
      chunked: true,
    });
    expect(res.status).toBe(413);
    expect(JSON.parse(res.body)).toEqual(TOO_LARGE);
    expect(await snapshotStore(t)).toEqual(before);
  });

  it('answers a declared huge body at once, without waiting for bytes that never come', async () => {
    const started = Date.now();
    const res = await rawRequest(
      port,
      {
        method: 'POST',
        path: '/api/auth/register',
        headers: {
          host: `127.0.0.1:${port}`,
          'content-type': 'application/json',
          'content-length': String(1024 * LIMIT),
        },
        // The request is ended after a few bytes: only the header announces a gigabyte.
        body: '{"name":',
      },
      5_000,
    );
    expect(res.status).toBe(413);
    expect(JSON.parse(res.body)).toEqual(TOO_LARGE);
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});

describe('deeply nested JSON bodies', () => {
  /** `{"customizations":{"instructions":"x","nested":[[[…]]]}}` with `levels` brackets. */
  const nested = (levels: number) =>
    `{"customizations":{"instructions":"x","nested":${'['.repeat(levels)}${']'.repeat(levels)}}}`;

  it('answers 400 "nested too deeply" to 100,000 levels of customizations, and changes nothing', async () => {
    const before = await snapshotStore(t);
    for (const levels of [100_000, 65]) {
      const res = await t.app.inject({
        method: 'PUT',
        url: `/api/domains/clone/${siteId}/customize`,
        headers: { ...user.headers, 'content-type': 'application/json' },
        payload: nested(levels),
      });
      expectErrorShape(res, `${levels} levels`);
      expect([levels, res.statusCode, res.json()]).toEqual([
        levels,
        400,
        { message: 'Request body is nested too deeply.' },
      ]);
    }
    // A visitor's register call is refused the same way.
    const visitor = await t.app.inject({
      method: 'POST',
      url: '/api/auth/register',
      headers: { 'content-type': 'application/json' },
      payload: `{"name":${'['.repeat(50_000)}${']'.repeat(50_000)}}`,
    });
    expect(visitor.statusCode).toBe(400);
    expect(await snapshotStore(t)).toEqual(before);
  });

  it('reads a body nested as deep as the limit; brackets inside strings do not count', async () => {
    const res = await t.app.inject({
      method: 'PUT',
      url: `/api/domains/clone/${siteId}/customize`,
      headers: { ...user.headers, 'content-type': 'application/json' },
      payload: `{"customizations":{"instructions":"${'['.repeat(5_000)}","n":${'['.repeat(62)}${']'.repeat(62)}}}`,
    });
    expect(res.json().message).not.toBe('Request body is nested too deeply.');
  });
});
