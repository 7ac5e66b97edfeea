import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { SCREENSHOT_MESSAGES, SITE_MESSAGES } from '@mirror/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pollToEnd, signUp, type SignedUp, type StatusReading } from '../test/api-helpers.js';
import { createTestApp, type TestApp } from '../test/test-app.js';
import { expectErrorShape } from '../test/hostile-helpers.js';

/**
 * Hostile input, part 3: server-side request forgery through the API. With the production address
 * policy (MIRROR_ALLOW_PRIVATE_NETWORKS unset), every entry point that makes the server fetch an
 * address a user typed — a visitor's demo mirror, a user's mirror, a mirror for an AI rewrite, a
 * screenshot — is given a table of addresses that point back inside: loopback in every spelling,
 * private ranges, cloud metadata, CGNAT, IPv6 local ranges, names that resolve to loopback, other
 * schemes, credentials, odd ports.
 *
 * Each is refused: either at once with a clear 400, or — the mirror resolves the host when the job
 * runs — the run fails with a clear "Refused …" error. A recording server on 127.0.0.1 proves that
 * nothing reached it; the same addresses with private networks allowed do reach it (the control),
 * so the zero is not an accident of the test.
 *
 * Not covered here: a public page that redirects to a private address. That needs a public address,
 * which a loopback-only test cannot have; the engine's http-client tests (redirects re-checked on
 * every hop, with a resolver seam) and the screenshot service's tests cover it.
 */

interface Recorder {
  port: number;
  hits: string[];
  close(): Promise<void>;
}

