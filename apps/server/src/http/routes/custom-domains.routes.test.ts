import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDnsServer, type TestDnsServer } from '../../test/dns-server.js';
import { startFixtureSite, type FixtureSite } from '../../test/fixture-site.js';
import {
  fromSite,
  mirrorSite,
  SERVICE_ENV,
  type SignedUp,
  signUp,
} from '../../test/api-helpers.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';

const EDGE = 'edge.mirror.test';
const IPV4 = '203.0.113.10';
const IPV6 = '2001:db8::10';

let dns: TestDnsServer;
let fixture: FixtureSite;
let t: TestApp;

beforeAll(async () => {
  dns = await startDnsServer();
  fixture = await startFixtureSite();
  t = await createTestApp({
    ...SERVICE_ENV,
    DNS_SERVERS: dns.address,
    DNS_TIMEOUT_MS: '1000',
    SITES_DOMAIN: 'sites.mirror.test',
    SITES_CNAME_TARGET: EDGE,
    SITES_IPV4: IPV4,
    SITES_IPV6: IPV6,
  });
  dns.set(EDGE, { A: [IPV4], AAAA: [IPV6] });
});

afterAll(async () => {
  await t.close();
  await fixture.close();
  await dns.close();
});

/** A paid user with one mirrored site. */
async function ownerWithSite(plan: 'pro' | 'agency' = 'pro') {
  const owner = await signUp(t, plan);
  const site = await mirrorSite(t, fixture.url, owner.headers);
  expect(site.readings.at(-1)!.status).toBe('completed');
  return { owner, site };
}

function deploy(owner: SignedUp, payload: Record<string, unknown>) {
  return t.app.inject({
    method: 'POST',
    url: '/api/domains/deploy',
    payload,
    headers: owner.headers,
  });
}

async function check(owner: SignedUp, domain: string) {
  const res = await t.app.inject({ url: `/api/domains/check/${domain}`, headers: owner.headers });
  expect(res.statusCode).toBe(200);
  return res.json() as {
    status: string;
    problem: string | null;
    reason: string | null;
    records: { type: string; name: string; host: string; value: string; status: string }[];
  };
}

const byHost = (host: string, path = '/') => t.app.inject({ url: path, headers: { host } });
const ask = (domain: string) =>
  t.app.inject({ url: `/api/internal/tls/ask?domain=${encodeURIComponent(domain)}` });

interface Deployed {
  id: string;
  domain: string;
  status: string;
  isApex: boolean;
  url: string;
  records: { type: string; name: string; host: string; value: string; purpose: string }[];
}

function txtOf(deployed: Deployed): string {
  return deployed.records.find((r) => r.type === 'TXT')!.value;
}

