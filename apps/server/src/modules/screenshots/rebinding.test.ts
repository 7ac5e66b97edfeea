/**
 * Screenshots and thumbnails connect only to checked addresses: a name that was public when
 * checked and is loopback when connected to, loopback literals, WebSockets and WebRTC all end in
 * zero contacts with a loopback canary.
 */
import dgram from 'node:dgram';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  assertPublicUrl,
  createMemoryBlobStore,
  resolverFromHosts,
  type Manifest,
  type Resolve,
  type SafeLookupOptions,
} from '@mirror/engine';
import { afterEach, describe, expect, it } from 'vitest';
import { createBrowserLauncher } from '../../platform/browser/browser-launcher.js';
import { closeTo, pixelAt } from '../../test/screenshot-fixtures.js';
import { captureUrl } from './capture-url.js';
import { captureVersionThumbnail } from './version-thumbnail.js';

/** Loopback, but not the fixture's 127.0.0.1: Linux routes all of 127/8 to lo. */
const CANARY_HOST = '127.0.0.3';
/** The page's own colour, set by its script before it reaches out: proof the script ran. */
const BLUE = [30, 30, 220] as const;

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

async function startCanary(): Promise<Canary> {
  const canary: Canary = { port: 0, connections: 0, datagrams: 0, requests: [] };
  const server = http.createServer((req, res) => {
    canary.requests.push(`${req.method} ${req.url}`);
    res.writeHead(200, { 'content-type': 'text/plain' }).end('secret');
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

const contacts = (canary: Canary) => ({
  connections: canary.connections,
  datagrams: canary.datagrams,
  requests: canary.requests,
});

/** A page that turns blue, then reaches for `origins` every way it can, and for TURN on `turn`. */
function leakyPage(origins: string[], turn: string): string {
  return `<!doctype html><html><head><title>Leaky</title>
    <style>html, body { margin: 0; height: 100%; }</style></head><body>
    ${origins.map((o) => `<img src="${o}/image.png"><iframe src="${o}/frame"></iframe>`).join('')}
    <script>
      document.body.style.background = 'rgb(${BLUE.join(', ')})';
      for (const origin of ${JSON.stringify(origins)}) {
        fetch(origin + '/fetch').catch(() => {});
        const x = new XMLHttpRequest(); x.open('GET', origin + '/xhr'); x.send();
        new Image().src = origin + '/new-image.png';
        try { new WebSocket(origin.replace('http', 'ws') + '/ws'); } catch {}
      }
      for (const urls of ['turn:${turn}?transport=tcp', 'turns:${turn}?transport=tcp', 'stun:${turn}']) {
        const pc = new RTCPeerConnection({ iceServers: [{ urls, username: 'u', credential: 'p' }] });
        pc.createDataChannel('x');
        pc.createOffer().then((offer) => pc.setLocalDescription(offer));
      }
    </script></body></html>`;
}

/** Contacts made just before the page closed still reach the canary's counters. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 300));

function launcher() {
  const browser = createBrowserLauncher({ chromiumPath: '/usr/bin/chromium' });
  cleanups.push(() => browser.close());
  return browser;
}

describe('captureUrl with a name that rebinds to loopback', () => {
  /** `rebind.test` after its one public answer was spent on a check: loopback from now on. */
  async function checkedThenRebound(): Promise<Resolve> {
    const resolve = resolverFromHosts({
      'site.test': [['127.0.0.1']],
      'rebind.test': [['93.184.216.34'], [CANARY_HOST]],
    });
    await assertPublicUrl(new URL('http://rebind.test/'), { resolve });
    return resolve;
  }

  async function capture(canary: Canary, turn: Canary, net: SafeLookupOptions) {
    const page = leakyPage(
      [`http://rebind.test:${canary.port}`, `http://${CANARY_HOST}:${canary.port}`],
      `${CANARY_HOST}:${turn.port}`,
    );
    const site = http.createServer((_req, res) =>
      res.writeHead(200, { 'content-type': 'text/html' }).end(page),
    );
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    cleanups.push(
      () =>
        new Promise<void>((resolve) => {
          site.closeAllConnections();
          site.close(() => resolve());
        }),
    );
    const browser = launcher();
    const port = (site.address() as AddressInfo).port;
    const image = await captureUrl(`http://site.test:${port}/`, { browser, net });
    await settle();
    return { image, browser };
  }

  it('makes zero contacts with the canary', async () => {
    const canary = await startCanary();
    const turn = await startCanary();
    const { image, browser } = await capture(canary, turn, {
      resolve: await checkedThenRebound(),
      allowAddresses: ['127.0.0.1'],
    });
    expect(closeTo(await pixelAt(browser, image, 600, 380), BLUE)).toBe(true);
    expect(contacts(canary)).toEqual({ connections: 0, datagrams: 0, requests: [] });
    expect(contacts(turn)).toEqual({ connections: 0, datagrams: 0, requests: [] });
  });

  it('control: with the policy open, the same page reaches the canary through the client', async () => {
    const canary = await startCanary();
    const turn = await startCanary();
    await capture(canary, turn, {
      resolve: await checkedThenRebound(),
      allowPrivateNetworks: true,
    });
    expect(canary.requests).toEqual(expect.arrayContaining(['GET /fetch', 'GET /image.png']));
    // WebRTC stays off whatever the policy: it is a launch setting.
    expect(contacts(turn)).toEqual({ connections: 0, datagrams: 0, requests: [] });
  });
});

describe('captureVersionThumbnail of a copy that reaches for loopback', () => {
  it('makes zero contacts with the canary', async () => {
    const canary = await startCanary();
    const turn = await startCanary();
    const blobs = createMemoryBlobStore();
    const { hash, size } = await blobs.put(
      (async function* () {
        yield Buffer.from(
          leakyPage([`http://${CANARY_HOST}:${canary.port}`], `${CANARY_HOST}:${turn.port}`),
        );
      })(),
    );
    const manifest: Manifest = {
      version: 1,
      startUrl: 'https://shop.example.com/',
      entryPath: '/',
      createdAt: new Date().toISOString(),
      entries: [
        {
          path: '/',
          url: 'https://shop.example.com/',
          kind: 'page',
          status: 200,
          contentType: 'text/html; charset=utf-8',
          hash,
          size,
          headers: {},
        },
      ],
      failures: [],
      notes: [],
      stats: {
        pages: 1,
        assets: 0,
        bytes: size,
        requests: 1,
        notModified: 0,
        rendered: 0,
        durationMs: 1,
      },
    };
    const browser = launcher();
    const image = await captureVersionThumbnail(manifest, blobs, { browser });
    await settle();
    expect(closeTo(await pixelAt(browser, image, 600, 380), BLUE)).toBe(true);
    expect(contacts(canary)).toEqual({ connections: 0, datagrams: 0, requests: [] });
    expect(contacts(turn)).toEqual({ connections: 0, datagrams: 0, requests: [] });
  });
});
