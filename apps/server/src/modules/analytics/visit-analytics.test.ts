import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startDnsServer, type TestDnsServer } from '../../test/dns-server.js';
import { startFixtureSite } from '../../test/fixture-site.js';
import { mirrorSite, SERVICE_ENV, signUp, type SignedUp } from '../../test/api-helpers.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { VISITORS_PER_ADDRESS } from './visitor-rules.js';

// The whole path: a mirrored site served by the app's own HTTP listener (as in production),
// visited over real connections from several loopback addresses, counted, written when the
// process closes, and read back through the API by a new process on the same database.

const IPV4 = '203.0.113.20';
const CHROME =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36';
const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:127.0) Gecko/20100101 Firefox/127.0';
const GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/** A GET (or HEAD) over a fresh connection from `from` (a loopback address) with this Host. */
function visit(
  port: number,
  url: string,
  options: { from?: string; headers?: Record<string, string>; method?: string } = {},
): Promise<Answer> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        path: `${target.pathname}${target.search}`,
        method: options.method ?? 'GET',
        localAddress: options.from ?? '127.0.0.1',
        headers: { host: target.host, ...options.headers },
        agent: false,
      },
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

async function start(env: Record<string, string> = {}) {
  const t = await createTestApp({ ...SERVICE_ENV, ...env });
  cleanups.push(() => t.close());
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  return { t, port: (t.app.server.address() as AddressInfo).port };
}

/** Closes the app (its counts are written) and opens another process on the same data. */
async function reopen(t: TestApp): Promise<TestApp> {
  await t.app.close();
  const next = await createTestApp({
    ...SERVICE_ENV,
    DATA_DIR: t.config.dataDir,
    ...(t.config.database.kind === 'postgres'
      ? { DATABASE_SCHEMA: t.config.database.schema! }
      : {}),
  });
  cleanups.push(() => next.app.close());
  return next;
}

function api(t: TestApp, owner: SignedUp, url: string) {
  return t.app.inject({ url, headers: owner.headers });
}

