import { randomUUID } from 'node:crypto';
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { gunzipSync } from 'node:zlib';
import type { Manifest, ManifestEntry } from '@mirror/engine';
import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import type { Config } from '../config/env.js';
import { saveManifest } from '../modules/sites/manifests.js';
import { openDatabase, type DatabaseHandle } from '../platform/db/database.js';
import { testLogStream } from '../test/logs.js';
import { createTestConfig, dropTestStorage } from '../test/test-app.js';
import { createSitesFront, type TenantHandler } from './sites-front.js';

// The product's real path: buildApp listening on a socket, tenant hosts answered by the server's
// listener before Fastify (app.inject would not go through it).

const page = `<!doctype html><title>Front</title>${'<p>served before Fastify</p>'.repeat(100)}`;

interface Running {
  app: FastifyInstance;
  config: Config;
  database: DatabaseHandle;
  port: number;
  logs: string[];
  subdomain: string;
  siteId: string;
}

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function startApp(): Promise<Running> {
  const config = createTestConfig({ LOG_LEVEL: 'info' });
  const database = await openDatabase(config.database);
  const logs: string[] = [];
  const logStream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      logs.push(chunk.toString());
      done();
    },
  });
  const app = await buildApp(config, {
    database,
    logStream: testLogStream(logStream),
    runJobs: false,
  });
  let closed = false;
  cleanups.push(async () => {
    if (!closed) await app.close();
    await database.destroy();
    await dropTestStorage(config);
  });
  app.addHook('onClose', async () => {
    closed = true;
  });

  // A published site, written the way a mirror run leaves it.
  const put = (body: string) =>
    app.blobs.put(
      (async function* () {
        yield Buffer.from(body);
      })(),
    );
  const home = await put(page);
  const entry: ManifestEntry = {
    path: '/',
    url: 'https://origin.test/',
    kind: 'page',
    status: 200,
    contentType: 'text/html; charset=utf-8',
    hash: home.hash,
    size: home.size,
    headers: {},
  };
  const manifest: Manifest = {
    version: 1,
    startUrl: 'https://origin.test/',
    entryPath: '/',
    createdAt: new Date(0).toISOString(),
    entries: [entry],
    failures: [],
    notes: [],
    stats: {
      pages: 1,
      assets: 0,
      bytes: home.size,
      requests: 1,
      notModified: 0,
      rendered: 0,
      durationMs: 0,
    },
  };
  const now = new Date().toISOString();
  const siteId = randomUUID();
  const versionId = randomUUID();
  const subdomain = 'front-demo';
  const db = database.db;
  await db
    .insertInto('sites')
    .values({
      id: siteId,
      owner_id: null,
      source_url: 'https://origin.test/',
      subdomain,
      created_at: now,
      updated_at: now,
    })
    .execute();
  await db
    .insertInto('site_versions')
    .values({
      id: versionId,
      site_id: siteId,
      number: 1,
      status: 'completed',
      manifest_hash: await saveManifest(app.blobs, manifest),
      error: null,
      created_at: now,
      finished_at: now,
    })
    .execute();
  await db
    .updateTable('sites')
    .set({ live_version_id: versionId, status: 'completed' })
    .where('id', '=', siteId)
    .execute();

  await app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = app.server.address() as AddressInfo;
  logs.length = 0;
  return { app, config, database, port, logs, subdomain, siteId };
}

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

function request(
  port: number,
  host: string,
  path: string,
  headers: Record<string, string> = {},
  method = 'GET',
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port, path, method, headers: { host, ...headers }, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks),
          }),
        );
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/** Fastify logs every request it routes ("incoming request" at info level). */
function fastifySaw(logs: string[], path: string): boolean {
  return logs.some((line) => line.includes('incoming request') && line.includes(`"${path}"`));
}

