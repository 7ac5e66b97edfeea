/**
 * A page being checked reads only what a browser would let it read (issue 30, item 10). The
 * checker answers every request of the page from Node with its pinned client; Playwright would add
 * `Access-Control-Allow-Origin` to any answer without one and approve every preflight, so a script
 * in the page could read the API's `/api/health` when private networks are allowed. Real Chromium,
 * two servers on 127.0.0.1 (different ports, so different origins).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpClient, type HttpClient } from '../net/http-client.js';
import { launchChromium } from '../render/chromium.js';
import { createRenderLanes } from './render-page.js';
import { FIDELITY_VIEWPORTS } from './types.js';

let browser: Browser;
let client: HttpClient;
let api: Server;
let site: Server;
let apiOrigin: string;
let siteOrigin: string;
/** What reached the API, as `METHOD path`. */
const reached: string[] = [];

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

beforeAll(async () => {
  // Stands for the app's API on loopback: no CORS headers, except where said.
  api = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    reached.push(`${req.method} ${path}`);
    const json = (body: object, headers: Record<string, string> = {}) =>
      res
        .writeHead(200, { 'content-type': 'application/json', ...headers })
        .end(JSON.stringify(body));
    const origin = req.headers.origin ?? '';
    if (path === '/api/health') return json({ status: 'ok', secret: 'health-of-the-api' });
    if (path === '/api/open')
      return json({ data: 'open-to-all' }, { 'access-control-allow-origin': '*' });
    if (path === '/api/admin' && req.method === 'OPTIONS') return res.writeHead(204).end();
    if (path === '/api/admin') return json({ deleted: true });
    if (path === '/api/shared' && req.method === 'OPTIONS') {
      return res
        .writeHead(204, {
          'access-control-allow-origin': origin,
          'access-control-allow-methods': 'PUT',
          'access-control-allow-headers': 'x-token',
        })
        .end();
    }
    if (path === '/api/shared')
      return json({ shared: 'put-allowed' }, { 'access-control-allow-origin': origin });
    res.writeHead(404).end();
  });
  apiOrigin = await listen(api);
  // The page being checked: its script tries each and writes what it could read.
  site = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(`<!doctype html>
<html><body><h1>Checked page</h1><pre id="out">waiting</pre><script>
const api = ${JSON.stringify(apiOrigin)};
const read = (name, init, path) => fetch(api + path, init).then((r) => r.text()).then(
  (text) => name + ': ' + text, () => name + ': blocked');
Promise.all([
  read('health', {}, '/api/health'),
  read('open', {}, '/api/open'),
  read('admin', { method: 'DELETE', headers: { 'x-token': 't' } }, '/api/admin'),
  read('shared', { method: 'PUT', headers: { 'x-token': 't' } }, '/api/shared'),
]).then((lines) => { document.getElementById('out').textContent = lines.join('\\n'); });
</script></body></html>`);
  });
  siteOrigin = await listen(site);
  browser = await launchChromium({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  });
  // With private networks allowed, as the reproduction (and these fixtures) need.
  client = createHttpClient({ allowPrivateNetworks: true });
});

afterAll(async () => {
  await client?.close();
  await browser?.close();
  for (const server of [api, site]) {
    server?.closeAllConnections();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  }
});

describe('the fidelity check’s answers to a page’s cross-origin requests', () => {
  it('honour CORS: a script cannot read the API’s /api/health, nor send it what no preflight allowed', async () => {
    const lanes = createRenderLanes(browser, { maxOpen: 1, frozenTime: Date.now() });
    try {
      const capture = await lanes.capture({
        url: `${siteOrigin}/`,
        viewport: FIDELITY_VIEWPORTS.desktop,
        mobile: false,
        side: { name: 'original', client },
        maxHeight: 2_000,
        timeoutMs: 30_000,
      });
      expect(capture.text).toContain('Checked page');
      const lines = capture.text.split('\n').filter((line) => /^\w+: /.test(line));
      expect(lines).toEqual([
        'health: blocked',
        'open: {"data":"open-to-all"}',
        'admin: blocked',
        'shared: {"shared":"put-allowed"}',
      ]);
      expect(capture.text).not.toContain('health-of-the-api');
      // The DELETE stopped at its preflight; the allowed PUT went through after its own.
      expect(reached.filter((r) => r.includes('/api/admin'))).toEqual(['OPTIONS /api/admin']);
      expect(reached.filter((r) => r.includes('/api/shared'))).toEqual([
        'OPTIONS /api/shared',
        'PUT /api/shared',
      ]);
      expect(capture.failed).toEqual(
        expect.arrayContaining([
          { url: `${apiOrigin}/api/health`, reason: 'CORS' },
          { url: `${apiOrigin}/api/admin`, reason: 'CORS' },
        ]),
      );
    } finally {
      await lanes.close();
    }
  }, 60_000);
});
