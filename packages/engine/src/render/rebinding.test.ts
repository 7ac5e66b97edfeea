/**
 * "The render tier connects only to checked addresses": a name that is public when it is checked
 * and loopback when it is connected to, and every other way a page can reach loopback, end in zero
 * connections to a loopback canary — in the static tier, in the render tier, and in Chromium.
 */
import dgram from 'node:dgram';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium, type BrowserContext } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import { mirror } from '../crawl/mirror.js';
import { assertPublicUrl, resolverFromHosts, type Resolve } from '../net/safe-lookup.js';
import { readBlob } from '../storage/blob-utils.js';
import { createMemoryBlobStore } from '../storage/memory-blob-store.js';
import type { BlobStore, Manifest } from '../types.js';
import { launchChromium, openContext } from './chromium.js';

const CHROMIUM = '/usr/bin/chromium';
const CANARY_HOST = '127.0.0.3';
const SECRET = 'canary-secret-5d1e';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

interface Canary {
  port: number;
  /** TCP connections accepted, whatever was sent on them (HTTP, WebSocket, TURN). */
  connections: number;
  /** UDP datagrams on the same port (STUN, TURN over UDP, ICE checks). */
  datagrams: number;
  requests: string[];
}

/** A server on loopback that answers every request with SECRET and counts every contact. */
async function startCanary(): Promise<Canary> {
  const canary: Canary = { port: 0, connections: 0, datagrams: 0, requests: [] };
  const server = createServer((req, res) => {
    canary.requests.push(`${req.method} ${req.url}`);
    res.writeHead(200, { 'content-type': 'text/plain', 'access-control-allow-origin': '*' });
    res.end(SECRET);
  });
  server.on('connection', () => canary.connections++);
  server.on('clientError', (_error, socket) => socket.destroy());
  server.on('upgrade', (req, socket) => {
    canary.requests.push(`UPGRADE ${req.url}`);
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, CANARY_HOST, resolve));
  canary.port = (server.address() as AddressInfo).port;
  const udp = dgram.createSocket('udp4');
  udp.on('message', () => canary.datagrams++);
  await new Promise<void>((resolve) => udp.bind(canary.port, CANARY_HOST, resolve));
  cleanups.push(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => udp.close(() => resolve()));
      }),
  );
  return canary;
}

const untouched = (canary: Canary) => ({
  connections: canary.connections,
  datagrams: canary.datagrams,
  requests: canary.requests,
});