describe('visit analytics', () => {
  it('counts people once a day, leaves out bots and the owner’s preview, and counts bytes sent', async () => {
    const fixture = await startFixtureSite();
    cleanups.push(() => fixture.close());
    const { t, port } = await start();
    const owner = await signUp(t);
    const { id, previewUrl } = await mirrorSite(t, fixture.url, owner.headers);
    const record = (await api(t, owner, `/api/domains/clone/${id}`)).json() as {
      ownerPreviewUrl: string;
    };
    const site = (path: string) => new URL(path, previewUrl).href;
    const chrome = { 'user-agent': CHROME };

    // Visitor A arrives from a news site, reads a second page, its style, and comes back later.
    const home = await visit(port, site('/'), {
      headers: { ...chrome, referer: 'https://www.news.example/story?id=7' },
    });
    expect(home.status).toBe(200);
    const page1 = await visit(port, site('/page-1.html'), {
      headers: { ...chrome, referer: site('/') },
    });
    const css = await visit(port, site('/style.css'), {
      headers: { ...chrome, referer: site('/page-1.html') },
    });
    const again = await visit(port, site('/'), {
      headers: { ...chrome, 'if-none-match': home.headers.etag! },
    });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    // Visitor B: another address and browser, from a search engine.
    const b = await visit(port, site('/page-1.html'), {
      from: '127.0.0.2',
      headers: { 'user-agent': FIREFOX, referer: 'https://search.example/?q=fixture' },
    });
    // A crawler and a script: served, but nobody visited.
    const bot = await visit(port, site('/'), {
      from: '127.0.0.3',
      headers: { 'user-agent': GOOGLEBOT },
    });
    const script = await visit(port, site('/page-2.html'), { from: '127.0.0.3' });
    expect([bot.status, script.status]).toEqual([200, 200]);
    await visit(port, site('/'), { method: 'HEAD', headers: chrome });

    // The owner's site page frames the live version on its preview host: never counted.
    expect(new URL(record.ownerPreviewUrl).host).not.toBe(new URL(previewUrl).host);
    const preview = await visit(port, new URL('/', record.ownerPreviewUrl).href, {
      from: '127.0.0.4',
      headers: { 'user-agent': FIREFOX },
    });
    expect(preview.status).toBe(200);
    expect(preview.body.equals(home.body)).toBe(true);
    await visit(port, new URL('/page-1.html', record.ownerPreviewUrl).href, {
      from: '127.0.0.4',
      headers: { 'user-agent': FIREFOX },
    });

    const later = await reopen(t);
    const res = await api(later, owner, `/api/domains/${id}/analytics?period=7d`);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    const sent = [home, page1, css, b, bot, script].reduce((n, a) => n + a.body.length, 0);
    expect(body.totals).toEqual({
      visits: 2, // A's session (from news, back a moment later), B's (from search)
      pageViews: 4, // the 304 is a page view; the bot's, the script's and the preview's are not
      uniqueVisitors: 2,
      bytes: sent, // what was sent: nothing for the 304, the HEAD or the preview
      botViews: 2,
    });
    expect(body.days).toHaveLength(7);
    expect(body.days.at(-1)).toMatchObject({
      visits: 2,
      pageViews: 4,
      uniqueVisitors: 2,
      bytes: sent,
    });
    expect(body.topPages).toEqual([
      { path: '/', views: 2 },
      { path: '/page-1.html', views: 2 },
    ]);
    // B never loaded a file of the page it arrived on: its referrer is not listed (issue 30).
    expect(body.topReferrers).toEqual([{ host: 'news.example', visits: 1 }]);

    const usage = (await api(later, owner, '/api/payments/usage')).json();
    expect(usage).toMatchObject({
      pageViews: 4,
      visitors: 2,
      bandwidthBytes: sent,
      parked: { visitors: 0, pageViews: 0 },
    });
  });

  it('counts an address as a few visitors at most, an IPv6 /64 as one address, and lists only referrers whose visit loaded the page’s files', async () => {
    const fixture = await startFixtureSite();
    cleanups.push(() => fixture.close());
    // Behind a proxy (TRUST_PROXY): the visitor's address is the X-Forwarded-For entry.
    const { t, port } = await start({ TRUST_PROXY: 'true' });
    const owner = await signUp(t);
    const { id, previewUrl } = await mirrorSite(t, fixture.url, owner.headers);
    const site = (path: string) => new URL(path, previewUrl).href;
    const from = (address: string, userAgent: string, referer?: string) => ({
      headers: {
        'x-forwarded-for': address,
        'user-agent': userAgent,
        ...(referer ? { referer } : {}),
      },
    });

    // One address, 50 made-up browsers.
    for (let i = 0; i < 50; i++) {
      const ua = CHROME.replace('126.0.0.0', `126.0.0.${i}`);
      expect((await visit(port, site('/'), from('198.51.100.7', ua))).status).toBe(200);
    }
    // 20 addresses of one IPv6 /64, then one of the next /64.
    for (let i = 1; i <= 20; i++) {
      await visit(port, site('/'), from(`2001:db8:1:2::${i.toString(16)}`, FIREFOX));
    }
    await visit(port, site('/'), from('2001:db8:1:3::1', FIREFOX));
    // 30 page loads carrying a Referer, that never load the page's files.
    for (let i = 0; i < 30; i++) {
      await visit(port, site('/'), from('198.51.100.8', CHROME, `https://spam${i % 3}.example/`));
    }
    // A person from a news site: the page, then its style sheet.
    await visit(port, site('/'), from('198.51.100.9', FIREFOX, 'https://www.news.example/x'));
    const css = await visit(port, site('/style.css'), from('198.51.100.9', FIREFOX, site('/')));
    expect(css.status).toBe(200);

    const later = await reopen(t);
    const body = (await api(later, owner, `/api/domains/${id}/analytics`)).json();
    // A visit is a session of one visitor (issue 31): 4 + 1 + 1 + 1 + 1, as the visitors below.
    expect(body.totals).toMatchObject({ pageViews: 102, visits: 8 });
    // Four for the 50 browsers on one address (VISITORS_PER_ADDRESS), one per /64, one each for
    // the two other addresses. Before: 50 + 20 + 1 + 1 + 1 = 73.
    expect(body.totals.uniqueVisitors).toBe(VISITORS_PER_ADDRESS + 4);
    expect(body.topReferrers).toEqual([{ host: 'news.example', visits: 1 }]);
  }, 60_000);

  it('counts a returning visitor once, and a new one on another address', async () => {
    const fixture = await startFixtureSite();
    cleanups.push(() => fixture.close());
    const { t, port } = await start();
    const owner = await signUp(t);
    const { id, previewUrl } = await mirrorSite(t, fixture.url, owner.headers);
    for (let i = 0; i < 3; i++) {
      await visit(port, new URL(`/page-${i + 1}.html`, previewUrl).href, {
        headers: { 'user-agent': CHROME },
      });
    }
    // The same address with another browser is another person too.
    await visit(port, previewUrl, { headers: { 'user-agent': FIREFOX } });
    await visit(port, previewUrl, { from: '127.0.0.9', headers: { 'user-agent': CHROME } });
    const later = await reopen(t);
    const { totals } = (await api(later, owner, `/api/domains/${id}/analytics`)).json();
    expect(totals).toMatchObject({ pageViews: 5, uniqueVisitors: 3 });
    expect(totals.pageViews).toBeGreaterThan(totals.uniqueVisitors);
  });
});

