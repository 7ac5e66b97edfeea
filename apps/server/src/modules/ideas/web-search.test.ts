import { afterEach, describe, expect, it } from 'vitest';
import { braveResult, startSearchApiServer } from '../../test/search-api-server.js';
import { createBraveSearch, toPlainText } from './web-search.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

async function setup(...answers: Parameters<typeof startSearchApiServer>[0]) {
  const server = await startSearchApiServer(answers);
  cleanups.push(server.close);
  const search = createBraveSearch({ apiUrl: server.url, apiKey: server.apiKey, timeoutMs: 1_000 });
  return { server, search };
}

describe('Brave web search client', () => {
  it('sends the query, count and key, and reads web.results as plain text', async () => {
    const { server, search } = await setup({
      results: [
        braveResult(
          'Trattoria <strong>Roma</strong> &amp; Bar',
          'https://trattoria-roma.example/',
          'Fresh <strong>pasta</strong> &quot;every day&quot; &#8212; book a table',
        ),
        braveResult('Second', 'https://second.example/menu'),
      ],
    });
    const results = await search.search('italian restaurant in Lisbon', 5);
    expect(server.requests).toEqual([
      {
        query: 'italian restaurant in Lisbon',
        count: '5',
        token: server.apiKey,
        accept: 'application/json',
      },
    ]);
    expect(results).toEqual([
      {
        title: 'Trattoria Roma & Bar',
        url: 'https://trattoria-roma.example/',
        description: 'Fresh pasta "every day" — book a table',
      },
      { title: 'Second', url: 'https://second.example/menu', description: '' },
    ]);
  });

  it('skips results that are not plain http(s) pages or lack a title', async () => {
    const { search } = await setup({
      results: [
        braveResult('Script', 'javascript:alert(1)'),
        { title: 'Data', url: 'data:text/html,hi' },
        { title: 'Credentials', url: 'https://user:pw@example.com/' },
        { title: '<b></b>', url: 'https://empty-title.example/' },
        { url: 'https://no-title.example/' },
        'not an object',
        braveResult('Good', 'http://good.example/'),
      ],
    });
    const results = await search.search('anything', 10);
    expect(results.map((r) => r.url)).toEqual(['http://good.example/']);
  });

  it('answers an empty list when the answer has no web section', async () => {
    const { search } = await setup({ body: { type: 'search', query: { original: 'x' } } });
    expect(await search.search('x', 3)).toEqual([]);
  });

  it('caps count at 20 and the query at 400 characters', async () => {
    const { server, search } = await setup({ results: [] });
    await search.search('a'.repeat(1000), 50);
    expect(server.requests[0]?.count).toBe('20');
    expect(server.requests[0]?.query).toHaveLength(400);
  });

  it('fails on an error status, a wrong key and the time limit', async () => {
    const { search } = await setup({ status: 429 });
    await expect(search.search('x', 3)).rejects.toThrow('web search answered 429');

    const server = await startSearchApiServer([{ results: [] }]);
    cleanups.push(server.close);
    const wrongKey = createBraveSearch({ apiUrl: server.url, apiKey: 'wrong', timeoutMs: 1_000 });
    await expect(wrongKey.search('x', 3)).rejects.toThrow('web search answered 401');

    const slow = await startSearchApiServer([{ results: [], delayMs: 2_000 }]);
    cleanups.push(slow.close);
    const impatient = createBraveSearch({ apiUrl: slow.url, apiKey: slow.apiKey, timeoutMs: 100 });
    await expect(impatient.search('x', 3)).rejects.toThrow(/abort|timeout/i);
  });
});

describe('toPlainText', () => {
  it('strips tags, decodes entities, collapses space and shortens', () => {
    expect(toPlainText('<em>a</em>&nbsp;&lt;b&gt;\n\n c &#x41; &unknown;', 100)).toBe(
      'a <b> c A &unknown;',
    );
    expect(toPlainText('abcdefghij', 5)).toBe('abcd…');
  });
});
