import { HTTP_FALLBACK_MESSAGES, IDEA_MESSAGES, type ReferenceWebsite } from '@mirror/contract';
import { afterEach, describe, expect, it } from 'vitest';
import { braveResult, startSearchApiServer } from '../../test/search-api-server.js';
import { signUp } from '../../test/api-helpers.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function setup(env: Record<string, string> = {}) {
  const t = await createTestApp(env);
  cleanups.push(() => t.close());
  return t;
}

function search(t: TestApp, payload: unknown, headers: Record<string, string> = {}) {
  return t.app.inject({
    method: 'POST',
    url: '/api/domains/search-by-idea',
    payload: payload as Record<string, unknown>,
    headers,
  });
}

describe('POST /api/domains/search-by-idea', () => {
  it('needs a signed-in user, before looking at the body', async () => {
    const t = await setup();
    for (const payload of [{ idea: 'a bakery' }, { limit: 99 }]) {
      const res = await search(t, payload);
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ message: HTTP_FALLBACK_MESSAGES[401] });
    }
    const badToken = await search(
      t,
      { idea: 'a bakery' },
      { authorization: `Bearer ${'x'.repeat(43)}` },
    );
    expect(badToken.statusCode).toBe(401);
  });

  it('refuses bad input with a message', async () => {
    const t = await setup();
    const headers = (await signUp(t)).headers;
    const cases: [unknown, string][] = [
      [{}, IDEA_MESSAGES.ideaRequired],
      [{ idea: '   ' }, IDEA_MESSAGES.ideaRequired],
      [{ idea: 42 }, IDEA_MESSAGES.ideaRequired],
      [{ idea: 'x'.repeat(1001) }, IDEA_MESSAGES.ideaTooLong],
      [{ idea: 'a bakery', limit: 0 }, IDEA_MESSAGES.limitInvalid],
      [{ idea: 'a bakery', limit: 11 }, IDEA_MESSAGES.limitInvalid],
      [{ idea: 'a bakery', limit: 2.5 }, IDEA_MESSAGES.limitInvalid],
      [{ idea: 'a bakery', limit: '5' }, IDEA_MESSAGES.limitInvalid],
    ];
    for (const [payload, message] of cases) {
      const res = await search(t, payload, headers);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json(), JSON.stringify(payload)).toEqual({ message });
    }
  });

  it('answers catalogue references for an idea, five by default', async () => {
    const t = await setup();
    const headers = (await signUp(t)).headers;
    const res = await search(t, { idea: '  Una pizzería napolitana con reservas  ' }, headers);
    expect(res.statusCode).toBe(200);
    const results = res.json() as ReferenceWebsite[];
    expect(results).toHaveLength(5);
    expect(results[0]).toMatchObject({
      category: 'restaurant',
      source: 'catalogue',
      screenshot: null,
      screenshotUrl: null,
      frameable: false,
    });
    for (const r of results) {
      expect(Object.keys(r).sort()).toEqual(
        [
          'category',
          'description',
          'frameable',
          'previewUrl',
          'screenshot',
          'screenshotUrl',
          'source',
          'title',
          'url',
        ].sort(),
      );
      expect(r.previewUrl).toBe(r.url);
      expect(r.url).toMatch(/^https:\/\//);
    }

    const ten = await search(t, { idea: 'coffee roaster', limit: 10 }, headers);
    expect(ten.json()).toHaveLength(10);
    const none = await search(t, { idea: 'zzqxv' }, headers);
    expect(none.statusCode).toBe(200);
    expect(none.json()).toEqual([]);
  });

  it('merges web search results with the catalogue when SEARCH_API_KEY is set', async () => {
    const api = await startSearchApiServer([
      {
        results: [
          braveResult('<strong>Pizzeria</strong> Da Michele', 'https://damichele.example/'),
          // Already in the catalogue: the web copy is dropped.
          braveResult('Pizza Pilgrims menu', 'https://pizzapilgrims.co.uk/menu'),
          braveResult('Sorbillo', 'https://sorbillo.example/', 'Pizza &amp; more'),
          braveResult('Bad', 'ftp://files.example/'),
        ],
      },
    ]);
    cleanups.push(api.close);
    const t = await setup({ SEARCH_API_KEY: api.apiKey, SEARCH_API_URL: api.url });
    const headers = (await signUp(t)).headers;
    const res = await search(t, { idea: 'pizzeria in Naples', limit: 6 }, headers);
    expect(res.statusCode).toBe(200);
    expect(api.requests).toEqual([
      { query: 'pizzeria in Naples', count: '6', token: api.apiKey, accept: 'application/json' },
    ]);
    const results = res.json() as ReferenceWebsite[];
    // Turns: catalogue 1, web 1, catalogue 2, (web 2 is catalogue 1 again), catalogue 3, web 3, …
    expect(results.map((r) => r.source)).toEqual([
      'catalogue',
      'web',
      'catalogue',
      'catalogue',
      'web',
      'catalogue',
    ]);
    expect(results[1]).toEqual({
      title: 'Pizzeria Da Michele',
      url: 'https://damichele.example/',
      screenshot: null,
      screenshotUrl: null,
      frameable: false,
      previewUrl: 'https://damichele.example/',
      description: '',
      category: null,
      source: 'web',
    });
    expect(results[4]).toMatchObject({ title: 'Sorbillo', description: 'Pizza & more' });
    const hosts = results.map((r) => new URL(r.url).hostname.replace(/^www\./, ''));
    expect(new Set(hosts).size).toBe(hosts.length);
    expect(hosts.filter((h) => h === 'pizzapilgrims.co.uk')).toHaveLength(1);
  });

  it('answers from the catalogue alone when the web search fails', async () => {
    const api = await startSearchApiServer([{ status: 500 }]);
    cleanups.push(api.close);
    const t = await setup({ SEARCH_API_KEY: api.apiKey, SEARCH_API_URL: api.url });
    const headers = (await signUp(t)).headers;
    const res = await search(t, { idea: 'a bakery' }, headers);
    expect(res.statusCode).toBe(200);
    expect(api.requests).toHaveLength(1);
    const results = res.json() as ReferenceWebsite[];
    expect(results.length).toBeGreaterThan(0);
    expect(results.every((r) => r.source === 'catalogue')).toBe(true);
  });

  it('does not call a web search API without SEARCH_API_KEY', async () => {
    const api = await startSearchApiServer([{ results: [] }]);
    cleanups.push(api.close);
    const t = await setup({ SEARCH_API_URL: api.url });
    const headers = (await signUp(t)).headers;
    expect((await search(t, { idea: 'a bakery' }, headers)).statusCode).toBe(200);
    expect(api.requests).toEqual([]);
  });

  it('limits searches per user', async () => {
    // 30 per 10 minutes, times 0.1.
    const t = await setup({ RATE_LIMIT_FACTOR: '0.1' });
    const headers = (await signUp(t)).headers;
    for (let i = 0; i < 3; i++) {
      expect((await search(t, { idea: `bakery ${i}` }, headers)).statusCode).toBe(200);
    }
    const limited = await search(t, { idea: 'bakery again' }, headers);
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toEqual({ message: IDEA_MESSAGES.searchLimit });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('is described in the OpenAPI document', async () => {
    const t = await setup();
    const doc = (await t.app.inject({ url: '/api/docs/json' })).json();
    expect(doc.paths['/api/domains/search-by-idea'].post.summary).toBe(
      'Reference websites for a website idea',
    );
  });
});
