/**
 * A WACZ opens in ReplayWeb.page (issue 35): a page with a stylesheet and an image, archived from a
 * loopback origin, looks the same replayed from the WACZ as it did live, with the origin stopped,
 * and the replay asks nothing of that origin.
 */
import { createWriteStream, existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { PNG } from 'pngjs';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodePng, differingPixels } from '../../fidelity/compare.js';
import { timestamp14 } from '../cdxj.js';
import type { WarcInput } from '../types.js';
import { writeWacz } from '../wacz-writer.js';
import { writeWarc } from '../warc-writer.js';
import { screenshotInReplay, startReplayWebPage, type ReplayWebPage } from './replay-web-page.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const HAS_CHROMIUM = existsSync(CHROMIUM);
const WIDTH = 800;
const HEIGHT = 600;

/** A 160 × 90 picture: a gradient with a dark square, so a missing or moved image shows. */
function fixtureImage(): Buffer {
  const png = new PNG({ width: 160, height: 90 });
  for (let y = 0; y < 90; y++) {
    for (let x = 0; x < 160; x++) {
      const i = (y * 160 + x) * 4;
      const inSquare = x >= 60 && x < 100 && y >= 25 && y < 65;
      png.data[i] = inSquare ? 20 : Math.round((x / 159) * 255);
      png.data[i + 1] = inSquare ? 30 : Math.round((y / 89) * 255);
      png.data[i + 2] = inSquare ? 40 : 160;
      png.data[i + 3] = 255;
    }
  }
  return PNG.sync.write(png);
}

const FILES: Record<string, { type: string; body: Buffer }> = {
  '/': {
    type: 'text/html; charset=utf-8',
    body: Buffer.from(`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Replay fixture</title>
<link rel="stylesheet" href="/style.css">
</head>
<body>
<header class="band"><h1>Archived with Mirror</h1></header>
<main>
<p class="lead">A page with a stylesheet and an image, replayed by ReplayWeb.page.</p>
<img src="/picture.png" width="320" height="180" alt="A gradient">
<ul class="boxes"><li>One</li><li>Two</li><li>Three</li></ul>
</main>
</body>
</html>
`),
  },
  '/style.css': {
    type: 'text/css',
    body: Buffer.from(`body { margin: 0; font: 16px/1.5 sans-serif; background: #f4efe6; color: #222; }
.band { background: #1f5f8b; color: #fff; padding: 24px 32px; }
.band h1 { margin: 0; font-size: 28px; }
main { padding: 16px 32px; }
.lead { font-size: 18px; color: #7a2e12; }
img { display: block; border: 4px solid #2a9d8f; }
.boxes { display: flex; gap: 16px; list-style: none; padding: 0; }
.boxes li { width: 120px; height: 60px; background: #e9c46a; border-radius: 8px; text-align: center; line-height: 60px; }
`),
  },
  '/picture.png': { type: 'image/png', body: fixtureImage() },
};

let dir = '';
let browser: Browser | undefined;
let replay: ReplayWebPage | undefined;
let unstyledReplay: ReplayWebPage | undefined;
let archivedAt = new Date();
let tripwire: net.Server | undefined;
let origin = '';
const originConnections: string[] = [];
let originalPng: Buffer | undefined;

async function listen(server: net.Server, port = 0): Promise<number> {
  server.listen(port, '127.0.0.1');
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  return (server.address() as net.AddressInfo).port;
}

/** A WACZ of the records, made by the engine's WARC and WACZ writers. */
async function buildWacz(name: string, records: readonly WarcInput[]): Promise<string> {
  const warcPath = path.join(dir, `${name}.warc.gz`);
  const written = await writeWarc(fromArray(records), createWriteStream(warcPath), {
    software: 'Mirror test',
  });
  const waczPath = path.join(dir, `${name}.wacz`);
  await writeWacz(waczPath, {
    warcPath,
    index: written.index,
    pages: [{ url: `${origin}/`, title: 'Replay fixture', ts: archivedAt }],
    title: 'Replay fixture',
    software: 'Mirror test',
  });
  return waczPath;
}

function differingPercent(a: Buffer, b: Buffer): number {
  const differing = differingPixels(decodePng(a), decodePng(b));
  return (differing.count / (differing.width * differing.height)) * 100;
}

async function* fromArray<T>(items: readonly T[]): AsyncGenerator<T> {
  for (const item of items) yield item;
}

async function* once(data: Uint8Array): AsyncGenerator<Uint8Array> {
  yield data;
}

