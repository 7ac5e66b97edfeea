/**
 * `mirror <url> --out DIR --verify`: a site whose hero image fails while it is copied and loads
 * afterwards. The check finds the page below the threshold, captures it again with the render
 * tier, and the summary and `fidelity.json` say "repaired".
 */
import fs from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { PNG } from 'pngjs';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../cli-main.js';
import { RENDERED_ATTRIBUTE } from '../render/in-page.js';

function sink() {
  let text = '';
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      text += chunk.toString();
      done();
    },
  });
  return { stream, text: () => text };
}

const cleanups: (() => unknown)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

describe('mirror --verify', () => {
  it('prints the check, repairs the page whose hero failed during the copy, writes fidelity.json', async () => {
    const hero = new PNG({ width: 500, height: 200 });
    for (let i = 0; i < 500 * 200; i++) hero.data.set([200, 40, 90, 255], i * 4);
    const heroPng = PNG.sync.write(hero);
    let heroFails = true;
    const server = createServer((req, res) => {
      if (req.url === '/hero.png') {
        if (heroFails) return void res.writeHead(500).end();
        return void res.writeHead(200, { 'content-type': 'image/png' }).end(heroPng);
      }
      if (req.url === '/') {
        return void res
          .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
          .end(
            '<!doctype html><html><head><title>Harbour</title></head><body style="margin:0;font:16px sans-serif">' +
              '<h1>Harbour news</h1><img src="/hero.png" width="500" height="200" alt=""><p>Boats are in.</p></body></html>',
          );
      }
      res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    cleanups.push(
      () =>
        new Promise<void>((resolve) => {
          server.closeAllConnections();
          server.close(() => resolve());
        }),
    );
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mirror-verify-'));
    cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));

    const out = sink();
    const err = sink();
    // The hero loads again once the copy is written: the check starts after the run.
    const running = main(
      [
        `${origin}/`,
        '--out',
        dir,
        '--verify',
        '--verify-shots',
        '--allow-private-networks',
        '--quiet',
      ],
      out.stream,
      err.stream,
    );
    const waitForExport = async () => {
      while (!fs.existsSync(path.join(dir, 'index.html')))
        await new Promise((r) => setTimeout(r, 20));
      heroFails = false;
    };
    const [code] = await Promise.all([running, waitForExport()]);

    expect(code, err.text()).toBe(0);
    expect(out.text()).toMatch(
      /^\/\s+desktop\s+\d+\.\d\d%\s+\d+\.\d\d%\s+100%\s+0\s+0\s+0\s+repaired: \d+\.\d\d% → 0\.\d\d%, faithful$/m,
    );
    expect(out.text()).toMatch(
      /^Fidelity score (99\.\d|100\.0) \/ 100 — 2 checked, 0 below threshold, 2 repaired/m,
    );
    expect(fs.existsSync(path.join(dir, 'hero.png'))).toBe(true);
    // Captured again by the render tier, which kept the page as the server sent it (a replay of it
    // looks like the render): the runtime shim marks a page the render tier handled.
    const page = fs.readFileSync(path.join(dir, 'index.html'), 'utf8');
    expect(page).toContain('__mirrorShim');
    expect(page).not.toContain(RENDERED_ATTRIBUTE);

    const report = JSON.parse(fs.readFileSync(path.join(dir, 'fidelity.json'), 'utf8'));
    expect(report.score).toBeGreaterThanOrEqual(99);
    expect(report.pages).toHaveLength(2);
    for (const page of report.pages) {
      expect(page.repaired.before.reasons).toEqual(['pixels', 'failed-requests']);
      expect(page.repaired.before.diffPercent).toBeGreaterThan(5);
      expect(page.belowThreshold).toBe(false);
      // The report names its screenshots; the files are small PNGs beside it.
      const diff = fs.readFileSync(path.join(dir, page.shots.diff));
      expect(PNG.sync.read(diff).width).toBe(320);
    }
  });
});