describe('sites front: tenant hosts are answered before Fastify', () => {
  it('serves a published site on its subdomain with site headers, without Fastify', async () => {
    const { port, logs, subdomain } = await startApp();
    const host = `${subdomain}.localhost:${port}`;
    const res = await request(port, host, '/');
    expect(res.status).toBe(200);
    expect(res.body.toString()).toBe(page);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    expect(res.headers['content-security-policy']).toBeUndefined();
    expect(res.headers['x-request-id']).toBeUndefined();
    expect(res.headers['set-cookie']).toBeUndefined();

    const gz = await request(port, host, '/', { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.headers['vary']).toBe('accept-encoding');
    expect(gunzipSync(gz.body).toString()).toBe(page);

    const notModified = await request(port, host, '/', { 'if-none-match': res.headers.etag! });
    expect(notModified.status).toBe(304);

    expect(fastifySaw(logs, '/')).toBe(false);
  });

  it('never lets tenant hosts reach the API or the SPA', async () => {
    const { port, logs, subdomain } = await startApp();
    for (const path of ['/api/health', '/api/docs/json', '/dashboard']) {
      const res = await request(port, `${subdomain}.localhost:${port}`, path);
      expect(res.status, path).toBe(404);
      expect(res.headers['content-type'], path).toContain('text/html');
      expect(res.body.toString(), path).toContain('Page not found');
      expect(res.headers['content-security-policy'], path).toBeUndefined();
    }
    const nobody = await request(port, `nobody.localhost:${port}`, '/api/health');
    expect(nobody.status).toBe(404);
    expect(nobody.body.toString()).toContain('No site here');
    const post = await request(
      port,
      `${subdomain}.localhost:${port}`,
      '/api/auth/login',
      {},
      'POST',
    );
    expect(post.status).toBe(405);
    expect(fastifySaw(logs, '/api/health')).toBe(false);
  });

  it('leaves the app host to Fastify', async () => {
    const { port, logs } = await startApp();
    const res = await request(port, `localhost:${port}`, '/api/health');
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body.toString())).toEqual({ status: 'ok' });
    expect(res.headers['content-security-policy']).toContain("default-src 'self'");
    expect(res.headers['x-request-id']).toBeDefined();
    expect(fastifySaw(logs, '/api/health')).toBe(true);
  });

  it('counts visits, written when the app closes', async () => {
    const { app, database, port, subdomain, siteId } = await startApp();
    const host = `${subdomain}.localhost:${port}`;
    const browser = { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64; rv:127.0) Firefox/127.0' };
    await request(port, host, '/', browser);
    await request(port, host, '/', { ...browser, referer: `http://${host}/` });
    await request(port, host, '/', browser, 'HEAD');
    await request(port, host, '/');
    await app.close();
    const rows = await database.db
      .selectFrom('site_visits')
      .select(['visits', 'page_views', 'visitors', 'bytes', 'bot_views'])
      .where('site_id', '=', siteId)
      .execute();
    expect(rows).toEqual([
      {
        visits: 1,
        page_views: 2,
        visitors: 1,
        bytes: 3 * Buffer.byteLength(page),
        bot_views: 1,
      },
    ]);
  });

  it('closes promptly with keep-alive connections to a site open', async () => {
    const { app, port, subdomain } = await startApp();
    const agent = new http.Agent({ keepAlive: true });
    const res = await new Promise<number>((resolve, reject) => {
      http
        .get(
          {
            host: '127.0.0.1',
            port,
            path: '/',
            agent,
            headers: { host: `${subdomain}.localhost` },
          },
          (r) => {
            r.resume();
            r.on('end', () => resolve(r.statusCode ?? 0));
          },
        )
        .on('error', reject);
    });
    expect(res).toBe(200);
    const started = Date.now();
    await app.close();
    expect(Date.now() - started).toBeLessThan(2_000);
    agent.destroy();
  });
});

describe('sites front: the listener', () => {
  it('tells tenant hosts from the app host', () => {
    const front = createSitesFront({ appHosts: ['app.example', 'localhost', '127.0.0.1', '::1'] });
    expect(front.isTenantHost('demo.sites.example')).toBe(true);
    expect(front.isTenantHost('Demo.Sites.Example:8080')).toBe(true);
    expect(front.isTenantHost('demo.sites.example.')).toBe(true);
    // Custom domains and names nobody has are tenants' too (the sites host says "No site here").
    expect(front.isTenantHost('shop.example.com')).toBe(true);
    expect(front.isTenantHost('a.b.sites.example')).toBe(true);
    expect(front.isTenantHost('app.example')).toBe(false);
    expect(front.isTenantHost('App.Example:443')).toBe(false);
    expect(front.isTenantHost('127.0.0.1:8080')).toBe(false);
    expect(front.isTenantHost('[::1]:8080')).toBe(false);
    expect(front.isTenantHost(undefined)).toBe(false);
    expect(front.isTenantHost('')).toBe(false);
    // The app may share its host name with the sites domain (localhost in development).
    const dev = createSitesFront({ appHosts: ['localhost'] });
    expect(dev.isTenantHost('localhost:8080')).toBe(false);
    expect(dev.isTenantHost('demo.localhost:8080')).toBe(true);
    for (let i = 0; i < 3000; i++) dev.isTenantHost(`s${i}.localhost`);
    expect(dev.isTenantHost('demo.localhost:8080')).toBe(true);
  });

  it('answers on a busy keep-alive connection after close with Connection: close', async () => {
    const front = createSitesFront({ appHosts: ['localhost'] });
    const sites: TenantHandler = {
      async handleNode(req, res) {
        if (req.url === '/slow') await new Promise((resolve) => setTimeout(resolve, 300));
        res.writeHead(200, ['content-length', '2']);
        res.end('ok');
      },
    };
    front.attach(sites);
    const server = front.serverFactory(
      (_req, res) => {
        res.writeHead(418);
        res.end();
      },
      { keepAliveTimeout: 72_000 },
    ) as http.Server;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;

    expect((await request(port, 'localhost', '/')).status).toBe(418);

    const socket = net.connect(port, '127.0.0.1');
    let received = '';
    socket.on('data', (chunk: Buffer) => (received += chunk.toString()));
    const socketClosed = new Promise((resolve) => socket.on('close', resolve));
    socket.write('GET /slow HTTP/1.1\r\nHost: demo.localhost\r\n\r\n');
    await new Promise((resolve) => setTimeout(resolve, 100));
    const serverClosed = new Promise((resolve) => server.close(resolve));
    // The connection is busy, so close() leaves it open; the next request on it is the last.
    socket.write('GET /again HTTP/1.1\r\nHost: demo.localhost\r\n\r\n');
    await socketClosed;
    await serverClosed;
    const answers = received.split('HTTP/1.1 200 OK').slice(1);
    expect(answers).toHaveLength(2);
    expect(answers[0]).toMatch(/Connection: keep-alive/i);
    expect(answers[1]).toMatch(/Connection: close/i);
  });
});
