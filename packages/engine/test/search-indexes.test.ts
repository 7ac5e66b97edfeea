import { afterEach, describe, expect, it } from 'vitest';
import { PAGEFIND_FIXTURE } from '../src/crawl/search-indexes.fixture.js';
import { mirror } from '../src/index.js';
import { readBlob } from '../src/storage/blob-utils.js';
import { createMemoryBlobStore } from '../src/storage/memory-blob-store.js';
import { serveFixture, type FixtureServer, type Handler } from './fixture-server.js';

const servers: FixtureServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

function file(type: string, body: string | Buffer): Handler {
  return (_req, res) => {
    res.writeHead(200, { 'content-type': type, 'content-length': String(body.length) }).end(body);
  };
}

const OCTETS = 'application/octet-stream';

describe('search indexes: a Pagefind index joins the copy whole', () => {
  it('queues every chunk, fragment, filter and WebAssembly file the entry and metadata name', async () => {
    const routes: Record<string, Handler> = {
      '/': file(
        'text/html; charset=utf-8',
        '<!doctype html><html lang="en"><head><title>Docs</title></head><body><h1>Docs</h1>' +
          '<script type="module">const pagefind = await import("/pagefind/pagefind.js");</script>' +
          '</body></html>',
      ),
      // Loads its entry file by a template string (`${basePath}pagefind-entry.json`).
      '/pagefind/pagefind.js': file(
        'text/javascript',
        'export const load = (base) => fetch(`${base}pagefind-entry.json`);',
      ),
      '/pagefind/pagefind-entry.json': file('application/json', PAGEFIND_FIXTURE.entry),
    };
    for (const [name, base64] of Object.entries(PAGEFIND_FIXTURE.metas))
      routes[`/pagefind/${name}`] = file(OCTETS, Buffer.from(base64, 'base64'));
    for (const name of PAGEFIND_FIXTURE.files)
      routes[`/pagefind/${name}`] = file(OCTETS, Buffer.from(`bytes of ${name}`));
    const server = await serveFixture(null, routes);
    servers.push(server);

    const store = createMemoryBlobStore();
    const manifest = await mirror({
      url: `${server.origin}/`,
      store,
      allowPrivateNetworks: true,
      render: 'never',
    });

    const byPath = new Map(manifest.entries.map((e) => [e.path, e]));
    for (const name of [
      'pagefind-entry.json',
      ...Object.keys(PAGEFIND_FIXTURE.metas),
      ...PAGEFIND_FIXTURE.files,
    ])
      expect(byPath.get(`/pagefind/${name}`), name).toMatchObject({ kind: 'asset', status: 200 });
    // The metadata is kept byte for byte (read, never rewritten).
    const [metaName, metaBase64] = Object.entries(PAGEFIND_FIXTURE.metas)[0]!;
    const stored = await readBlob(store, byPath.get(`/pagefind/${metaName}`)!.hash);
    expect(stored.equals(Buffer.from(metaBase64, 'base64'))).toBe(true);
    // Named by the index, not guessed: none of its files is a failure or a guess.
    expect(manifest.failures.filter((f) => f.url.includes('/pagefind/'))).toEqual([]);
  });
});