/** A small website on 127.0.0.1 that records every request it gets. */
async function startRecorder(): Promise<Recorder> {
  const hits: string[] = [];
  const server = http.createServer((req, res) => {
    hits.push(`${req.method} ${req.headers.host} ${req.url}`);
    if (req.url === '/robots.txt') return res.writeHead(404).end();
    res
      .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
      .end('<!doctype html><title>Internal</title><h1>internal secret</h1>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    hits,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

let recorder: Recorder;
let t: TestApp;
let user: SignedUp;

/** Addresses that must never be fetched. `P` is the recording server's port. */
function addresses(P: number): string[] {
  return [
    // Loopback, in every spelling a URL parser accepts.
    `http://127.0.0.1:${P}/`,
    `http://localhost:${P}/`,
    `http://LOCALHOST:${P}/admin`,
    `  http://127.0.0.1:${P}/  `,
    `127.0.0.1:${P}`,
    `http://127.1:${P}/`,
    `http://127.0.0.2:${P}/`,
    `http://2130706433:${P}/`,
    `http://0x7f.1:${P}/`,
    `http://0x7f000001:${P}/`,
    `http://017700000001:${P}/`,
    `http://0177.0.0.1:${P}/`,
    `http://１２７.０.０.１:${P}/`,
    `http://0.0.0.0:${P}/`,
    `http://0:${P}/`,
    `http://[::1]:${P}/`,
    `http://[::]:${P}/`,
    `http://[::ffff:127.0.0.1]:${P}/`,
    `http://[0:0:0:0:0:ffff:7f00:1]:${P}/`,
    `http://[::127.0.0.1]:${P}/`,
    // A name that resolves to loopback (or to nothing): refused either way, never fetched.
    `http://something.localhost:${P}/`,
    `http://localhost.:${P}/`,
    // Credentials and fragments that try to hide the host.
    `http://user:pass@127.0.0.1:${P}/`,
    `http://example.com@127.0.0.1:${P}/`,
    `http://127.0.0.1:${P}/#@example.com`,
    `http://127.0.0.1:${P}\\@example.com/`,
    // Other ports of the same host: databases, SSH.
    `http://127.0.0.1:22/`,
    `http://127.0.0.1:6379/`,
    `http://127.0.0.1:5432/`,
    `https://127.0.0.1:${P}/`,
    // Private ranges (RFC 1918), CGNAT, link-local and cloud metadata.
    'http://10.0.0.1/',
    'http://10.255.255.254:8080/',
    'http://172.16.0.1/',
    'http://172.31.255.254/',
    'http://192.168.0.1/',
    'http://192.168.1.1:8443/',
    'http://100.64.0.1/',
    'http://100.127.255.254/',
    'http://169.254.169.254/latest/meta-data/iam/security-credentials/',
    'http://169.254.169.254/computeMetadata/v1/',
    'http://metadata.google.internal/computeMetadata/v1/',
    'http://[fd00:ec2::254]/latest/meta-data/',
    'http://[::ffff:169.254.169.254]/',
    // IPv6 local ranges: unique local (fc00::/7), link-local (fe80::/10), with a zone.
    'http://[fc00::1]/',
    'http://[fd12:3456:789a::1]/',
    'http://[fe80::1]/',
    'http://[fe80::1%25eth0]/',
    // Schemes other than http(s).
    `file:///etc/passwd`,
    `file://localhost/etc/passwd`,
    `ftp://127.0.0.1:${P}/`,
    `gopher://127.0.0.1:${P}/_GET%20/`,
    `dict://127.0.0.1:${P}/info`,
    `ws://127.0.0.1:${P}/`,
    'javascript:alert(document.domain)',
    'data:text/html,<h1>hi</h1>',
    `jar:http://127.0.0.1:${P}/x.jar!/`,
  ];
}

/** What a refused mirror run may say: the policy's refusal, or no address at all for the name. */
const REFUSED_RUN =
  /^(Refused address: .+|Only http and https addresses can be mirrored.*|Cannot reach .+: no such host\.?)$/;

beforeAll(async () => {
  recorder = await startRecorder();
  // The production policy: MIRROR_ALLOW_PRIVATE_NETWORKS is not set. Limits raised so that every
  // row of the table is judged by the address policy, not by a rate limit.
  t = await createTestApp({
    MIRROR_RENDER: 'never',
    RATE_LIMIT_FACTOR: '1000',
    // A model is connected (never reached: every mirror is refused first), so rewrites are offered.
    AI_BASE_URL: 'http://127.0.0.1:9/v1',
    AI_MODEL: 'test-model',
  });
  expect(t.config.mirror.allowPrivateNetworks).toBe(false);
  user = await signUp(t, 'agency');
}, 30_000);

afterAll(async () => {
  await t?.close();
  await recorder?.close();
});

type Caller = 'visitor demo' | 'user mirror' | 'AI rewrite';

async function startMirror(caller: Caller, sourceUrl: string) {
  if (caller === 'AI rewrite') {
    return t.app.inject({
      method: 'POST',
      url: '/api/domains/clone-with-ai',
      headers: user.headers,
      payload: { sourceUrl, originalIdea: 'a bakery in Lisbon', rewriteWithAI: true },
    });
  }
  return t.app.inject({
    method: 'POST',
    url: '/api/domains/clone',
    headers: caller === 'visitor demo' ? {} : user.headers,
    payload: { sourceUrl, ...(caller === 'visitor demo' ? { isDemo: true } : {}) },
  });
}

describe('SSRF through the API (private networks refused, as in production)', () => {
  it('refuses every internal address as a mirror source: at once, or as a failed run that fetched nothing', async () => {
    const runs: { caller: Caller; url: string; id: string; headers: Record<string, string> }[] = [];
    let refusedAtOnce = 0;
    for (const url of addresses(recorder.port)) {
      for (const caller of ['visitor demo', 'user mirror', 'AI rewrite'] as const) {
        const res = await startMirror(caller, url);
        const context = `${caller}: ${url}`;
        if (res.statusCode === 400) {
          expectErrorShape(res, context);
          expect([SITE_MESSAGES.urlInvalid, SITE_MESSAGES.privateAddress], context).toContain(
            res.json().message,
          );
          if (res.json().message === SITE_MESSAGES.privateAddress) refusedAtOnce++;
          continue;
        }
        expect([201, 202], `${context} → ${res.statusCode} ${res.body}`).toContain(res.statusCode);
        runs.push({
          caller,
          url,
          id: res.json().id as string,
          headers: caller === 'visitor demo' ? {} : user.headers,
        });
      }
    }
    // Addresses that resolve to internal ones are refused before anything is stored; names that
    // do not resolve at all here are left to the run, which refuses them when it resolves them.
    expect(refusedAtOnce).toBeGreaterThan(60);
    expect(
      runs.every((run) =>
        /something\.localhost|localhost\.:|metadata\.google\.internal/.test(run.url),
      ),
    ).toBe(true);

    const endings = await Promise.all(
      runs.map(async (run) => {
        const readings: StatusReading[] = await pollToEnd(t, run.id, run.headers);
        return { run, last: readings[readings.length - 1]! };
      }),
    );
    for (const { run, last } of endings) {
      const context = `${run.caller}: ${run.url} → ${JSON.stringify(last)}`;
      expect(last.status, context).toBe('failed');
      expect(last.error, context).toMatch(REFUSED_RUN);
      // Addresses the policy can classify are refused by it, by name, with the reason.
      if (!/something\.localhost|localhost\.:|metadata\.google\.internal/.test(run.url)) {
        expect(last.error, context).toMatch(/^Refused address: /);
      }
      // Nothing of the run is served: no version was published.
      const versions = await t.app.inject({
        url: `/api/domains/clone/${run.id}/versions`,
        headers: user.headers,
      });
      if (run.caller !== 'visitor demo') {
        expect(
          (versions.json() as { status: string }[]).every((v) => v.status !== 'completed'),
          context,
        ).toBe(true);
      }
    }
    expect(recorder.hits).toEqual([]);
  }, 90_000);

  it('refuses every internal address as a screenshot, with a clear 400 and without starting Chromium', async () => {
    // The mirror runs of the test before have all ended: any sandbox started now is a screenshot's.
    await expect.poll(() => t.app.sandbox.active).toBe(0);
    const started = t.app.sandbox.started;
    for (const url of addresses(recorder.port)) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/domains/screenshot',
        headers: user.headers,
        payload: { url },
      });
      const context = `${url} → ${res.statusCode} ${res.body}`;
      expect(res.statusCode, context).toBe(400);
      expectErrorShape(res, context);
      expect(
        [SCREENSHOT_MESSAGES.refused, SCREENSHOT_MESSAGES.urlInvalid, SCREENSHOT_MESSAGES.notFound],
        context,
      ).toContain(res.json().message);
    }
    expect(t.app.sandbox.started).toBe(started);
    expect(recorder.hits).toEqual([]);
  });

  it('control: with private networks allowed, the same spellings do reach the recording server', async () => {
    const open = await createTestApp({
      MIRROR_ALLOW_PRIVATE_NETWORKS: 'true',
      MIRROR_RENDER: 'never',
      RATE_LIMIT_FACTOR: '1000',
    });
    try {
      const owner = await signUp(open, 'agency');
      const P = recorder.port;
      for (const url of [
        `http://127.0.0.1:${P}/`,
        `http://2130706433:${P}/`,
        `http://0x7f.1:${P}/`,
        `http://017700000001:${P}/`,
        `http://user:pass@127.0.0.1:${P}/`,
      ]) {
        const before = recorder.hits.length;
        const res = await open.app.inject({
          method: 'POST',
          url: '/api/domains/clone',
          headers: owner.headers,
          payload: { sourceUrl: url },
        });
        expect(res.statusCode, url).toBe(201);
        const readings = await pollToEnd(open, res.json().id as string, owner.headers);
        expect(readings[readings.length - 1]!.status, url).toBe('completed');
        expect(recorder.hits.length, url).toBeGreaterThan(before);
      }
    } finally {
      await open.close();
      recorder.hits.length = 0;
    }
  }, 60_000);
});
