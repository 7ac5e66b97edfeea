import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { spawnServer } from '../test/spawn-server.js';

// Each role of the real entry point in a child process: what it answers, and what it never loads.
const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function start(role: string, env: Record<string, string> = {}) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mirror-role-'));
  const server = spawnServer({ DATA_DIR: dataDir, ...env }, ['--role', role]);
  cleanups.push(() => fs.rmSync(dataDir, { recursive: true, force: true }));
  cleanups.push(async () => {
    if (server.child.exitCode === null) {
      server.child.kill('SIGTERM');
      await server.exited;
    }
  });
  return server;
}

/** GET with any Host header (fetch would drop it). */
function get(port: string, pathname: string, host = `127.0.0.1:${port}`, headers = {}) {
  return new Promise<{ status: number; type: string; body: string }>((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path: pathname, headers: { host, ...headers } }, (res) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += c.toString()));
        res.on('end', () =>
          resolve({ status: res.statusCode!, type: res.headers['content-type'] ?? '', body }),
        );
      })
      .on('error', reject);
  });
}

describe('--role worker', () => {
  it('answers only health, readiness and metrics, and drains on SIGTERM', async () => {
    const worker = start('worker');
    const port = await worker.port;
    expect(await get(port, '/api/health')).toMatchObject({ status: 200, body: '{"status":"ok"}' });
    const ready = await get(port, '/api/ready');
    expect(ready.status).toBe(200);
    expect(JSON.parse(ready.body)).toEqual({
      status: 'ready',
      checks: { database: 'ok', storage: 'ok', jobs: 'ok' },
    });
    const metrics = await get(port, '/metrics');
    expect(metrics.type).toContain('text/plain');
    expect(metrics.body).toMatch(/^mirror_jobs\{state="waiting",role="worker"\} 0$/m);
    expect(metrics.body).toContain('process_cpu_seconds_total');
    // No app, no API, no sites.
    expect((await get(port, '/')).status).toBe(404);
    expect((await get(port, '/api/auth/me')).status).toBe(404);
    expect((await get(port, '/', 'shop.localhost')).status).toBe(404);

    worker.child.kill('SIGTERM');
    expect(await worker.exited).toBe(0);
    expect(worker.output().stdout).toContain('shutting down');
  }, 60_000);

  it('never loads the web stack', () => {
    // The worker's static import graph, followed from its module through our own sources.
    const src = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
    const seen = new Set<string>();
    const packages = new Set<string>();
    const visit = (file: string) => {
      if (seen.has(file)) return;
      seen.add(file);
      const code = fs.readFileSync(file, 'utf8');
      // Value imports and re-exports only: `import type` is erased at build time.
      for (const [, spec] of code.matchAll(
        /^(?:import|export)\s+(?!type\b)[^;]*?from\s+'([^']+)';/gms,
      )) {
        if (spec!.startsWith('.'))
          visit(path.resolve(path.dirname(file), spec!.replace(/\.js$/, '.ts')));
        else
          packages.add(
            spec!.startsWith('@') ? spec!.split('/').slice(0, 2).join('/') : spec!.split('/')[0]!,
          );
      }
    };
    visit(path.join(src, 'roles/worker.ts'));
    expect(seen.size).toBeGreaterThan(30);
    const ours = [...seen].map((f) => path.relative(src, f));
    expect(ours).toContain('modules/sites/mirror-site.job.ts');
    expect(ours.filter((f) => f.startsWith('http/'))).toEqual([]);
    expect(ours).not.toContain('app.ts');
    expect(ours).not.toContain('hosting/web-app.ts');
    expect([...packages].filter((p) => /fastify|react|swagger/.test(p))).toEqual([]);
  });
});

describe('--role sites', () => {
  it('serves tenant hosts only, with probes on its address', async () => {
    const sites = start('sites', { APP_HOSTS: 'internal.example' });
    const port = await sites.port;
    const tenant = await get(port, '/', 'nobody.localhost');
    expect(tenant.status).toBe(404);
    expect(tenant.body).toContain('No site here');
    // The app is served elsewhere: its hosts get neither the app nor the API.
    for (const host of [`localhost:${port}`, 'internal.example']) {
      const app = await get(port, '/', host);
      expect(app.status).toBe(421);
      expect(app.body).toContain('tenant sites only');
      expect((await get(port, '/api/auth/me', host)).status).toBe(421);
    }
    expect((await get(port, '/api/health')).status).toBe(200);
    expect(JSON.parse((await get(port, '/api/ready')).body)).toEqual({
      status: 'ready',
      checks: { database: 'ok', storage: 'ok' },
    });
    expect((await get(port, '/metrics')).body).toMatch(
      /^mirror_sites_requests_total\{role="sites"\} 1$/m,
    );
  }, 60_000);

  it('asks for the metrics token when one is set', async () => {
    const token = 'a-metrics-token-of-some-length';
    const sites = start('sites', { METRICS_TOKEN: token });
    const port = await sites.port;
    const refused = await get(port, '/metrics');
    expect(refused.status).toBe(401);
    expect(JSON.parse(refused.body)).toEqual({ message: 'A valid metrics token is required.' });
    const allowed = await get(port, '/metrics', undefined, { authorization: `Bearer ${token}` });
    expect(allowed.status).toBe(200);
  }, 60_000);
});

describe('--role api', () => {
  it('serves the app and the API, sends tenant hosts away, and exposes metrics', async () => {
    const api = start('api');
    const port = await api.port;
    expect(await get(port, '/api/health')).toMatchObject({ status: 200 });
    expect(JSON.parse((await get(port, '/api/ready')).body)).toMatchObject({ status: 'ready' });
    const tenant = await get(port, '/', 'shop.localhost');
    expect(tenant.status).toBe(421);
    expect(tenant.body).toContain('served by the sites processes');
    const metrics = (await get(port, '/metrics')).body;
    expect(metrics).toMatch(
      /^mirror_http_request_duration_seconds_count\{role="api",method="GET",route="\/api\/health",status_code="200"\} 1$/m,
    );
  }, 60_000);
});

describe('the role option', () => {
  it('refuses an unknown role with the usage', async () => {
    const bad = start('janitor');
    expect(await bad.exited).toBe(1);
    expect(bad.output().stderr).toContain('Unknown role "janitor"');
    expect(bad.output().stderr).toContain('--role all|api|worker|sites');
  }, 60_000);
});