describe.skipIf(!HAS_CHROMIUM)(
  `ReplayWeb.page replays a WACZ${HAS_CHROMIUM ? '' : ` (skipped: no Chromium at ${CHROMIUM})`}`,
  () => {
    beforeAll(async () => {
      dir = await fs.mkdtemp(path.join(os.tmpdir(), 'mirror-replay-test-'));
      const site = http.createServer((req, res) => {
        const file = FILES[new URL(req.url ?? '/', 'http://x').pathname];
        if (file === undefined) {
          res.writeHead(404).end();
          return;
        }
        res.writeHead(200, { 'Content-Type': file.type, 'Content-Length': file.body.length });
        res.end(file.body);
      });
      const port = await listen(site);
      origin = `http://127.0.0.1:${port}`;

      browser = await chromium.launch({
        executablePath: CHROMIUM,
        args: [
          '--no-sandbox',
          '--disable-gpu',
          '--disable-quic',
          '--no-first-run',
          '--disable-background-networking',
          '--disable-component-update',
          '--disable-sync',
        ],
      });

      // The original, live.
      const context = await browser.newContext({
        viewport: { width: WIDTH, height: HEIGHT },
        deviceScaleFactor: 1,
      });
      const page = await context.newPage();
      await page.goto(`${origin}/`, { waitUntil: 'networkidle' });
      originalPng = await page.screenshot({ animations: 'disabled', caret: 'hide' });
      await context.close();

      // Its responses as fetched, into a WACZ; and one without the stylesheet, to show that the
      // comparison sees a page that did not replay whole.
      archivedAt = new Date();
      const records: WarcInput[] = [];
      for (const pathname of Object.keys(FILES)) {
        const url = `${origin}${pathname}`;
        const response = await fetch(url);
        const body = new Uint8Array(await response.arrayBuffer());
        records.push({
          type: 'response',
          url,
          date: archivedAt,
          status: response.status,
          statusText: response.statusText,
          headers: [...response.headers.entries()],
          payload: () => once(body),
          request: { method: 'GET', headers: [['Host', new URL(url).host]] },
        });
      }
      const whole = await buildWacz('whole', records);
      const unstyled = await buildWacz(
        'unstyled',
        records.filter((record) => !record.url.endsWith('.css')),
      );

      // The original stops; whatever still knocks on its port is counted and turned away.
      await new Promise<void>((resolve) => {
        site.close(() => resolve());
        site.closeAllConnections();
      });
      tripwire = net.createServer((socket) => {
        originConnections.push(`${socket.remoteAddress}:${socket.remotePort}`);
        socket.destroy();
      });
      await listen(tripwire, port);

      replay = await startReplayWebPage({ waczPath: whole });
      unstyledReplay = await startReplayWebPage({ waczPath: unstyled });
    }, 60_000);

    afterAll(async () => {
      await browser?.close();
      await replay?.close();
      await unstyledReplay?.close();
      await new Promise<void>((resolve) =>
        tripwire ? tripwire.close(() => resolve()) : resolve(),
      );
      if (dir) await fs.rm(dir, { recursive: true, force: true });
    });

    it('shows the archived page as the original looked, without asking the original', async () => {
      const requested: string[] = [];
      const replayed = await screenshotInReplay(browser!, replay!, `${origin}/`, {
        width: WIDTH,
        height: HEIGHT,
        ts: timestamp14(archivedAt),
        onRequest: (url) => requested.push(url),
      });
      const copy = decodePng(replayed);
      expect({ width: copy.width, height: copy.height }).toEqual({ width: WIDTH, height: HEIGHT });
      const percent = differingPercent(originalPng!, replayed);
      // REPLAY_SHOTS=<dir> keeps both pictures and the measure, to look at.
      const shots = process.env.REPLAY_SHOTS;
      if (shots) {
        await fs.writeFile(path.join(shots, 'original.png'), originalPng!);
        await fs.writeFile(path.join(shots, 'replay.png'), replayed);
        await fs.writeFile(path.join(shots, 'differing.txt'), `${percent.toFixed(4)}%\n`);
      }
      expect(percent, `${percent.toFixed(3)}% of pixels differ`).toBeLessThanOrEqual(0.5);

      // The viewer read the WACZ by ranges, and nothing went to the stopped origin.
      expect(replay!.requests.some((line) => /^GET \/archive\.wacz bytes=/.test(line))).toBe(true);
      // The listener sees the workers' requests too (the WACZ is read from one).
      expect(requested).toContain(`${replay!.origin}/archive.wacz`);
      expect(requested.filter((url) => url.startsWith(`${origin}/`))).toEqual([]);
      expect(originConnections).toEqual([]);
    }, 90_000);

    it('sees a replay that lost its stylesheet', async () => {
      const replayed = await screenshotInReplay(browser!, unstyledReplay!, `${origin}/`, {
        width: WIDTH,
        height: HEIGHT,
      });
      const percent = differingPercent(originalPng!, replayed);
      expect(percent, `${percent.toFixed(3)}% of pixels differ`).toBeGreaterThan(5);
      expect(originConnections).toEqual([]);
    }, 90_000);
  },
);
