import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureSite, type FixtureSite } from '../test/fixture-site.js';
import { mirrorSite, SERVICE_ENV, signUp } from '../test/api-helpers.js';
import { createTestApp, type TestApp } from '../test/test-app.js';
import { rawRequest, type RawAnswer } from '../test/hostile-helpers.js';

/**
 * Hostile input, part 4: path traversal. A mirrored site is served on its own host
 * (`{sub}.localhost`) from its manifest; the app's own pages come from the built web app folder.
 * Neither may be talked into answering a file outside what it serves: /etc/passwd, the data folder
 * (blobs, database), a secret next to the web app's folder — whatever the encoding of the dots and
 * slashes (percent, double percent, backslash, overlong UTF-8), null bytes, or length of the path.
 * Answers are the site's own pages or its 404 (or a 4xx for what is not a path at all), never a 5xx,
 * and no redirect leaves the host.
 *
 * Each path is sent both through `app.inject` (Host header) and over a real socket with node:http,
 * which sends the path byte for byte (fetch() would normalize it and drop the Host header).
 */

const SECRET = `hostile-secret-${Math.random().toString(36).slice(2)}`;

let site: FixtureSite;
let t: TestApp;
let port: number;
let siteHost: string;
let workDir: string;
let webDist: string;

/** Paths that try to climb out of what is served. `D` is the data folder, `W` the web app's. */
function traversalPaths(D: string, W: string): string[] {
  const up = (n: number, sep = '/') => `..${sep}`.repeat(n);
  return [
    `/${up(8)}etc/passwd`,
    '/../../etc/passwd',
    '/%2e%2e/%2e%2e/%2e%2e/%2e%2e/etc/passwd',
    '/%2E%2E/%2E%2E/%2E%2E/etc/passwd',
    '/.%2e/.%2e/.%2e/etc/passwd',
    '/..%2f..%2f..%2f..%2fetc%2fpasswd',
    '/..%2F..%2F..%2F..%2Fetc%2Fpasswd',
    '/%2e%2e%2f%2e%2e%2f%2e%2e%2fetc%2fpasswd',
    '/%2e%2e%5c%2e%2e%5c%2e%2e%5cetc%5cpasswd',
    '/..%5c..%5c..%5c..%5cetc%5cpasswd',
    `/${up(6, '\\')}etc\\passwd`,
    '/%252e%252e/%252e%252e/%252e%252e/etc/passwd',
    '/%c0%ae%c0%ae/%c0%ae%c0%ae/%c0%ae%c0%ae/etc/passwd',
    '/%c0%ae%c0%ae%c0%af%c0%ae%c0%ae%c0%afetc%c0%afpasswd',
    '/%e0%80%ae%e0%80%ae/%e0%80%ae%e0%80%ae/etc/passwd',
    '/%uff0e%uff0e/%uff0e%uff0e/etc/passwd',
    '/..;/..;/..;/etc/passwd',
    '/./././../../../../etc/passwd',
    '/page-1.html/../../../../etc/passwd',
    '/style.css/..%2f..%2f..%2fetc%2fpasswd',
    '//etc/passwd',
    '///etc/passwd',
    '/etc/passwd',
    '/etc/passwd%00',
    '/etc/passwd%00.html',
    '/index.html%00/../../../etc/passwd',
    '/%00',
    '/%00/../../etc/passwd',
    '/proc/self/environ',
    `/${up(8)}proc/self/environ`,
    '/file:///etc/passwd',
    // The data folder: the database, blobs, and a secret put there for this test.
    `${D}/hostile-secret.txt`,
    `/${up(12)}${D.slice(1)}/hostile-secret.txt`,
    `/${up(12)}${D.slice(1)}/mirror.db`,
    `/${up(12)}${D.slice(1)}/blobs`,
    '/blobs',
    '/mirror.db',
    // Next to the web app's folder.
    `/../secret.txt`,
    `/%2e%2e/secret.txt`,
    `/..%2fsecret.txt`,
    `/${up(12)}${W.slice(1)}/../secret.txt`,
    // Not paths: bad escapes, another host in the path, fragments and queries.
    '/%',
    '/%zz/%',
    '/?../../../etc/passwd',
    '/?file=../../../etc/passwd',
    '//evil.example/%2e%2e',
    '/\\evil.example/',
    '/http://127.0.0.1/etc/passwd',
    // Very long: 100 KB of path, and thousands of dot segments.
    `/${'a'.repeat(100_000)}`,
    `/${up(30_000)}etc/passwd`,
    `/${'%2e%2e%2f'.repeat(11_000)}etc/passwd`,
  ];
}

