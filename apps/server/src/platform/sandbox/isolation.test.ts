import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config/env.js';
import { SERVICE_ENV } from '../../test/api-helpers.js';
import { spawnServer } from '../../test/spawn-server.js';
import { openDatabase } from '../db/database.js';
import { processTree } from './process-tree.js';

/**
 * The real server with a mirror run in its sandbox: what the process does when it is told to stop
 * in the middle of one. Embedded setup (SQLite, the jobs table, local files) whatever the run.
 */
const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const EMBEDDED = { DATABASE_URL: '', REDIS_URL: '', S3_BUCKET: '' };

/** A site that answers its page at once and then its files one byte a second. */
async function startDrippingSite() {
  const timers = new Set<NodeJS.Timeout>();
  const server = http.createServer((req, res) => {
    if (req.url === '/') {
      const images = Array.from({ length: 8 }, (_, i) => `<img src="/slow-${i}.png">`).join('');
      return res.writeHead(200, { 'content-type': 'text/html' }).end(`<h1>Drip</h1>${images}`);
    }
    if (req.url === '/robots.txt') return res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'image/png', 'content-length': '100000' });
    const timer = setInterval(() => res.write('x'), 1_000);
    timers.add(timer);
    res.on('close', () => (clearInterval(timer), timers.delete(timer)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(() => {
    for (const timer of timers) clearInterval(timer);
    server.closeAllConnections();
    return new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('a mirror run in the sandbox', () => {
  it('SIGTERM: the server exits within its shutdown time and the run goes back to the queue without counting a try', async () => {
    const sourceUrl = await startDrippingSite();
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mirror-isolation-'));
    cleanups.push(() => fs.rmSync(dataDir, { recursive: true, force: true }));
    const env = { DATA_DIR: dataDir, ...SERVICE_ENV, ...EMBEDDED, SHUTDOWN_TIMEOUT_MS: '4000' };
    const server = spawnServer(env);
    cleanups.push(() => (server.child.exitCode === null ? server.child.kill('SIGKILL') : null));
    const base = `http://127.0.0.1:${await server.port}`;

    const created = await fetch(`${base}/api/domains/clone`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ sourceUrl, isDemo: true }),
    });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    // The run is under way in its own process, busy with the dripping files.
    await expect
      .poll(
        async () =>
          (
            (await (await fetch(`${base}/api/domains/clone/${id}/status`)).json()) as {
              status: string;
            }
          ).status,
        { timeout: 20_000 },
      )
      .toBe('processing');
    await expect
      .poll(() => processTree(server.child.pid!).length, { timeout: 10_000 })
      .toBeGreaterThan(1);
    const tree = processTree(server.child.pid!);

    const stopped = Date.now();
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    expect(Date.now() - stopped).toBeLessThan(4_000);
    // Nothing the run started is left running.
    await expect.poll(() => tree.filter((p) => alive(p.pid)), { timeout: 3_000 }).toEqual([]);

    const database = await openDatabase(loadConfig(env).database);
    cleanups.push(() => database.destroy());
    const job = await database.db
      .selectFrom('jobs')
      .select(['status', 'attempts'])
      .where('name', '=', 'mirror-site')
      .executeTakeFirstOrThrow();
    expect(job).toEqual({ status: 'queued', attempts: 0 });
  }, 60_000);
});