/** The site, on the exempted 127.0.0.1: one HTML page per path. */
async function startSite(pages: Record<string, string>): Promise<number> {
  const server = createServer((req, res) => {
    const page = pages[req.url ?? ''];
    if (page === undefined) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return (server.address() as AddressInfo).port;
}

/**
 * `rebind.test` after its one public answer was spent on a check (as the old per-request check
 * did): the name passed the policy, and from now on it says loopback. Nothing connects to the
 * public address, so no test waits on a network that is not there.
 */
async function checkedThenRebound(): Promise<Resolve> {
  const resolve = resolverFromHosts({
    'site.test': [['127.0.0.1']],
    'rebind.test': [['93.184.216.34'], [CANARY_HOST]],
  });
  await expect(assertPublicUrl(new URL('http://rebind.test/'), { resolve })).resolves.toEqual([
    '93.184.216.34',
  ]);
  return resolve;
}

/** Paths of the copy whose stored body holds what the canary answers. */
async function leaked(manifest: Manifest, store: BlobStore): Promise<string[]> {
  const paths: string[] = [];
  for (const entry of manifest.entries) {
    if ((await readBlob(store, entry.hash)).includes(SECRET)) paths.push(entry.path);
  }
  return paths;
}

interface Reach {
  /** Origins fetched, XHR'd, imported, embedded and preconnected to. */
  http: string[];
  sockets: string[];
  /** STUN/TURN server URLs. */
  turn: string[];
  /** `host port` of a remote ICE candidate, tried over UDP and TCP. */
  ice: string;
}

/**
 * Everything a script can reach for, then `attempts:done` in #out; what it read goes into the
 * DOM, so a body that got through would be in the serialized page.
 */
function leakyScript(reach: Reach): string {
  return `<p id="out"></p><p id="read"></p><script>
    const read = (text) => { document.getElementById('read').textContent += text; };
    const xhr = (url) => new Promise((resolve) => {
      const x = new XMLHttpRequest(); x.open('GET', url); x.onload = () => read(x.responseText); x.onloadend = resolve; x.send();
    });
    const gathered = (pc) => new Promise((resolve) => {
      pc.onicegatheringstatechange = () => pc.iceGatheringState === 'complete' && resolve();
      setTimeout(resolve, 2000);
    });
    const tries = [];
    for (const url of ${JSON.stringify(reach.http)}) {
      tries.push(fetch(url + '/fetch').then((r) => r.text()).then(read));
      tries.push(fetch(url + '/post', { method: 'POST', body: 'x' }).then((r) => r.text()).then(read));
      tries.push(xhr(url + '/xhr'));
      tries.push(import(url + '/module.js'));
      const img = new Image(); img.src = url + '/image.png';
      const frame = document.createElement('iframe'); frame.src = url + '/frame'; document.body.append(frame);
      const link = document.createElement('link'); link.rel = 'preconnect'; link.href = url; document.head.append(link);
    }
    for (const url of ${JSON.stringify(reach.sockets)}) {
      tries.push(new Promise((resolve) => {
        try { const ws = new WebSocket(url); ws.onmessage = (e) => read(e.data); ws.onclose = resolve; } catch { resolve(); }
      }));
    }
    for (const urls of ${JSON.stringify(reach.turn)}) {
      tries.push((async () => {
        const pc = new RTCPeerConnection({ iceServers: [{ urls, username: 'u', credential: 'p' }] });
        pc.createDataChannel('x');
        await pc.setLocalDescription(await pc.createOffer());
        await gathered(pc);
      })());
    }
    // Connectivity checks towards a peer that says it is on loopback.
    tries.push((async () => {
      const a = new RTCPeerConnection();
      a.createDataChannel('x');
      await a.setLocalDescription(await a.createOffer());
      const b = new RTCPeerConnection();
      await b.setRemoteDescription(a.localDescription);
      await b.setLocalDescription(await b.createAnswer());
      b.close();
      await a.setRemoteDescription(b.localDescription);
      await a.addIceCandidate({ candidate: 'candidate:1 1 udp 2122260223 ${reach.ice} typ host', sdpMid: '0', sdpMLineIndex: 0 });
      await a.addIceCandidate({ candidate: 'candidate:2 1 tcp 1518280447 ${reach.ice} typ host tcptype passive', sdpMid: '0', sdpMLineIndex: 0 });
      await new Promise((resolve) => setTimeout(resolve, 1000));
    })());
    Promise.race([Promise.allSettled(tries), new Promise((r) => setTimeout(r, 3000))])
      .then(() => { document.getElementById('out').textContent = 'attempts:done'; });
  </script>`;
}

describe('Chromium as launched for tenants reaches no network of its own', () => {
  async function attempt(context: BrowserContext, http: Canary, turn: Canary): Promise<void> {
    const page = await context.newPage();
    const loopback = `http://${CANARY_HOST}:${http.port}`;
    const turnAt = `${CANARY_HOST}:${turn.port}`;
    // On loopback itself, so that Chromium's Local Network Access checks (public pages may not
    // reach loopback) play no part: the zero has to come from the launch settings.
    const pageUrl = `${loopback}/page`;
    // A handler that forgets to answer: what Chromium then fetches itself must not get out.
    await page.route('**/*', (route) =>
      route.request().url() === pageUrl
        ? route.fulfill({
            contentType: 'text/html',
            body: leakyScript({
              http: [loopback],
              sockets: [`ws://${CANARY_HOST}:${http.port}/ws`],
              turn: [
                `turn:${turnAt}?transport=tcp`,
                `turns:${turnAt}?transport=tcp`,
                `turn:${turnAt}?transport=udp`,
                `stun:${turnAt}`,
              ],
              ice: `${CANARY_HOST} ${turn.port}`,
            }),
          })
        : route.continue(),
    );
    await page.goto(pageUrl);
    await page.waitForFunction("document.getElementById('out').textContent === 'attempts:done'");
  }

  it('control: Chromium launched plainly reaches loopback by HTTP, WebSocket and WebRTC', async () => {
    const http = await startCanary();
    const turn = await startCanary();
    const browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--no-sandbox', '--disable-features=LocalNetworkAccessChecks'],
    });
    cleanups.push(() => browser.close());
    await attempt(await browser.newContext(), http, turn);
    expect(http.requests).toEqual(expect.arrayContaining(['GET /fetch', 'UPGRADE /ws']));
    expect(turn.connections).toBeGreaterThan(0);
    expect(turn.datagrams).toBeGreaterThan(0);
  });

  it('launchChromium + openContext: zero contacts, even for requests the handler lets through', async () => {
    const http = await startCanary();
    const turn = await startCanary();
    const browser = await launchChromium({ executablePath: CHROMIUM });
    cleanups.push(() => browser.close());
    await attempt(await openContext(browser, {}), http, turn);
    expect(untouched(http)).toEqual({ connections: 0, datagrams: 0, requests: [] });
    expect(untouched(turn)).toEqual({ connections: 0, datagrams: 0, requests: [] });
  });
});