/** What must never appear in an answer: the files outside, or the process's environment. */
function leaks(body: string): string | null {
  if (/root:[^:\n]*:0:0:/.test(body)) return '/etc/passwd';
  if (body.includes(SECRET)) return 'a secret file';
  if (body.includes('SQLite format 3')) return 'the database';
  if (/(?:^|\0)(PATH|HOME)=/.test(body)) return 'the environment';
  return null;
}

beforeAll(async () => {
  site = await startFixtureSite();
  workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mirror-traversal-'));
  webDist = path.join(workDir, 'dist');
  fs.mkdirSync(path.join(webDist, 'assets'), { recursive: true });
  fs.writeFileSync(path.join(webDist, 'index.html'), '<!doctype html><title>Mirror app</title>');
  fs.writeFileSync(path.join(webDist, 'assets', 'app.js'), 'console.log("app")');
  fs.writeFileSync(path.join(workDir, 'secret.txt'), SECRET);
  t = await createTestApp({ ...SERVICE_ENV, WEB_DIST_DIR: webDist });
  fs.writeFileSync(path.join(t.config.dataDir, 'hostile-secret.txt'), SECRET);

  const owner = await signUp(t);
  const mirrored = await mirrorSite(t, site.url, owner.headers);
  expect(mirrored.readings.at(-1)!.status).toBe('completed');
  siteHost = new URL(mirrored.previewUrl).hostname;

  await t.app.listen({ host: '127.0.0.1', port: 0 });
  port = (t.app.server.address() as AddressInfo).port;
}, 60_000);

afterAll(async () => {
  await t?.close();
  await site?.close();
  if (workDir) fs.rmSync(workDir, { recursive: true, force: true });
});

interface Answer {
  status: number;
  location?: string;
  body: string;
}

async function bothWays(host: string, pathname: string): Promise<Answer[]> {
  const injected = await t.app.inject({ method: 'GET', url: pathname, headers: { host } });
  const raw: RawAnswer = await rawRequest(port, { path: pathname, headers: { host } });
  return [
    {
      status: injected.statusCode,
      body: injected.body,
      ...(typeof injected.headers.location === 'string'
        ? { location: injected.headers.location }
        : {}),
    },
    {
      status: raw.status,
      body: raw.body,
      ...(typeof raw.headers.location === 'string' ? { location: raw.headers.location } : {}),
    },
  ];
}

function expectContained(answer: Answer, context: string, isOwnContent: (body: string) => boolean) {
  const what = `${context} → ${answer.status} ${answer.location ?? ''} ${answer.body.slice(0, 200)}`;
  expect(answer.status, what).toBeGreaterThanOrEqual(200);
  expect(answer.status, what).toBeLessThan(500);
  expect(leaks(answer.body), what).toBeNull();
  if (answer.status === 200) expect(isOwnContent(answer.body), what).toBe(true);
  if (answer.location !== undefined) {
    // A redirect stays on the host: a path, never `//other.host` or `/\other.host`.
    expect(answer.location, what).toMatch(/^\/(?![/\\])/);
  }
}

describe('path traversal', () => {
  it('the sites host answers only the site: its pages or its 404, never a file outside', async () => {
    // The control: the site itself is served on its host.
    const home = await bothWays(siteHost, '/page-1.html');
    for (const answer of home) expect(answer.body).toContain('Version 1 /page-1.html');

    const statuses = new Set<number>();
    for (const pathname of traversalPaths(t.config.dataDir, webDist)) {
      for (const [i, answer] of (await bothWays(siteHost, pathname)).entries()) {
        statuses.add(answer.status);
        expectContained(
          answer,
          `${i === 0 ? 'inject' : 'socket'} ${siteHost}${pathname.slice(0, 120)}`,
          (body) => body.includes('Fixture v1'),
        );
      }
    }
    // Mostly the site's 404; dot segments that stay inside resolve to the site's own pages.
    expect(statuses.has(404)).toBe(true);
  });

  it("the app host serves the web app's files and pages only, never a file next to them", async () => {
    const index = fs.readFileSync(path.join(webDist, 'index.html'), 'utf8');
    const host = `127.0.0.1:${port}`;
    const app = await bothWays(host, '/assets/app.js');
    for (const answer of app) expect(answer.body).toContain('console.log("app")');

    for (const pathname of traversalPaths(t.config.dataDir, webDist)) {
      for (const [i, answer] of (await bothWays(host, pathname)).entries()) {
        expectContained(
          answer,
          `${i === 0 ? 'inject' : 'socket'} ${host}${pathname.slice(0, 120)}`,
          // A client route gets index.html (the SPA), a file of the folder its own bytes.
          (body) => body === index || body === 'console.log("app")',
        );
      }
    }
  });
});
