import { execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import type { ServerResponse } from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { FIXTURES, serveFixture, type FixtureServer } from '../test/fixture-server.js';
import { main } from './cli-main.js';

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

  it('keeps its working store beside the output folder, not in the temporary folder, and leaves nothing there', async () => {
    // /tmp may be small, in memory or on another disk: the store goes where the copy goes.
    const site: FixtureServer = await serveFixture(path.join(FIXTURES, 'basic'));
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mirror-cli-'));
    const savedTmp = process.env.TMPDIR;
    cleanups.push(
      () => site.close(),
      () => fs.rmSync(dir, { recursive: true, force: true }),
      () => {
        if (savedTmp === undefined) delete process.env.TMPDIR;
        else process.env.TMPDIR = savedTmp;
      },
    );
    // A temporary folder nothing can be created in.
    const unusable = path.join(dir, 'not-a-folder');
    fs.writeFileSync(unusable, '');
    process.env.TMPDIR = unusable;
    const out = path.join(dir, 'copies', 'site');
    const result = await run([
      site.origin,
      '--out',
      out,
      '--allow-private-networks',
      '--max-pages',
      '3',
      '--render',
      'never',
    ]);
    expect(result.code, result.err).toBe(0);
    expect(fs.existsSync(path.join(out, 'index.html'))).toBe(true);
    expect(fs.readFileSync(path.join(out, 'img', 'hero.png'))).toEqual(
      fs.readFileSync(path.join(FIXTURES, 'basic', 'img', 'hero.png')),
    );
    expect(fs.readdirSync(path.join(dir, 'copies'))).toEqual(['site']);
  });

  it('rewrites for the export only the pages that link a renamed file, and keeps version stamps', async () => {
    const send = (type: string, body: string) => (_req: unknown, res: ServerResponse) =>
      void res.writeHead(200, { 'content-type': type }).end(body);
    const head = '<link rel="stylesheet" href="/theme.css?2022.1"><a href="/docs/">docs</a>';
    const site: FixtureServer = await serveFixture(null, {
      '/': send('text/html', `${head}<a href="/data.html">data</a>`),
      '/data.html': send('text/html', `${head}<a href="/feed">feed</a>`),
      '/docs/': send('text/html', `${head}<a href="/">home</a>`),
      // Served as JSON with no extension: `feed.json` in the export.
      '/feed': send('application/json', '{"items":[]}'),
      '/theme.css': send('text/css', 'a{color:red}'),
    });
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mirror-cli-'));
    cleanups.push(
      () => site.close(),
      () => fs.rmSync(dir, { recursive: true, force: true }),
    );
    const result = await run([site.origin, '--out', dir, '--allow-private-networks']);
    expect(result.code, result.err).toBe(0);
    const read = (file: string) => fs.readFileSync(path.join(dir, file), 'utf8');
    expect(read('feed.json')).toBe('{"items":[]}');
    expect(read('theme.css')).toBe('a{color:red}');
    // (`_x/~files.js` maps renamed files for the scripts of rendered pages.)
    expect(fs.readdirSync(dir).sort()).toEqual([
      '_x',
      'data.html',
      'docs',
      'feed.json',
      'index.html',
      'theme.css',
    ]);
    // The page that links the feed links its new name; the stamp stays (a static server ignores
    // it); the pages that do not were not parsed again: their folder link still says `/docs/`.
    expect(read('data.html')).toContain('href="/feed.json"');
    for (const page of ['index.html', 'data.html', 'docs/index.html'])
      expect(read(page)).toContain('href="/theme.css?2022.1"');
    expect(read('index.html')).toContain('href="/docs/"');
    expect(read('docs/index.html')).toContain('href="/"');
  });

  it("keeps each response's headers for --warc and for a second run from --blobs", async () => {
    // A run that writes a folder only keeps no capture log; these two read it.
    const site: FixtureServer = await serveFixture(
      path.join(FIXTURES, 'basic'),
      {},
      { cache: true },
    );
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mirror-cli-'));
    cleanups.push(
      () => site.close(),
      () => fs.rmSync(dir, { recursive: true, force: true }),
    );
    const args = (out: string) => [
      site.origin,
      '--out',
      path.join(dir, out),
      '--blobs',
      path.join(dir, 'blobs'),
      '--allow-private-networks',
      '--max-pages',
      '3',
      '--render',
      'never',
    ];
    const warc = path.join(dir, 'site.warc.gz');
    const first = await run([...args('one'), '--warc', warc]);
    expect(first.code, first.err).toBe(0);
    const { gunzipSync } = await import('node:zlib');
    const records = gunzipSync(fs.readFileSync(warc)).toString('latin1');
    // Each page's response record holds its HTTP head as the origin answered it: the origin's
    // Date and connection headers, which the manifest does not keep, with its validator.
    const heads = records
      .split('WARC/1.')
      .filter((r) => r.includes('WARC-Type: response'))
      .map((r) => r.split('\r\n\r\n')[1] ?? '')
      .filter((head) => head.startsWith('HTTP/1.1 200 ') && /content-type: text\/html/.test(head));
    expect(heads.length).toBe(3);
    for (const head of heads) {
      expect(head).toMatch(/\r\ndate: \w{3}, \d\d \w{3} \d{4} /i);
      expect(head).toMatch(/\r\nconnection: keep-alive/i);
      expect(head).toMatch(/\r\netag: "\d+-[\d.]+"/i);
    }
    const second = await run(args('two'));
    expect(second.code, second.err).toBe(0);
    expect(second.out).toMatch(/, [1-9]\d* unchanged;/);
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
      ['https://example.com', '--out', '/tmp/x', '--max-files', '0'],
      2,
      /--max-files must be a whole number ≥ 1/,
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

  it("copies a whole site from python's http.server (HTTP/1.0, every connection closed) without dying", async () => {
    // The kind of server that killed the process with undici's assert(!this.paused): bodies end
    // when the connection closes, so a body read more slowly than it arrives meets that close.
    // Whether it does here depends on timing; paused-parser.test.ts forces it deterministically.
    // This is the whole run against the real thing: backlog of 5, HTTP/1.0, no keep-alive.
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'mirror-python-site-'));
    const out = fs.mkdtempSync(path.join(os.tmpdir(), 'mirror-cli-python-'));
    cleanups.push(() => fs.rmSync(root, { recursive: true, force: true }));
    cleanups.push(() => fs.rmSync(out, { recursive: true, force: true }));
    const PAGES = 240;
    fs.mkdirSync(path.join(root, 'img'));
    for (let i = 0; i < 12; i++) {
      // Larger than undici's 64 KiB body buffer, and incompressible.
      fs.writeFileSync(path.join(root, 'img', `photo-${i}.jpg`), randomBytes(300_000));
    }
    for (let i = 0; i < PAGES; i++) {
      const links = [i + 1, i + 7, i * 3].map((n) => `<a href="page-${n % PAGES}.html">${n}</a>`);
      const html = `<!doctype html><title>Page ${i}</title><h1>Page ${i}</h1>${links.join(' ')}<img src="img/photo-${i % 12}.jpg"><p>${'text '.repeat(4000)}</p>`;
      fs.writeFileSync(path.join(root, i === 0 ? 'index.html' : `page-${i}.html`), html);
      if (i === 0) fs.writeFileSync(path.join(root, 'page-0.html'), html);
    }
    const port = await new Promise<number>((resolve) => {
      const probe = net.createServer().listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as net.AddressInfo;
        probe.close(() => resolve(port));
      });
    });
    const python = spawn('python3', ['-m', 'http.server', String(port), '--bind', '127.0.0.1'], {
      cwd: root,
      stdio: 'ignore',
    });
    cleanups.push(() => void python.kill());
    await expect
      .poll(
        () =>
          // Read to the end: Node's own fetch is undici too, with the same crash for a body left
          // unread when python closes the connection.
          fetch(`http://127.0.0.1:${port}/`).then(
            async (r) => (await r.arrayBuffer(), r.status),
            () => 0,
          ),
        { timeout: 10_000 },
      )
      .toBe(200);

    // The real CLI in its own process: a crash would be its exit code, not this test runner's.
    const engineRoot = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
    const result = await new Promise<{ code: number | null; stdout: string; stderr: string }>(
      (resolve) => {
        const child = execFile(
          process.execPath,
          [
            '--conditions',
            '@mirror/source',
            '--import',
            'tsx',
            'src/cli.ts',
            `http://127.0.0.1:${port}/`,
            '--out',
            out,
            '--allow-private-networks',
            '--render',
            'never',
            '--quiet',
          ],
          { cwd: engineRoot, timeout: 120_000 },
          (_error, stdout, stderr) => resolve({ code: child.exitCode, stdout, stderr }),
        );
      },
    );
    expect(result.stderr).not.toMatch(/AssertionError|paused/);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(new RegExp(`^Mirrored ${PAGES + 1} pages and \\d+ files`));
    expect(fs.readdirSync(path.join(out, 'img'))).toHaveLength(12);
    expect(fs.statSync(path.join(out, 'img', 'photo-5.jpg')).size).toBe(300_000);
  }, 150_000);

  it('mirrors a site without loading the archive, picture, browser or schema code', async () => {
    const site: FixtureServer = await serveFixture(path.join(FIXTURES, 'basic'));
    const cdn = await serveFixture(path.join(FIXTURES, 'cdn'));
    site.vars.CDN = cdn.origin;
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mirror-cli-start-'));
    const loadedList = path.join(dir, 'loaded.txt');
    cleanups.push(
      () => site.close(),
      () => cdn.close(),
      () => fs.rmSync(dir, { recursive: true, force: true }),
    );
    // Every module the process loads, written when it exits (the hook survives the CLI's re-exec:
    // it is one of Node's own arguments).
    const hook = [
      "import { registerHooks } from 'node:module';",
      "import { writeFileSync } from 'node:fs';",
      'const seen = [];',
      'registerHooks({ load(url, context, next) { seen.push(url); return next(url, context); } });',
      `process.on('exit', () => writeFileSync(${JSON.stringify(loadedList)}, seen.join('\\n')));`,
    ].join('\n');
    const engineRoot = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
    const result = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
      const child = execFile(
        process.execPath,
        [
          '--conditions',
          '@mirror/source',
          '--import',
          `data:text/javascript,${encodeURIComponent(hook)}`,
          '--import',
          'tsx',
          'src/cli.ts',
          site.origin,
          '--out',
          path.join(dir, 'out'),
          '--allow-private-networks',
          '--render',
          'never',
          '--quiet',
        ],
        { cwd: engineRoot, timeout: 60_000 },
        (_error, _stdout, stderr) => resolve({ code: child.exitCode, stderr }),
      );
    });
    expect(result.code, result.stderr).toBe(0);
    expect(fs.existsSync(path.join(dir, 'out', 'style.css'))).toBe(true);
    const loaded = fs.readFileSync(loadedList, 'utf8').split('\n');
    expect(loaded.some((url) => url.includes('/crawl/mirror.'))).toBe(true);
    // What only archives, renders, `--verify` or the service use is not, nor undici's entry point
    // (fetch, WebSocket, mocks): 0.5 CPU-s and 45 MB of start-up on bench:mirror's machine
    // (docs/engine.md, "Start-up").
    const unwanted = loaded.filter((url) =>
      /\/(zod|warcio|yauzl|yazl|pngjs|pixelmatch|@ghostery|playwright-core|mdn-data)\/|\/css-tree\/(lib|cjs)\/(lexer|syntax)\/|\/undici\/index\.js$/.test(
        url,
      ),
    );
    expect(unwanted).toEqual([]);
  }, 90_000);
});
