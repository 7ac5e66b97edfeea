import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import https from 'node:https';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import tls from 'node:tls';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pollToEnd, SERVICE_ENV, signUp } from '../test/api-helpers.js';
import { startDnsServer, type TestDnsServer } from '../test/dns-server.js';
import { startFixtureSite, type FixtureSite } from '../test/fixture-site.js';
import { createTestApp, waitFor, type TestApp } from '../test/test-app.js';

/**
 * The TLS edge for real: Debian's Caddy with its internal CA and on-demand TLS, on loopback ports,
 * in front of the app. Its `ask` is our /api/internal/tls/ask, so an active domain gets a
 * certificate (and its site over HTTPS) and a name nobody has gets no certificate at all. Same
 * directives as deploy/Caddyfile, with `tls internal` instead of ACME.
 */

const CADDY = process.env.CADDY_PATH ?? '/usr/bin/caddy';
const hasCaddy = fs.existsSync(CADDY);
if (!hasCaddy) console.warn(`caddy.test: skipped, no Caddy binary at ${CADDY} (apt install caddy)`);

const IPV4 = '203.0.113.30';
const TOKEN = 'caddy-test-internal-token-0123';
const PRODUCTION_CADDYFILE = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../../../deploy/Caddyfile',
);

let dns: TestDnsServer;
let fixture: FixtureSite;
let t: TestApp;
let caddy: ChildProcess | undefined;
let caddyLog = '';
let httpsPort = 0;
let rootCa: Buffer;
let workDir: string;

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

function accepts(port: number): Promise<true | undefined> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(undefined));
  });
}

/** The certificate Caddy presents for `servername`, or the handshake's error. */
function handshake(servername: string): Promise<tls.PeerCertificate | Error> {
  return new Promise((resolve) => {
    const socket = tls.connect({
      host: '127.0.0.1',
      port: httpsPort,
      servername,
      ca: rootCa,
      rejectUnauthorized: false,
    });
    socket.setTimeout(10_000, () => {
      socket.destroy();
      resolve(new Error('handshake timed out'));
    });
    socket.once('secureConnect', () => {
      const cert = socket.getPeerCertificate();
      const authorized = socket.authorized;
      socket.end();
      resolve(authorized ? cert : new Error(`not trusted: ${String(socket.authorizationError)}`));
    });
    socket.once('error', (err) => resolve(err));
  });
}

