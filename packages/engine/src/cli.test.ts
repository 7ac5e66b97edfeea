import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { FIXTURES, serveFixture, type FixtureServer } from '../test/fixture-server.js';
import { main } from './cli.js';

function sink() {
  let text = '';
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      text += chunk.toString();
      done();
    },
  });
  return { stream, text: () => text };
}

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

async function run(args: string[]) {
  const out = sink();
  const err = sink();
  const code = await main(args, out.stream, err.stream);
  return { code, out: out.text(), err: err.text() };
}

describe('mirror CLI', () => {
  it('mirrors a site into a static folder and exits 0', async () => {
    const site: FixtureServer = await serveFixture(path.join(FIXTURES, 'basic'));
    const cdn = await serveFixture(path.join(FIXTURES, 'cdn'));
    site.vars.CDN = cdn.origin;
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mirror-cli-'));
    cleanups.push(
      () => site.close(),
      () => cdn.close(),
      () => fs.rmSync(dir, { recursive: true, force: true }),
    );
    const result = await run([
      site.origin,
      '--out',
      dir,
      '--allow-private-networks',
      '--max-pages',
      '5',
      '--render',
      'never',
    ]);
    expect(result.code).toBe(0);
    expect(result.out).toMatch(/^Mirrored 5 pages and \d+ files/);
    expect(result.err).toMatch(/limit/);
    expect(fs.existsSync(path.join(dir, 'index.html'))).toBe(true);
    expect(fs.existsSync(path.join(dir, 'style.css'))).toBe(true);
  });

  it.each([
    [[], 2, /a URL to mirror is required/],
    [['https://example.com'], 2, /--out <dir> is required/],
    [['ftp://example.com', '--out', '/tmp/x'], 2, /only http and https/],
    [
      ['https://example.com', '--out', '/tmp/x', '--max-pages', 'lots'],
      2,
      /--max-pages must be a whole number/,
    ],
    [
      ['https://example.com', '--out', '/tmp/x', '--render', 'sometimes'],
      2,
      /--render must be auto, always or never/,
    ],
    [['http://127.0.0.1:9/', '--out', '/tmp/x'], 3, /Refused address: 127\.0\.0\.1 \(loopback\)/],
    [['http://169.254.169.254/latest/meta-data', '--out', '/tmp/x'], 3, /Refused address/],
    [
      ['https://no-such-host.invalid', '--out', '/tmp/x'],
      4,
      /Cannot reach no-such-host\.invalid: no such host/,
    ],
  ])('%j exits %i with a clear message', async (args, code, message) => {
    const result = await run(args);
    expect(result.code).toBe(code);
    expect(result.err).toMatch(message);
  });
});