describe('custom domains', () => {
  it('activates a subdomain whose CNAME points at us and serves the site by its Host', async () => {
    dns.set('shop-one.test', { SOA: true });
    const { owner, site } = await ownerWithSite();
    const res = await deploy(owner, {
      siteId: site.id,
      domain: ' Shop.Shop-One.test ',
      setupSSL: true,
    });
    expect(res.statusCode).toBe(201);
    const deployed = res.json() as Deployed;
    expect(deployed).toMatchObject({
      domain: 'shop.shop-one.test',
      status: 'pending',
      isApex: false,
    });
    expect(deployed.records).toEqual([
      expect.objectContaining({
        type: 'CNAME',
        name: 'shop',
        host: 'shop.shop-one.test',
        value: EDGE,
      }),
      expect.objectContaining({
        type: 'TXT',
        name: '_mirror-challenge.shop',
        host: '_mirror-challenge.shop.shop-one.test',
        value: expect.stringMatching(/^mirror-verification=[0-9a-f]{32}$/),
      }),
    ]);
    // Not served and no certificate before verification.
    expect((await byHost('shop.shop-one.test')).body).toContain('No site here');
    expect((await ask('shop.shop-one.test')).statusCode).toBe(404);

    // Nothing in DNS yet: pending.
    const nothing = await check(owner, 'shop.shop-one.test');
    expect(nothing).toMatchObject({ status: 'pending', problem: 'records_missing' });

    dns.set('shop.shop-one.test', { CNAME: EDGE });
    dns.set('_mirror-challenge.shop.shop-one.test', { TXT: [txtOf(deployed)] });
    const checked = await check(owner, 'shop.shop-one.test');
    expect(checked).toMatchObject({ status: 'active', problem: null, reason: null });
    expect(checked.records.map((r) => r.status)).toEqual(['ok', 'ok']);

    const viaDomain = await byHost('shop.shop-one.test', '/page-1.html');
    const viaSubdomain = await fromSite(t, site.previewUrl, '/page-1.html');
    expect(viaDomain.statusCode).toBe(200);
    expect(viaDomain.body).toBe(viaSubdomain.body);
    expect(viaDomain.body).toContain('Version 1 /page-1.html');
    expect(viaDomain.headers['x-content-type-options']).toBe('nosniff');
    expect((await ask('shop.shop-one.test')).statusCode).toBe(200);
    expect((await ask('SHOP.shop-one.test.')).statusCode).toBe(200);

    // The app keeps answering on its own host.
    expect((await t.app.inject({ url: '/api/health' })).statusCode).toBe(200);

    // Listed with the sites.
    const overview = (await t.app.inject({ url: '/api/domains', headers: owner.headers })).json();
    expect(overview.sites).toHaveLength(1);
    expect(overview.domains).toEqual([
      expect.objectContaining({
        id: deployed.id,
        kind: 'custom',
        status: 'active',
        siteId: site.id,
      }),
    ]);
    expect(overview.customDomains[0]).toMatchObject({ id: deployed.id, status: 'active' });
    expect(overview.parkedDomains).toEqual([]);
  });

  it('activates an apex with A records to our addresses and redirects its www as chosen', async () => {
    dns.set('apex-two.test', { SOA: true });
    const { owner, site } = await ownerWithSite();
    const deployed = (
      await deploy(owner, { siteId: site.id, domain: 'apex-two.test' })
    ).json() as Deployed;
    expect(deployed.isApex).toBe(true);
    expect(deployed.records.map((r) => [r.type, r.name, r.value, r.purpose])).toEqual([
      ['A', '@', IPV4, 'routing'],
      ['AAAA', '@', IPV6, 'routing'],
      ['CNAME', 'www', EDGE, 'www'],
      ['TXT', '_mirror-challenge', txtOf(deployed), 'ownership'],
    ]);
    dns.set('apex-two.test', { A: [IPV4], AAAA: [IPV6] });
    dns.set('_mirror-challenge.apex-two.test', { TXT: [txtOf(deployed)] });
    expect((await check(owner, 'apex-two.test')).status).toBe('active');

    expect((await byHost('apex-two.test')).body).toContain('Version 1 /');
    const www = await byHost('www.apex-two.test:8080', '/page-2.html?x=1');
    expect(www.statusCode).toBe(308);
    expect(www.headers.location).toBe('http://apex-two.test:8080/page-2.html?x=1');
    expect((await ask('www.apex-two.test')).statusCode).toBe(200);

    // The owner prefers www: the apex now redirects there and www serves the site.
    const flipped = await t.app.inject({
      method: 'PUT',
      url: `/api/domains/domain/${deployed.id}`,
      payload: { wwwRedirect: 'apex-to-www' },
      headers: owner.headers,
    });
    expect(flipped.json()).toMatchObject({ wwwRedirect: 'apex-to-www' });
    expect(flipped.json().url).toMatch(/^http:\/\/www\.apex-two\.test(:\d+)?\/$/);
    const apex = await byHost('apex-two.test', '/page-3.html');
    expect(apex.statusCode).toBe(308);
    expect(apex.headers.location).toMatch(/^http:\/\/www\.apex-two\.test(:\d+)?\/page-3\.html$/);
    expect((await byHost('www.apex-two.test')).body).toContain('Version 1 /');
  });

  it('accepts an apex flattened by the DNS provider (ALIAS answers with our addresses)', async () => {
    dns.set('flat-three.test', { SOA: true, A: [IPV4] });
    const { owner, site } = await ownerWithSite();
    const deployed = (
      await deploy(owner, { siteId: site.id, domain: 'flat-three.test' })
    ).json() as Deployed;
    dns.set('_mirror-challenge.flat-three.test', { TXT: [txtOf(deployed)] });
    const result = await check(owner, 'flat-three.test');
    expect(result.status).toBe('active');
    // AAAA is recommended, not needed.
    expect(result.records.find((r) => r.type === 'AAAA')).toMatchObject({ status: 'missing' });
  });

  it('says misconfigured with the reason when a record points elsewhere', async () => {
    dns.set('wrong-four.test', { SOA: true });
    const { owner, site } = await ownerWithSite();
    const deployed = (
      await deploy(owner, { siteId: site.id, domain: 'www.wrong-four.test' })
    ).json() as Deployed;
    dns.set('_mirror-challenge.www.wrong-four.test', { TXT: [txtOf(deployed)] });

    dns.set('www.wrong-four.test', { CNAME: 'old-host.example.net' });
    const wrong = await check(owner, 'www.wrong-four.test');
    expect(wrong).toMatchObject({ status: 'misconfigured', problem: 'wrong_target' });
    expect(wrong.reason).toContain('old-host.example.net');
    expect(wrong.reason).toContain(EDGE);
    expect(wrong.records[0]).toMatchObject({ type: 'CNAME', status: 'wrong' });

    dns.set('www.wrong-four.test', { CNAME: 'wrong-four.test.cdn.cloudflare.net' });
    expect(await check(owner, 'www.wrong-four.test')).toMatchObject({
      status: 'misconfigured',
      problem: 'cdn_proxy',
    });

    dns.remove('www.wrong-four.test');
    dns.set('www.wrong-four.test', { A: ['104.16.1.1'] });
    expect(await check(owner, 'www.wrong-four.test')).toMatchObject({ problem: 'cdn_proxy' });

    dns.set('www.wrong-four.test', { A: [IPV4, '198.51.100.7'] });
    const mixed = await check(owner, 'www.wrong-four.test');
    expect(mixed).toMatchObject({ status: 'misconfigured', problem: 'conflicting_records' });
    expect(mixed.reason).toContain('198.51.100.7');
    expect((await ask('www.wrong-four.test')).statusCode).toBe(404);
  });

  it('stays pending while the TXT ownership record is missing', async () => {
    dns.set('txt-five.test', { SOA: true });
    const { owner, site } = await ownerWithSite();
    const deployed = (
      await deploy(owner, { siteId: site.id, domain: 'app.txt-five.test' })
    ).json() as Deployed;
    dns.set('app.txt-five.test', { CNAME: EDGE });
    const missing = await check(owner, 'app.txt-five.test');
    expect(missing).toMatchObject({ status: 'pending', problem: 'txt_missing' });
    expect(missing.reason).toContain('_mirror-challenge.app.txt-five.test');
    expect(missing.records.map((r) => r.status)).toEqual(['ok', 'missing']);

    dns.set('_mirror-challenge.app.txt-five.test', { TXT: ['mirror-verification=someone-else'] });
    expect(await check(owner, 'app.txt-five.test')).toMatchObject({
      status: 'pending',
      problem: 'txt_missing',
    });
    expect((await byHost('app.txt-five.test')).body).toContain('No site here');

    // The background checks activate it once the record is there.
    dns.set('_mirror-challenge.app.txt-five.test', { TXT: [txtOf(deployed)] });
    await t.app.domainsService.runDueChecks(new Date(Date.now() + 3_600_000));
    const page = await t.app.inject({
      url: `/api/domains/domain/${deployed.id}`,
      headers: owner.headers,
    });
    expect(page.json()).toMatchObject({ status: 'active', verifiedAt: expect.any(String) });
    expect((await byHost('app.txt-five.test')).body).toContain('Version 1 /');
  });

  it('refuses activation when CAA forbids our certificate authority', async () => {
    dns.set('caa-six.test', { SOA: true, CAA: [{ tag: 'issue', value: 'digicert.com' }] });
    const { owner, site } = await ownerWithSite();
    const deployed = (
      await deploy(owner, { siteId: site.id, domain: 'blog.caa-six.test' })
    ).json() as Deployed;
    dns.set('blog.caa-six.test', { CNAME: EDGE });
    dns.set('_mirror-challenge.blog.caa-six.test', { TXT: [txtOf(deployed)] });
    const forbidden = await check(owner, 'blog.caa-six.test');
    expect(forbidden).toMatchObject({ status: 'misconfigured', problem: 'caa_forbidden' });
    expect(forbidden.reason).toContain('digicert.com');
    expect(forbidden.reason).toContain('letsencrypt.org');

    dns.set('caa-six.test', {
      CAA: [{ tag: 'issue', value: 'letsencrypt.org; validationmethods=http-01' }],
    });
    expect((await check(owner, 'blog.caa-six.test')).status).toBe('active');
  });

  it('keeps a domain to one account, and re-deploying moves it between your sites', async () => {
    dns.set('taken-seven.test', { SOA: true });
    const first = await ownerWithSite();
    const second = await ownerWithSite();
    const created = await deploy(first.owner, {
      siteId: first.site.id,
      domain: 'taken-seven.test',
    });
    expect(created.statusCode).toBe(201);

    const refused = await deploy(second.owner, {
      siteId: second.site.id,
      domain: 'TAKEN-seven.test',
    });
    // Not verified by its holder: refused, with the record that would prove it is yours.
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toMatch(
      /^This domain is already connected to another account\. It has not been verified there: if the domain is yours, add a TXT record named _mirror-challenge\.taken-seven\.test with the value mirror-verification=[0-9a-f]{32} to its DNS/,
    );
    const companion = await deploy(second.owner, {
      siteId: second.site.id,
      domain: 'www.taken-seven.test',
    });
    expect(companion.statusCode).toBe(409);
    expect(companion.json().message).toContain('_mirror-challenge.www.taken-seven.test');
    // Verified by its holder: refused; a proof moves it only once the holder's verification
    // lapsed (issue 30, item 5: `domain-claims.routes.test.ts`).
    dns.set('taken-seven.test', { A: [IPV4] });
    dns.set('_mirror-challenge.taken-seven.test', {
      TXT: [txtOf(created.json() as Deployed)],
    });
    expect((await check(first.owner, 'taken-seven.test')).status).toBe('active');
    for (const domain of ['taken-seven.test', 'www.taken-seven.test']) {
      const res = await deploy(second.owner, { siteId: second.site.id, domain });
      expect(res.statusCode).toBe(409);
      expect(res.json().message).toMatch(
        /^This domain is already connected to another account\. If the domain is yours, add a TXT record named .* It moves to your account once that account's verification no longer holds/,
      );
    }
    // Someone else's domain cannot be checked (or even seen) either.
    expect(
      (
        await t.app.inject({
          url: '/api/domains/check/taken-seven.test',
          headers: second.owner.headers,
        })
      ).statusCode,
    ).toBe(404);

    const again = await deploy(first.owner, { siteId: first.site.id, domain: 'taken-seven.test' });
    expect(again.statusCode).toBe(200);
    expect(again.json().id).toBe(created.json().id);

    // Not your site: 404, and nothing changes.
    const foreignSite = await deploy(first.owner, {
      siteId: second.site.id,
      domain: 'other-seven.test',
    });
    expect(foreignSite.statusCode).toBe(404);
  });

  it('holds plan limits: none on the free plan, two on Mirror Pro', async () => {
    const free = await signUp(t);
    const freeSite = await t.app.inject({
      method: 'POST',
      url: '/api/domains/clone',
      payload: { sourceUrl: fixture.url },
      headers: free.headers,
    });
    const refused = await deploy(free, { siteId: freeSite.json().id, domain: 'free-eight.test' });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toMatch(/Mirror Pro/);

    const { owner, site } = await ownerWithSite('pro');
    for (const domain of ['a.limit-eight.test', 'b.limit-eight.test']) {
      expect((await deploy(owner, { siteId: site.id, domain })).statusCode).toBe(201);
    }
    const third = await deploy(owner, { siteId: site.id, domain: 'c.limit-eight.test' });
    expect(third.statusCode).toBe(403);
    expect(third.json().message).toBe(
      'Your plan allows 2 custom domains and all are in use. Upgrade or remove a domain to add another.',
    );
    const list = (await t.app.inject({ url: '/api/domains', headers: owner.headers })).json();
    expect(list.customDomains).toHaveLength(2);
  });

  it('validates the domain with the SPEC rule and refuses our own names', async () => {
    const { owner, site } = await ownerWithSite();
    const invalid = await deploy(owner, { siteId: site.id, domain: 'not_a domain' });
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json()).toEqual({ message: 'Invalid domain name format (e.g., example.com)' });
    const empty = await deploy(owner, { siteId: site.id, domain: '' });
    expect(empty.json()).toEqual({ message: 'Domain name is required' });
    const ours = await deploy(owner, { siteId: site.id, domain: 'shop.sites.mirror.test' });
    expect(ours.statusCode).toBe(400);
    expect(ours.json().message).toBe('This domain belongs to Mirror and cannot be added.');
    const list = (await t.app.inject({ url: '/api/domains', headers: owner.headers })).json();
    expect(list.customDomains).toEqual([]);
  });

  it('lets only the owner remove a domain, which stops serving it at once', async () => {
    dns.set('gone-nine.test', { SOA: true });
    const { owner, site } = await ownerWithSite();
    const deployed = (
      await deploy(owner, { siteId: site.id, domain: 'gone-nine.test' })
    ).json() as Deployed;
    dns.set('gone-nine.test', { A: [IPV4] });
    dns.set('_mirror-challenge.gone-nine.test', { TXT: [txtOf(deployed)] });
    expect((await check(owner, 'gone-nine.test')).status).toBe('active');

    const stranger = await signUp(t, 'pro');
    const foreign = await t.app.inject({
      method: 'DELETE',
      url: `/api/domains/domain/${deployed.id}`,
      headers: stranger.headers,
    });
    expect(foreign.statusCode).toBe(404);
    expect((await byHost('gone-nine.test')).body).toContain('Version 1 /');

    const removed = await t.app.inject({
      method: 'DELETE',
      url: `/api/domains/domain/${deployed.id}`,
      headers: owner.headers,
    });
    expect(removed.json()).toEqual({ success: true, message: 'Domain removed.' });
    expect((await byHost('gone-nine.test')).body).toContain('No site here');
    expect((await ask('gone-nine.test')).statusCode).toBe(404);
    // The site itself is untouched.
    expect((await fromSite(t, site.previewUrl)).statusCode).toBe(200);
  });

  it('answers the TLS ask from memory: 404 for unknown names and for the sites domain', async () => {
    expect((await ask('nobody.example.com')).statusCode).toBe(404);
    expect((await ask('')).statusCode).toBe(404);
    expect((await t.app.inject({ url: '/api/internal/tls/ask' })).statusCode).toBe(404);
    expect((await ask('demo.sites.mirror.test')).statusCode).toBe(404);
    const unknown = await byHost('nobody.example.com');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.body).toContain('No site here');
  });

  it('keeps an active domain on the air when DNS cannot be asked, and says so for a pending one', async () => {
    dns.set('steady-ten.test', { SOA: true });
    const { owner, site } = await ownerWithSite();
    const active = (
      await deploy(owner, { siteId: site.id, domain: 'steady-ten.test' })
    ).json() as Deployed;
    const pending = (
      await deploy(owner, { siteId: site.id, domain: 'later.steady-ten.test' })
    ).json() as Deployed;
    dns.set('steady-ten.test', { A: [IPV4] });
    dns.set('_mirror-challenge.steady-ten.test', { TXT: [txtOf(active)] });
    expect((await check(owner, 'steady-ten.test')).status).toBe('active');

    dns.silent = true;
    try {
      expect(await check(owner, 'steady-ten.test')).toMatchObject({
        status: 'active',
        problem: null,
      });
      expect(await check(owner, 'later.steady-ten.test')).toMatchObject({
        status: 'pending',
        problem: 'dns_unreachable',
      });
    } finally {
      dns.silent = false;
    }
    expect((await byHost('steady-ten.test')).body).toContain('Version 1 /');
    expect(pending.status).toBe('pending');

    // A definite wrong answer takes an active domain off the air.
    dns.set('steady-ten.test', { A: ['198.51.100.99'] });
    expect(await check(owner, 'steady-ten.test')).toMatchObject({
      status: 'misconfigured',
      problem: 'wrong_target',
    });
    expect((await byHost('steady-ten.test')).body).toContain('No site here');
  });
});