/** A request over HTTPS to 127.0.0.1 with SNI and Host `host`, trusting only Caddy's root. */
function requestHttps(
  host: string,
  pathname = '/',
  form?: Record<string, string>,
  hostHeader = host,
): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  const payload = form ? new URLSearchParams(form).toString() : undefined;
  return new Promise((resolve, reject) => {
    const req = https.request(
      {
        host: '127.0.0.1',
        port: httpsPort,
        path: pathname,
        method: payload ? 'POST' : 'GET',
        servername: host,
        headers: {
          host: hostHeader,
          ...(payload ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
        },
        ca: rootCa,
        agent: false,
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

beforeAll(async () => {
  if (!hasCaddy) return;
  dns = await startDnsServer();
  fixture = await startFixtureSite();
  t = await createTestApp({
    ...SERVICE_ENV,
    DNS_SERVERS: dns.address,
    DNS_TIMEOUT_MS: '1000',
    SITES_DOMAIN: 'sites.mirror.test',
    SITES_CNAME_TARGET: 'edge.mirror.test',
    SITES_IPV4: IPV4,
    METRICS_TOKEN: TOKEN,
  });
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  const appPort = (t.app.server.address() as net.AddressInfo).port;

  workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mirror-caddy-'));
  httpsPort = await freePort();
  const httpPort = await freePort();
  const caddyfile = path.join(workDir, 'Caddyfile');
  fs.writeFileSync(
    caddyfile,
    `{
	admin off
	auto_https disable_redirects
	skip_install_trust
	http_port ${httpPort}
	https_port ${httpsPort}
	on_demand_tls {
		ask http://127.0.0.1:${appPort}/api/internal/tls/ask?token=${TOKEN}
	}
}

https:// {
	tls internal {
		on_demand
	}
	reverse_proxy 127.0.0.1:${appPort} {
		header_up Host {http.request.tls.server_name}
	}
}
`,
  );
  caddy = spawn(CADDY, ['run', '--config', caddyfile, '--adapter', 'caddyfile'], {
    env: {
      ...process.env,
      HOME: workDir,
      XDG_DATA_HOME: path.join(workDir, 'data'),
      XDG_CONFIG_HOME: path.join(workDir, 'config'),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  caddy.stdout!.on('data', (chunk: Buffer) => (caddyLog += chunk.toString()));
  caddy.stderr!.on('data', (chunk: Buffer) => (caddyLog += chunk.toString()));
  try {
    await waitFor(() => accepts(httpsPort), 20_000);
  } catch (err) {
    throw new Error(`Caddy did not start:\n${caddyLog}`, { cause: err });
  }
  const rootFile = path.join(workDir, 'data/caddy/pki/authorities/local/root.crt');
  rootCa = await waitFor(() => (fs.existsSync(rootFile) ? fs.readFileSync(rootFile) : undefined));
}, 60_000);

afterAll(async () => {
  if (!hasCaddy) return;
  if (caddy && caddy.exitCode === null) {
    const exited = new Promise((resolve) => caddy!.once('exit', resolve));
    caddy.kill('SIGTERM');
    await exited;
  }
  await t.close();
  await fixture.close();
  await dns.close();
  fs.rmSync(workDir, { recursive: true, force: true });
});

describe.skipIf(!hasCaddy)('TLS edge (Caddy with on-demand TLS)', () => {
  it('gets a certificate for an active domain and serves its site over HTTPS', async () => {
    const owner = await signUp(t, 'pro');
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/domains/clone',
      payload: { sourceUrl: fixture.url },
      headers: owner.headers,
    });
    const site = created.json() as { id: string };
    await pollToEnd(t, site.id, owner.headers);

    dns.set('secure-shop.test', { SOA: true, A: [IPV4] });
    const deployed = await t.app.inject({
      method: 'POST',
      url: '/api/domains/deploy',
      payload: { siteId: site.id, domain: 'secure-shop.test', setupSSL: true },
      headers: owner.headers,
    });
    const txt = (deployed.json().records as { type: string; value: string }[]).find(
      (r) => r.type === 'TXT',
    )!.value;
    dns.set('_mirror-challenge.secure-shop.test', { TXT: [txt] });
    const checked = await t.app.inject({
      url: '/api/domains/check/secure-shop.test',
      headers: owner.headers,
    });
    expect(checked.json().status).toBe('active');

    const cert = await handshake('secure-shop.test');
    if (cert instanceof Error) throw new Error(`${cert.message}\n${caddyLog}`);
    expect(cert.subjectaltname).toContain('DNS:secure-shop.test');
    const page = await requestHttps('secure-shop.test', '/page-1.html');
    expect(page.status).toBe(200);
    expect(page.body).toContain('Version 1 /page-1.html');

    // A tenant's TLS name with a forged Host of the app's reaches the tenant, never the app's
    // metrics or internal routes; without the token the app answers no internal route either.
    for (const pathname of ['/metrics', '/api/internal/tls/ask?domain=secure-shop.test']) {
      const forged = await requestHttps('secure-shop.test', pathname, undefined, 'localhost');
      expect([pathname, forged.status]).toEqual([pathname, 404]);
      expect(forged.body).not.toMatch(/# HELP|^ok$/);
    }
    const direct = await t.app.inject({ url: '/api/internal/tls/ask?domain=secure-shop.test' });
    expect(direct.statusCode).toBe(401);
    const withToken = await t.app.inject({
      url: `/api/internal/tls/ask?domain=secure-shop.test&token=${TOKEN}`,
    });
    expect([withToken.statusCode, withToken.body]).toEqual([200, 'ok']);

    // A parked domain gets its certificate and page the same way.
    dns.set('secure-park.test', { SOA: true, A: [IPV4] });
    const parked = await t.app.inject({
      method: 'POST',
      url: '/api/domains/park',
      payload: { domain: 'secure-park.test', template: 'contact-form', language: 'en' },
      headers: owner.headers,
    });
    const parkTxt = (parked.json().records as { type: string; value: string }[]).find(
      (r) => r.type === 'TXT',
    )!.value;
    dns.set('_mirror-challenge.secure-park.test', { TXT: [parkTxt] });
    await t.app.inject({ url: '/api/domains/check/secure-park.test', headers: owner.headers });
    const parkedPage = await requestHttps('secure-park.test');
    expect(parkedPage.status).toBe(200);
    expect(parkedPage.body).toContain('<h1 class="domain" dir="ltr">secure-park.test</h1>');
    const sent = await requestHttps('secure-park.test', '/contact', {
      name: 'Visitor',
      email: 'visitor@example.com',
      message: 'Sent over HTTPS through the edge.',
    });
    expect(sent.status).toBe(303);
    expect(sent.headers.location).toBe('/?sent=contact#contact');
    const messages = await t.app.inject({
      url: `/api/domains/parked/${parked.json().id as string}/messages`,
      headers: owner.headers,
    });
    expect(messages.json()).toEqual([
      expect.objectContaining({ message: 'Sent over HTTPS through the edge.' }),
    ]);
  });

  it('gets no certificate for a name that is not an active domain', async () => {
    // Caddy aborts the handshake (alert 80, internal error): it has no certificate to present.
    const unknown = await handshake('unknown-name.test');
    expect((unknown as NodeJS.ErrnoException).code).toBe('ERR_SSL_TLSV1_ALERT_INTERNAL_ERROR');
    // Pending domains are refused too.
    const owner = await signUp(t, 'pro');
    dns.set('pending-park.test', { SOA: true });
    await t.app.inject({
      method: 'POST',
      url: '/api/domains/park',
      payload: { domain: 'pending-park.test' },
      headers: owner.headers,
    });
    const pending = await handshake('pending-park.test');
    expect((pending as NodeJS.ErrnoException).code).toBe('ERR_SSL_TLSV1_ALERT_INTERNAL_ERROR');
  });

  it('keeps deploy/Caddyfile valid, with on-demand TLS asking Mirror for customer domains', () => {
    const json = execFileSync(
      CADDY,
      ['adapt', '--config', PRODUCTION_CADDYFILE, '--adapter', 'caddyfile'],
      {
        env: {
          ...process.env,
          HOME: workDir,
          APP_DOMAIN: 'mirror.example.com',
          SITES_DOMAIN: 'mirror.site',
          ACME_EMAIL: 'ops@example.com',
          WILDCARD_CERT: '/etc/ssl/mirror/wildcard.crt',
          WILDCARD_KEY: '/etc/ssl/mirror/wildcard.key',
          METRICS_TOKEN: TOKEN,
        },
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    const config = JSON.parse(json) as {
      apps: {
        tls: {
          automation: {
            on_demand: { ask: string };
            policies: { on_demand?: boolean; subjects?: string[] }[];
          };
        };
      };
    };
    const automation = config.apps.tls.automation;
    expect(automation.on_demand.ask).toBe(
      `http://127.0.0.1:8080/api/internal/tls/ask?token=${TOKEN}`,
    );
    // Tenant blocks pass the TLS name on as the Host, whatever Host the client wrote.
    expect(json.match(/"Host":\["\{http\.request\.tls\.server_name\}"\]/g)).toHaveLength(2);
    expect(automation.policies.some((p) => p.on_demand === true && !p.subjects)).toBe(true);
    expect(json).toContain('*.mirror.site');
    expect(json).toContain('mirror.example.com');
  });
});