describe('parked page visits', () => {
  let dns: TestDnsServer;
  afterEach(async () => dns?.close());

  it('counts people on a parked domain’s page, not bots, shown on the domain and in usage', async () => {
    dns = await startDnsServer();
    const { t, port } = await start({
      DNS_SERVERS: dns.address,
      DNS_TIMEOUT_MS: '1000',
      SITES_DOMAIN: 'sites.mirror.test',
      SITES_CNAME_TARGET: 'edge.mirror.test',
      SITES_IPV4: IPV4,
    });
    const owner = await signUp(t, 'pro');
    const domain = 'visited-park.test';
    dns.set(domain, { SOA: true });
    const parked = (
      await t.app.inject({
        method: 'POST',
        url: '/api/domains/park',
        payload: { domain, template: 'default' },
        headers: owner.headers,
      })
    ).json() as { id: string; records: { type: string; value: string }[] };
    dns.set(domain, { A: [IPV4] });
    dns.set(`_mirror-challenge.${domain}`, {
      TXT: [parked.records.find((r) => r.type === 'TXT')!.value],
    });
    const checked = await api(t, owner, `/api/domains/check/${domain}`);
    expect(checked.json()).toMatchObject({ status: 'active' });

    const page = `http://${domain}/`;
    expect((await visit(port, page, { headers: { 'user-agent': CHROME } })).status).toBe(200);
    await visit(port, page, { headers: { 'user-agent': CHROME } });
    await visit(port, page, { from: '127.0.0.2', headers: { 'user-agent': FIREFOX } });
    await visit(port, page, { headers: { 'user-agent': GOOGLEBOT } });
    await visit(port, `http://${domain}/robots.txt`, { headers: { 'user-agent': CHROME } });

    const later = await reopen(t);
    const listed = (await api(later, owner, '/api/domains/parked')).json() as {
      id: string;
      visits: unknown;
    }[];
    expect(listed.find((d) => d.id === parked.id)?.visits).toEqual({ visitors: 2, pageViews: 3 });
    const usage = (await api(later, owner, '/api/payments/usage')).json();
    expect(usage.parked).toEqual({ visitors: 2, pageViews: 3 });
  });
});
