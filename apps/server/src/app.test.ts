import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { buildApp } from './app.js';
import { expectErrorLog, testLogStream } from './test/logs.js';
import { createTestApp, createTestConfig, dropTestStorage, type TestApp } from './test/test-app.js';

let current: TestApp | undefined;
afterEach(async () => {
  await current?.close();
  current = undefined;
});

describe('API basics', () => {
  it('answers health ok after checking the database', async () => {
    current = await createTestApp();
    const res = await current.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok' });
    expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('reports 503 when the database is gone', async () => {
    // Without its periodic jobs: on BullMQ they may start at once and fail on the closed database.
    current = await createTestApp({}, { runJobs: false });
    await current.app.database.destroy();
    expectErrorLog(/database ping failed/);
    const res = await current.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({ message: 'Database unavailable.' });
  });

  it('keeps a caller-provided request id', async () => {
    current = await createTestApp();
    const res = await current.app.inject({
      url: '/api/health',
      headers: { 'x-request-id': 'abc-123' },
    });
    expect(res.headers['x-request-id']).toBe('abc-123');
  });

  it('answers unknown API paths with a JSON 404', async () => {
    current = await createTestApp();
    const res = await current.app.inject({ method: 'POST', url: '/api/nothing/here' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ message: 'Resource not found.' });
  });

  it('sends security headers on the app', async () => {
    current = await createTestApp();
    const res = await current.app.inject({ url: '/api/health' });
    expect(res.headers['content-security-policy']).toContain("default-src 'self'");
    expect(res.headers['content-security-policy']).toContain("object-src 'none'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
  });

  it('publishes OpenAPI generated from the route schemas', async () => {
    current = await createTestApp();
    const res = await current.app.inject({ url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json() as { openapi: string; paths: Record<string, unknown> };
    expect(doc.openapi).toMatch(/^3\./);
    expect(doc.paths['/api/health']).toBeDefined();
    const ui = await current.app.inject({ url: '/api/docs/' });
    expect(ui.statusCode).toBe(200);
    expect(ui.body).toContain('swagger');
  });
});

describe('errors', () => {
  async function appWithProbeRoutes(): Promise<TestApp> {
    const config = createTestConfig();
    const app = await buildApp(config, { logStream: testLogStream() });
    app.post(
      '/api/probe/validate',
      {
        schema: {
          body: z.object({
            email: z.email('Email must be a valid email.'),
            password: z.string().min(8, 'Password must be at least 8 characters long.'),
          }),
        },
      },
      async () => ({ ok: true }),
    );
    app.get('/api/probe/crash', async () => {
      throw new Error('connection string postgres://secret@db leaked');
    });
    await app.ready();
    return { app, config, close: async () => (await app.close(), await dropTestStorage(config)) };
  }

  it('answers validation failures with every message, 400', async () => {
    current = await appWithProbeRoutes();
    const res = await current.app.inject({
      method: 'POST',
      url: '/api/probe/validate',
      payload: { email: 'nope', password: 'short' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      message: ['Email must be a valid email.', 'Password must be at least 8 characters long.'],
    });
  });

  it('answers one validation failure as a single message', async () => {
    current = await appWithProbeRoutes();
    const res = await current.app.inject({
      method: 'POST',
      url: '/api/probe/validate',
      payload: { email: 'a@example.com', password: 'short' },
    });
    expect(res.json()).toEqual({ message: 'Password must be at least 8 characters long.' });
  });

  it('answers malformed JSON with 400 and a readable message', async () => {
    current = await appWithProbeRoutes();
    const res = await current.app.inject({
      method: 'POST',
      url: '/api/probe/validate',
      headers: { 'content-type': 'application/json' },
      payload: '{"email":',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message: 'Request body is not valid JSON.' });
  });

  it('hides the internals of a server error', async () => {
    current = await appWithProbeRoutes();
    expectErrorLog(/postgres:\/\/secret@db leaked/);
    const res = await current.app.inject({ url: '/api/probe/crash' });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({ message: 'Server error. Please try again later.' });
    expect(res.body).not.toContain('secret');
  });
});

describe('web app serving', () => {
  function fakeWebBuild(dir: string): void {
    fs.mkdirSync(path.join(dir, 'assets'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'index.html'), '<!doctype html><div id="root"></div>');
    fs.writeFileSync(path.join(dir, 'assets', 'index-AbC123.js'), 'console.log(1)');
    fs.writeFileSync(path.join(dir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  }

  async function appWithWebBuild(): Promise<TestApp> {
    const probe = createTestConfig();
    const webDir = path.join(probe.dataDir, 'web');
    fakeWebBuild(webDir);
    await dropTestStorage(probe);
    fakeWebBuild(webDir);
    return createTestApp({ DATA_DIR: probe.dataDir, WEB_DIST_DIR: webDir });
  }

  it('falls back to index.html for client routes, revalidated on every load', async () => {
    current = await appWithWebBuild();
    for (const url of ['/', '/dashboard/site/42', '/ar', '/no/such/page?x=1']) {
      const res = await current.app.inject({ url });
      expect(res.statusCode, url).toBe(200);
      expect(res.body).toContain('<div id="root">');
      expect(res.headers['cache-control']).toBe('no-cache');
    }
  });

  it('caches hashed assets for a year and 404s missing ones instead of sending the page', async () => {
    current = await appWithWebBuild();
    const asset = await current.app.inject({ url: '/assets/index-AbC123.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const missing = await current.app.inject({ url: '/assets/gone-123.js' });
    expect(missing.statusCode).toBe(404);
    const icon = await current.app.inject({ url: '/favicon.svg' });
    expect(icon.headers['cache-control']).toBe('public, max-age=3600');
  });

  it('never answers an API path with the page', async () => {
    current = await appWithWebBuild();
    const res = await current.app.inject({ url: '/api/unknown' });
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toContain('application/json');
  });
});

describe('sites host', () => {
  it('keeps tenant hosts away from the app: no API, no SPA, no app headers', async () => {
    current = await createTestApp();
    for (const url of ['/', '/api/health']) {
      const res = await current.app.inject({ url, headers: { host: 'demo.localhost:8080' } });
      expect(res.statusCode, url).toBe(404);
      expect(res.headers['content-type']).toContain('text/html');
      expect(res.body).toContain('No site here');
      expect(res.body).toContain('demo.localhost');
      expect(res.headers['content-security-policy']).toBeUndefined();
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['set-cookie']).toBeUndefined();
    }
  });

  it('escapes the host it echoes', async () => {
    current = await createTestApp({ SITES_DOMAIN: 'sites.test' });
    const res = await current.app.inject({ url: '/', headers: { host: '<b>x</b>.sites.test' } });
    expect(res.body).not.toContain('<b>x</b>');
  });

  it('serves the app on the app host itself', async () => {
    current = await createTestApp();
    const res = await current.app.inject({
      url: '/api/health',
      headers: { host: 'localhost:8080' },
    });
    expect(res.statusCode).toBe(200);
  });
});
