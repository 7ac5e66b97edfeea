import { createHash } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import { PART_PICKER_SCRIPT } from '@mirror/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDnsServer, type TestDnsServer } from '../test/dns-server.js';
import { startFixtureSite, type FixtureSite } from '../test/fixture-site.js';
import { fromSite, mirrorSite, SERVICE_ENV, signUp } from '../test/api-helpers.js';
import { createTestApp, type TestApp } from '../test/test-app.js';

/**
 * What every answer of the app carries (CSP, nosniff, referrer policy, framing rules, no
 * X-Powered-By), that the API signs in with bearer tokens and sets no cookie at all, and that
 * tenant hosts (mirrored sites, parked pages, unknown names) get none of the app's headers.
 */

const IPV4 = '203.0.113.50';
/** The watch form's part picker, the one inline script the app allows (by its hash). */
const PICKER = `'sha256-${createHash('sha256').update(PART_PICKER_SCRIPT).digest('base64')}'`;
const cleanups: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** A built web app, as `npm run build` leaves it (an index and a hashed asset). */
function webBuild(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mirror-web-'));
  fs.mkdirSync(path.join(dir, 'assets'));
  fs.writeFileSync(
    path.join(dir, 'index.html'),
    '<!doctype html><title>Mirror</title><script type="module" src="/assets/app-1a2b.js"></script>',
  );
  fs.writeFileSync(path.join(dir, 'assets', 'app-1a2b.js'), 'console.log("app")');
  cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

async function start(env: Record<string, string> = {}): Promise<TestApp> {
  const t = await createTestApp({ WEB_DIST_DIR: webBuild(), ...env });
  cleanups.push(() => t.close());
  return t;
}

/** `default-src 'self'; img-src 'self' data:` → { 'default-src': ["'self'"], … } */
function directives(csp: string | undefined): Record<string, string[]> {
  expect(csp, 'a Content-Security-Policy header').toBeDefined();
  return Object.fromEntries(
    csp!
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((parts) => parts[0])
      .map(([name, ...values]) => [name!, values]),
  );
}

/** The app's answers of every kind: pages, assets, API data, API errors, the API docs. */
const APP_REQUESTS: { label: string; method?: 'GET' | 'POST'; url: string; payload?: string }[] = [
  { label: 'the SPA at /', url: '/' },
  { label: 'a client route', url: '/dashboard' },
  { label: 'a hashed asset', url: '/assets/app-1a2b.js' },
  { label: 'API data', url: '/api/health' },
  { label: 'API 401', url: '/api/auth/me' },
  { label: 'API 404', url: '/api/no-such-thing' },
  { label: 'API 400', method: 'POST', url: '/api/auth/login', payload: '{not json' },
  { label: 'API docs', url: '/api/docs/' },
];

async function appAnswers(t: TestApp): Promise<[string, LightMyRequestResponse][]> {
  const answers: [string, LightMyRequestResponse][] = [];
  for (const r of APP_REQUESTS) {
    const res = await t.app.inject({
      method: r.method ?? 'GET',
      url: r.url,
      ...(r.payload ? { payload: r.payload, headers: { 'content-type': 'application/json' } } : {}),
    });
    expect(res.statusCode, r.label).toBeLessThan(500);
    answers.push([r.label, res]);
  }
  return answers;
}

describe('security headers of the app', () => {
  it('sends CSP, nosniff, a referrer policy and framing rules on every answer, over http', async () => {
    const t = await start();
    for (const [label, res] of await appAnswers(t)) {
      const csp = directives(res.headers['content-security-policy'] as string);
      expect(csp['default-src'], label).toEqual(["'self'"]);
      // Scripts only from the app itself: no eval, no other host, and no inline script but the
      // part picker's, by its hash (it runs in a sandboxed frame of a page of the user's copy).
      expect(csp['script-src'], label).toEqual(["'self'", PICKER]);
      // That page's styles, images and fonts come from the sites domain.
      for (const kind of ['style-src', 'img-src', 'font-src'])
        expect(csp[kind], `${label} ${kind}`).toEqual(
          expect.arrayContaining(['http://*.localhost:*', 'https://*.localhost']),
        );
      expect(csp['object-src'], label).toEqual(["'none'"]);
      expect(csp['base-uri'], label).toEqual(["'self'"]);
      expect(csp['form-action'], label).toEqual(["'self'"]);
      expect(csp['frame-ancestors'], label).toEqual(["'self'"]);
      expect(csp['connect-src'], label).toEqual(["'self'"]);
      // Previews of the user's sites are framed from the sites domain, nothing else.
      expect(csp['frame-src'], label).toEqual([
        "'self'",
        'http://*.localhost:*',
        'https://*.localhost',
      ]);
      expect(csp['upgrade-insecure-requests'], label).toBeUndefined();
      expect(res.headers['x-content-type-options'], label).toBe('nosniff');
      expect(res.headers['referrer-policy'], label).toBe('no-referrer');
      expect(res.headers['x-frame-options'], label).toBe('SAMEORIGIN');
      expect(res.headers['cross-origin-opener-policy'], label).toBe('same-origin');
      expect(res.headers['x-powered-by'], label).toBeUndefined();
      expect(res.headers['server'], label).toBeUndefined();
      // HSTS on a plain-http origin would be ignored at best; it is sent with https only.
      expect(res.headers['strict-transport-security'], label).toBeUndefined();
    }
  });

  it('adds HSTS and upgrade-insecure-requests over https, and Stripe hosts only with Stripe', async () => {
    const t = await start({
      APP_URL: 'https://mirror.test',
      SITES_DOMAIN: 'sites.mirror.test',
      STRIPE_SECRET_KEY: 'sk_test_headers',
      STRIPE_PUBLISHABLE_KEY: 'pk_test_headers',
      STRIPE_WEBHOOK_SECRET: 'whsec_headers',
      STRIPE_PRICE_PRO: 'price_pro',
      STRIPE_PRICE_AGENCY: 'price_agency',
      // Never called here; a closed loopback port in case something tried.
      STRIPE_API_URL: 'http://127.0.0.1:9',
    });
    for (const [label, res] of await appAnswers(t)) {
      const csp = directives(res.headers['content-security-policy'] as string);
      expect(csp['upgrade-insecure-requests'], label).toEqual([]);
      expect(csp['script-src'], label).toEqual(["'self'", PICKER, 'https://js.stripe.com']);
      expect(csp['connect-src'], label).toEqual(["'self'", 'https://api.stripe.com']);
      expect(csp['frame-src'], label).toEqual([
        "'self'",
        'http://*.sites.mirror.test:*',
        'https://*.sites.mirror.test',
        'https://js.stripe.com',
        'https://hooks.stripe.com',
      ]);
      expect(res.headers['strict-transport-security'], label).toMatch(/^max-age=\d{7,}/);
    }
  });
});

describe('cookies and credentials', () => {
  it('signs in with bearer tokens only: no answer sets a cookie, and a cookie signs nobody in', async () => {
    const t = await start({ APP_URL: 'https://mirror.test', SITES_DOMAIN: 'sites.mirror.test' });
    const answers: LightMyRequestResponse[] = (await appAnswers(t)).map(([, res]) => res);
    const email = 'cookie-free@example.com';
    const call = async (
      method: 'GET' | 'POST' | 'PUT',
      url: string,
      payload?: object,
      headers: Record<string, string> = {},
    ) => {
      const res = await t.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
      answers.push(res);
      return res;
    };
    const registered = await call('POST', '/api/auth/register', {
      name: 'No Cookies',
      email,
      password: 'a long password',
    });
    expect(registered.statusCode).toBe(201);
    const token = registered.json().token as string;
    const bearer = { authorization: `Bearer ${token}` };
    const login = await call('POST', '/api/auth/login', { email, password: 'a long password' });
    expect(login.statusCode).toBe(200);
    await call('POST', '/api/auth/login', { email, password: 'a wrong password' });
    await call('GET', '/api/auth/me', undefined, bearer);
    await call('PUT', '/api/auth/me', { name: 'Still none' }, bearer);
    await call('POST', '/api/auth/reset-password', { email });
    await call('GET', '/api/payments/subscription', undefined, bearer);
    await call('POST', '/api/domains/clone', { sourceUrl: 'not a url' });
    await call('POST', '/api/auth/logout', undefined, {
      authorization: `Bearer ${login.json().token}`,
    });

    const cookies = answers.flatMap((res) => [res.headers['set-cookie'] ?? []].flat());
    // If a cookie is ever added it must be HttpOnly; Secure; SameSite: update this test with it.
    expect(cookies, 'the app sets no cookies').toEqual([]);
    expect(answers.length).toBeGreaterThan(15);

    // The token works as a bearer header, and nowhere else (no cookie, no query parameter).
    expect((await call('GET', '/api/auth/me', undefined, bearer)).statusCode).toBe(200);
    for (const headers of [{ cookie: `token=${token}` }, { cookie: `session=${token}` }]) {
      expect((await call('GET', '/api/auth/me', undefined, headers)).statusCode).toBe(401);
    }
    expect((await call('GET', `/api/auth/me?token=${token}`)).statusCode).toBe(401);
  });

  it('lets no other site call the API with credentials (no CORS)', async () => {
    const t = await start();
    const user = await signUp(t);
    const res = await t.app.inject({
      url: '/api/auth/me',
      headers: { ...user.headers, origin: 'https://evil.example' },
    });
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
    expect(res.headers['access-control-allow-credentials']).toBeUndefined();
    const preflight = await t.app.inject({
      method: 'OPTIONS',
      url: '/api/auth/me',
      headers: {
        origin: 'https://evil.example',
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'authorization',
      },
    });
    expect(preflight.statusCode).toBe(404);
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe('tenant hosts', () => {
  let dns: TestDnsServer;
  let fixture: FixtureSite;
  let t: TestApp;
  let previewUrl: string;
  let appCsp: string;

  beforeAll(async () => {
    dns = await startDnsServer();
    fixture = await startFixtureSite();
    cleanups.push(
      () => dns.close(),
      () => fixture.close(),
    );
    t = await start({
      ...SERVICE_ENV,
      DNS_SERVERS: dns.address,
      DNS_TIMEOUT_MS: '1000',
      SITES_DOMAIN: 'sites.mirror.test',
      SITES_CNAME_TARGET: 'edge.mirror.test',
      SITES_IPV4: IPV4,
    });
    appCsp = (await t.app.inject({ url: '/api/health' })).headers[
      'content-security-policy'
    ] as string;
    const owner = await signUp(t, 'pro');
    const mirrored = await mirrorSite(t, fixture.url, owner.headers);
    previewUrl = mirrored.previewUrl;
    expect(mirrored.readings.at(-1)!.status).toBe('completed');

    // An active parked domain with a contact form.
    dns.set('quiet-park.test', { SOA: true });
    const parked = await t.app.inject({
      method: 'POST',
      url: '/api/domains/park',
      headers: owner.headers,
      payload: { domain: 'quiet-park.test', template: 'contact-form' },
    });
    expect(parked.statusCode).toBe(201);
    dns.set('quiet-park.test', { A: [IPV4] });
    dns.set('_mirror-challenge.quiet-park.test', {
      TXT: [
        (parked.json().records as { type: string; value: string }[]).find((r) => r.type === 'TXT')!
          .value,
      ],
    });
    const checked = await t.app.inject({
      url: '/api/domains/check/quiet-park.test',
      headers: owner.headers,
    });
    expect(checked.json().status).toBe('active');
  });

  function expectNoAppHeaders(
    label: string,
    res: { headers: Record<string, string | string[] | number | undefined> },
  ) {
    expect(res.headers['set-cookie'], label).toBeUndefined();
    expect(res.headers['content-security-policy'], label).not.toBe(appCsp);
    expect(res.headers['x-request-id'], label).toBeUndefined();
    // A parked page sends its own (DENY); the app's SAMEORIGIN never appears.
    expect(res.headers['x-frame-options'], label).not.toBe('SAMEORIGIN');
    expect(res.headers['x-powered-by'], label).toBeUndefined();
    expect(res.headers['x-content-type-options'], label).toBe('nosniff');
  }

  it('answer without the app’s CSP, cookies or request ids: sites, parked pages, unknown names', async () => {
    const site = new URL(previewUrl).host;
    const answers: [string, LightMyRequestResponse][] = [
      ['a mirrored page', await fromSite(t, previewUrl)],
      ['a mirrored asset', await fromSite(t, previewUrl, '/style.css')],
      ['a missing page', await fromSite(t, previewUrl, '/missing.html')],
      ['the API path on a site', await fromSite(t, previewUrl, '/api/health')],
      [
        'the API with a token on a site',
        await t.app.inject({
          url: '/api/auth/me',
          headers: { host: site, authorization: 'Bearer x'.padEnd(40, 'x') },
        }),
      ],
      ['a parked page', await t.app.inject({ url: '/', headers: { host: 'quiet-park.test' } })],
      [
        'a parked contact form post',
        await t.app.inject({
          method: 'POST',
          url: '/contact',
          headers: {
            host: 'quiet-park.test',
            'content-type': 'application/x-www-form-urlencoded',
          },
          payload: 'name=Ada&email=ada%40example.com&message=Hello',
        }),
      ],
      [
        'an unknown name',
        await t.app.inject({ url: '/', headers: { host: 'nobody.sites.mirror.test' } }),
      ],
    ];
    expect(answers.map(([, res]) => res.statusCode)).toEqual([
      200, 200, 404, 404, 404, 200, 303, 404,
    ]);
    for (const [label, res] of answers) expectNoAppHeaders(label, res);
  });

  it('does the same on a real socket, where the sites front answers before Fastify', async () => {
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const port = (t.app.server.address() as AddressInfo).port;
    expect(address).toContain('127.0.0.1');
    const get = (host: string, pathname = '/') =>
      new Promise<http.IncomingMessage>((resolve, reject) => {
        const req = http.request({ host: '127.0.0.1', port, path: pathname, headers: { host } });
        req.on('response', (res) => {
          res.resume();
          res.on('end', () => resolve(res));
        });
        req.on('error', reject);
        req.setTimeout(5_000, () => req.destroy(new Error('timed out')));
        req.end();
      });
    const site = await get(new URL(previewUrl).host);
    expect(site.statusCode).toBe(200);
    expectNoAppHeaders('a mirrored page', site);
    const parked = await get('quiet-park.test');
    expect(parked.statusCode).toBe(200);
    expectNoAppHeaders('a parked page', parked);
    const app = await get(`localhost:${port}`, '/api/health');
    expect(app.statusCode).toBe(200);
    expect(app.headers['content-security-policy']).toBe(appCsp);
  });
});