describe('a name checked public that connects to loopback', () => {
  it('static tier: links and embeds of the name never reach the canary', async () => {
    const canary = await startCanary();
    const target = `http://rebind.test:${canary.port}`;
    const port = await startSite({
      '/': `<!doctype html><html><head><link rel="stylesheet" href="${target}/style.css">
        <script src="${target}/app.js"></script></head><body>
        <img src="${target}/image.png"><img src="http://${CANARY_HOST}:${canary.port}/literal.png">
        <a href="http://rebind.test:${canary.port}/page">page</a></body></html>`,
    });
    const run = async (allowPrivateNetworks: boolean) => {
      const store = createMemoryBlobStore();
      const manifest = await mirror({
        url: `http://site.test:${port}/`,
        store,
        resolve: await checkedThenRebound(),
        // The fixture site's address; the canary's (127.0.0.3, loopback too) stays refused.
        allowAddresses: ['127.0.0.1'],
        allowPrivateNetworks,
        render: 'never',
        requestTimeoutMs: 5_000,
      });
      return { manifest, leaked: await leaked(manifest, store) };
    };

    const refused = await run(false);
    expect(untouched(canary)).toEqual({ connections: 0, datagrams: 0, requests: [] });
    expect(refused.leaked).toEqual([]);
    expect(refused.manifest.failures.map((f) => f.reason)).toContain('refused-address');

    // Control: the same run with the policy open fetches from the canary and keeps its answer.
    const open = await run(true);
    expect(canary.requests).toContain('GET /image.png');
    expect(open.leaked.length).toBeGreaterThan(0);
  });

  it('render tier: nothing the page does reaches the canary, and the copy holds none of it', async () => {
    const canary = await startCanary();
    const turn = await startCanary();
    const target = `http://rebind.test:${canary.port}`;
    const port = await startSite({
      '/': `<!doctype html><html><head><title>App</title></head><body>
        <img src="${target}/image.png"><iframe src="${target}/frame"></iframe>
        ${leakyScript({
          http: [target, `http://${CANARY_HOST}:${canary.port}`],
          sockets: [`ws://rebind.test:${canary.port}/ws`, `ws://${CANARY_HOST}:${canary.port}/ws`],
          turn: [
            `turn:${CANARY_HOST}:${turn.port}?transport=tcp`,
            `turns:${CANARY_HOST}:${turn.port}?transport=tcp`,
            `turn:rebind.test:${turn.port}?transport=tcp`,
            `stun:${CANARY_HOST}:${turn.port}`,
          ],
          ice: `${CANARY_HOST} ${turn.port}`,
        })}</body></html>`,
    });
    const run = async (allowPrivateNetworks: boolean) => {
      const store = createMemoryBlobStore();
      const manifest = await mirror({
        url: `http://site.test:${port}/`,
        store,
        resolve: await checkedThenRebound(),
        // The fixture site's address; the canary's (127.0.0.3, loopback too) stays refused.
        allowAddresses: ['127.0.0.1'],
        allowPrivateNetworks,
        render: 'always',
        maxDepth: 0,
        requestTimeoutMs: 10_000,
      });
      const home = manifest.entries.find((entry) => entry.path === '/')!;
      const html = (await readBlob(store, home.hash)).toString('utf8');
      return { manifest, html, leaked: await leaked(manifest, store) };
    };

    const refused = await run(false);
    expect(refused.manifest.stats.rendered).toBe(1);
    expect(refused.html).toContain('attempts:done');
    expect(untouched(canary)).toEqual({ connections: 0, datagrams: 0, requests: [] });
    expect(untouched(turn)).toEqual({ connections: 0, datagrams: 0, requests: [] });
    expect(refused.leaked).toEqual([]);

    // Control: with the policy open, the page's requests go out through the engine's client (only
    // its resolver knows rebind.test) and what they read ends up in the copy.
    const open = await run(true);
    expect(open.html).toContain('attempts:done');
    expect(canary.requests).toEqual(expect.arrayContaining(['GET /fetch', 'POST /post']));
    // The canary's answers are in the copy: as recorded responses the kept scripts replay, and in
    // the page itself when it was kept as rendered.
    expect(open.leaked.length).toBeGreaterThan(0);
  });
});
