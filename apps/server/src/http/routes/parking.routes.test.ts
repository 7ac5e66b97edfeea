import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDnsServer, type TestDnsServer } from '../../test/dns-server.js';
import { signUp, type SignedUp } from '../../test/api-helpers.js';
import { createTestApp, waitFor, type TestApp } from '../../test/test-app.js';

const IPV4 = '203.0.113.20';

let dns: TestDnsServer;
let t: TestApp;

beforeAll(async () => {
  dns = await startDnsServer();
  // The default rate limits (factor 1): the forms' limit is part of what is tested.
  t = await createTestApp({
    DNS_SERVERS: dns.address,
    DNS_TIMEOUT_MS: '1000',
    SITES_DOMAIN: 'sites.mirror.test',
    SITES_CNAME_TARGET: 'edge.mirror.test',
    SITES_IPV4: IPV4,
  });
});

afterAll(async () => {
  await t.close();
  await dns.close();
});

interface Parked {
  id: string;
  domain: string;
  status: string;
  template: string;
  projectId: string;
  content: string | null;
  records: { type: string; name: string; value: string }[];
}

function park(owner: SignedUp, payload: Record<string, unknown>) {
  return t.app.inject({
    method: 'POST',
    url: '/api/domains/park',
    payload,
    headers: owner.headers,
  });
}

/** Parks an apex domain and makes DNS answer correctly, so it becomes active. */
async function parkActive(owner: SignedUp, payload: Record<string, unknown>): Promise<Parked> {
  const domain = payload.domain as string;
  dns.set(domain, { SOA: true });
  const res = await park(owner, payload);
  expect(res.statusCode).toBe(201);
  const parked = res.json() as Parked;
  expect(parked.status).toBe('pending');
  dns.set(domain, { A: [IPV4] });
  dns.set(`_mirror-challenge.${domain}`, {
    TXT: [parked.records.find((r) => r.type === 'TXT')!.value],
  });
  const checked = await t.app.inject({
    url: `/api/domains/check/${domain}`,
    headers: owner.headers,
  });
  expect(checked.json()).toMatchObject({ status: 'active', kind: 'parked', id: parked.id });
  return parked;
}

const byHost = (host: string, pathname = '/') => t.app.inject({ url: pathname, headers: { host } });

function postForm(host: string, pathname: string, fields: Record<string, string>) {
  return t.app.inject({
    method: 'POST',
    url: pathname,
    headers: { host, 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams(fields).toString(),
  });
}

function outbox(): string[] {
  const dir = t.config.mail.outboxDir;
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .sort()
    .map((f) => fs.readFileSync(path.join(dir, f), 'utf8'));
}

async function messagesOf(owner: SignedUp, id: string) {
  const res = await t.app.inject({
    url: `/api/domains/parked/${id}/messages`,
    headers: owner.headers,
  });
  expect(res.statusCode).toBe(200);
  return res.json() as {
    kind: string;
    name: string;
    email: string;
    message: string;
    amount: number | null;
  }[];
}

describe('domain parking', () => {
  it('serves each template by Host once the domain is verified, in the page language', async () => {
    const owner = await signUp(t, 'pro');
    await t.app.database.db
      .updateTable('users')
      .set({ locale: 'es' })
      .where('id', '=', owner.userId)
      .execute();

    const plain = await parkActive(owner, { domain: 'plain-park.test', template: 'default' });
    expect(plain.projectId).toMatch(/^project-[0-9a-z]+$/);
    const page = await byHost('plain-park.test');
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers['content-security-policy']).toContain("default-src 'none'");
    expect(page.body).toContain('<h1 class="domain" dir="ltr">plain-park.test</h1>');
    // The owner's language setting (Spanish).
    expect(page.body).toContain('<html lang="es" dir="ltr">');
    expect(page.body).toContain('Este dominio está aparcado');
    // Self-contained: nothing loaded from elsewhere.
    expect(page.body).not.toMatch(/(src|href)="(https?:)?\/\//);
    expect(page.body).not.toContain('<script');

    await parkActive(owner, { domain: 'calm-park.test', template: 'minimalist', language: 'ar' });
    const calm = await byHost('calm-park.test');
    expect(calm.body).toContain('<html lang="ar" dir="rtl">');
    expect(calm.body).toContain('calm-park.test');
    expect(calm.body).toContain('شيء جديد قادم قريبًا.');

    await parkActive(owner, {
      domain: 'talk-park.test',
      template: 'contact-form',
      language: 'en',
      message: 'Premium name for a coffee shop.',
    });
    const talk = await byHost('talk-park.test');
    expect(talk.body).toContain('Contact the owner');
    expect(talk.body).toContain('<form method="post" action="/contact#contact">');
    expect(talk.body).toContain('Premium name for a coffee shop.');
    expect(talk.body).toContain('name="website"');

    const html = '<!doctype html><title>Mine</title><h1>My own page</h1><script>alert(1)</script>';
    await parkActive(owner, { domain: 'own-park.test', template: 'custom', content: html });
    const own = await byHost('own-park.test');
    expect(own.body).toBe(html);
    const csp = own.headers['content-security-policy'] as string;
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain('sandbox');
    expect(csp).not.toContain('script-src');
    expect(own.headers['x-frame-options']).toBe('DENY');
    // The www of a parked apex leads to it.
    const www = await byHost('www.own-park.test', '/');
    expect(www.statusCode).toBe(308);
    expect(www.headers.location).toBe('http://own-park.test/');
    expect(
      (await t.app.inject({ url: '/api/internal/tls/ask?domain=own-park.test' })).statusCode,
    ).toBe(200);

    const list = (
      await t.app.inject({ url: '/api/domains/parked', headers: owner.headers })
    ).json();
    expect(list.map((d: Parked) => d.template).sort()).toEqual([
      'contact-form',
      'custom',
      'default',
      'minimalist',
    ]);
    const overview = (await t.app.inject({ url: '/api/domains', headers: owner.headers })).json();
    expect(overview.parkedDomains).toHaveLength(4);
    expect(
      overview.domains.every(
        (d: { kind: string; status: string }) => d.kind === 'parked' && d.status === 'active',
      ),
    ).toBe(true);
  });

  it('never serves custom HTML on an app origin or before verification', async () => {
    const owner = await signUp(t, 'pro');
    const html = '<!doctype html><h1>Custom parking marker 7731</h1>';
    dns.set('early-park.test', { SOA: true });
    const res = await park(owner, { domain: 'early-park.test', template: 'custom', content: html });
    expect(res.statusCode).toBe(201);
    // Pending: nobody sees it, on its own host either.
    expect((await byHost('early-park.test')).body).not.toContain('marker 7731');

    const active = await parkActive(owner, {
      domain: 'origin-park.test',
      template: 'custom',
      content: html,
    });
    for (const host of [
      'localhost',
      `localhost:${t.config.port}`,
      '127.0.0.1',
      'sites.mirror.test',
      'x.sites.mirror.test',
    ]) {
      for (const pathname of ['/', '/index.html', `/api/domains/parked/${active.id}`]) {
        const answer = await byHost(host, pathname);
        expect(answer.body).not.toContain('<h1>Custom parking marker 7731</h1>');
      }
    }
    // The owner API hands it back as JSON data, never as a page.
    const own = await t.app.inject({
      url: `/api/domains/parked/${active.id}`,
      headers: owner.headers,
    });
    expect(own.headers['content-type']).toMatch(/^application\/json/);
    expect(own.json().content).toBe(html);
  });

  it('previews every template for the owner before DNS is active, and only for the owner', async () => {
    const owner = await signUp(t, 'pro');
    const stranger = await signUp(t);
    dns.set('preview-park.test', { SOA: true });
    const res = await park(owner, {
      domain: 'preview-park.test',
      message: 'Launching soon',
      forSale: true,
      askingPrice: 4200,
    });
    expect(res.statusCode).toBe(201);
    const parked = res.json() as Parked;
    expect(parked.status).toBe('pending');
    const preview = (headers: Record<string, string>, template?: string) =>
      t.app.inject({
        url: `/api/domains/parked/${parked.id}/preview${template ? `?template=${template}` : ''}`,
        headers,
      });

    const pages: Record<string, string> = {};
    for (const template of ['default', 'minimalist', 'contact-form']) {
      const page = await preview(owner.headers, template);
      expect(page.statusCode).toBe(200);
      expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(page.body).toContain('preview-park.test');
      expect(page.body).toContain('Launching soon');
      expect(page.body).toContain('$4,200');
      // Framed by the app only, in a sandbox, never indexed or cached.
      expect(page.headers['content-security-policy']).toContain("frame-ancestors 'self'");
      expect(page.headers['content-security-policy']).toMatch(/(^|; )sandbox(;|$)/);
      expect(page.headers['content-security-policy']).toContain("form-action 'none'");
      expect(page.headers['x-robots-tag']).toBe('noindex, nofollow');
      expect(page.headers['cache-control']).toBe('no-store');
      pages[template] = page.body;
    }
    // Three different pages, and the saved template (default) when none is asked for.
    expect(new Set(Object.values(pages)).size).toBe(3);
    expect((await preview(owner.headers)).body).toBe(pages.default);
    expect(pages['contact-form']).toContain('name="message"');

    const custom = await preview(owner.headers, 'custom');
    expect(custom.statusCode).toBe(400);
    expect(custom.json().message).toBe('Please provide the HTML of your custom parking page.');
    const unknown = await preview(owner.headers, 'fancy');
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().message).toBe(
      'Unknown parking page template. Choose one of: default, minimalist, contact-form, custom.',
    );

    const others = await preview(stranger.headers, 'default');
    expect(others.statusCode).toBe(404);
    expect(others.body).not.toContain('preview-park.test');
    const visitor = await preview({}, 'default');
    expect(visitor.statusCode).toBe(401);
    expect(visitor.body).not.toContain('preview-park.test');
    // Still pending: the domain itself shows nothing yet.
    expect((await byHost('preview-park.test')).body).not.toContain('Launching soon');
  });

  it("previews the owner's HTML under its own limits", async () => {
    const owner = await signUp(t, 'pro');
    const html = '<!doctype html><h1>Custom preview marker 5512</h1><script>alert(1)</script>';
    dns.set('custom-preview.test', { SOA: true });
    const parked = (
      await park(owner, { domain: 'custom-preview.test', template: 'custom', content: html })
    ).json() as Parked;
    const page = await t.app.inject({
      url: `/api/domains/parked/${parked.id}/preview`,
      headers: owner.headers,
    });
    expect(page.statusCode).toBe(200);
    expect(page.body).toBe(html);
    const csp = page.headers['content-security-policy'] as string;
    expect(csp).toContain("default-src 'none'");
    expect(csp).not.toContain('script-src');
    expect(csp).toMatch(/(^|; )sandbox(;|$)/);
  });

  it('stores contact messages, mails the owner, ignores the honeypot and limits each sender', async () => {
    const owner = await signUp(t, 'pro');
    const parked = await parkActive(owner, { domain: 'mail-park.test', template: 'contact-form' });
    const before = outbox().length;

    const sent = await postForm('mail-park.test', '/contact', {
      name: 'Grace Hopper',
      email: 'Grace@Example.com',
      message: 'Is this domain available for a project?',
      website: '',
    });
    expect(sent.statusCode).toBe(303);
    expect(sent.headers.location).toBe('/?sent=contact#contact');
    expect((await byHost('mail-park.test', '/?sent=contact')).body).toContain(
      'Thank you! Your message was sent to the owner.',
    );
    expect(await messagesOf(owner, parked.id)).toEqual([
      expect.objectContaining({
        kind: 'contact',
        name: 'Grace Hopper',
        email: 'grace@example.com',
        message: 'Is this domain available for a project?',
        amount: null,
      }),
    ]);
    const mail = await waitFor(() =>
      outbox()
        .slice(before)
        .find((m) => m.includes('mail-park.test')),
    );
    expect(mail).toMatch(/^To: u[a-z0-9]+@example\.com$/m);
    expect(mail).toContain('Subject: New message about mail-park.test');
    expect(mail).toContain('Grace Hopper');

    // A bot fills the hidden field: same answer, nothing kept or sent.
    const bot = await postForm('mail-park.test', '/contact', {
      name: 'Bot',
      email: 'bot@example.com',
      message: 'Buy now',
      website: 'http://spam.example',
    });
    expect(bot.statusCode).toBe(303);

    // Bad input: the page again with the error and the values, nothing stored.
    const bad = await postForm('mail-park.test', '/contact', {
      name: 'Ada',
      email: 'not-an-email',
      message: 'Hello',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('Please enter a valid email address.');
    expect(bad.body).toContain('value="Ada"');
    expect(await messagesOf(owner, parked.id)).toHaveLength(1);

    // Five sends per hour from one address; the sixth is refused with the page and a notice.
    for (let i = 2; i <= 5; i++) {
      const ok = await postForm('mail-park.test', '/contact', {
        name: `Sender ${i}`,
        email: `s${i}@example.com`,
        message: 'Hello again',
      });
      expect(ok.statusCode).toBe(303);
    }
    const limited = await postForm('mail-park.test', '/contact', {
      name: 'Sender 6',
      email: 's6@example.com',
      message: 'One too many',
    });
    expect(limited.statusCode).toBe(429);
    expect(limited.body).toContain('Too many messages from your network. Please try again later.');
    expect(await messagesOf(owner, parked.id)).toHaveLength(5);
    expect((await messagesOf(owner, parked.id)).some((m) => m.name === 'Bot')).toBe(false);
  });

  it('puts a domain up for sale with an asking price and takes offers', async () => {
    const owner = await signUp(t, 'pro');
    const parked = await parkActive(owner, {
      domain: 'sale-park.test',
      template: 'minimalist',
      language: 'en',
      forSale: true,
      askingPrice: 25000,
    });
    const page = await byHost('sale-park.test');
    expect(page.body).toContain('This domain is for sale');
    expect(page.body).toContain('$25,000');
    expect(page.body).toContain('<form method="post" action="/offer#offer">');
    // No contact form on this template.
    expect(
      (await postForm('sale-park.test', '/contact', { name: 'a', email: 'a@b.co', message: 'x' }))
        .statusCode,
    ).toBe(404);

    const before = outbox().length;
    const offer = await postForm('sale-park.test', '/offer', {
      name: 'Buyer',
      email: 'buyer@example.com',
      amount: '18000',
      message: 'Quick close possible.',
    });
    expect(offer.statusCode).toBe(303);
    expect(await messagesOf(owner, parked.id)).toEqual([
      expect.objectContaining({ kind: 'offer', amount: 18000, message: 'Quick close possible.' }),
    ]);
    const mail = await waitFor(() =>
      outbox()
        .slice(before)
        .find((m) => m.includes('sale-park.test')),
    );
    expect(mail).toContain('Subject: New offer for sale-park.test: $18,000');
    const bad = await postForm('sale-park.test', '/offer', {
      name: 'B',
      email: 'b@example.com',
      amount: '12.5',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('Please enter an offer in whole US dollars.');

    // Taking it off the market removes the offer form.
    const updated = await t.app.inject({
      method: 'PUT',
      url: `/api/domains/park/${parked.id}`,
      payload: { forSale: false },
      headers: owner.headers,
    });
    expect(updated.json()).toMatchObject({ forSale: false, askingPrice: 25000, messageCount: 1 });
    expect((await byHost('sale-park.test')).body).not.toContain('/offer');
  });

  it('validates requests: SPEC domain rule, coming-soon monetization, custom content, limits', async () => {
    const owner = await signUp(t);
    const expectMessage = async (
      payload: Record<string, unknown>,
      status: number,
      message: string,
    ) => {
      const res = await park(owner, payload);
      expect(res.statusCode).toBe(status);
      expect(res.json()).toEqual({ message });
    };
    await expectMessage({ domain: '' }, 400, 'Domain name is required');
    await expectMessage(
      { domain: 'bad domain' },
      400,
      'Invalid domain name format (e.g., example.com)',
    );
    await expectMessage(
      { domain: 'ads-park.test', monetization: 'ads' },
      400,
      'Ads and affiliate monetization are coming soon. Choose "none" for now.',
    );
    await expectMessage(
      { domain: 'aff-park.test', monetization: 'affiliate' },
      400,
      'Ads and affiliate monetization are coming soon. Choose "none" for now.',
    );
    await expectMessage(
      { domain: 'html-park.test', template: 'custom' },
      400,
      'Please provide the HTML of your custom parking page.',
    );
    await expectMessage(
      { domain: 'price-park.test', forSale: true },
      400,
      'Please give an asking price for a domain that is for sale.',
    );
    expect(
      (await t.app.inject({ url: '/api/domains/parked', headers: owner.headers })).json(),
    ).toEqual([]);

    // Visitors must sign in.
    const anonymous = await t.app.inject({ method: 'POST', url: '/api/domains/park', payload: {} });
    expect(anonymous.statusCode).toBe(401);

    // The free plan parks three domains, two of them waiting for verification at a time; the
    // project id is kept when given.
    const first = await park(owner, { domain: 'one-free.test', projectId: 'my-project_1' });
    expect(first.json()).toMatchObject({
      domain: 'one-free.test',
      projectId: 'my-project_1',
      template: 'default',
    });
    expect((await park(owner, { domain: 'ONE-free.test' })).json()).toEqual({
      message: 'This domain is already in your account.',
    });
    const second = await park(owner, { domain: 'two-free.test' });
    expect(second.statusCode).toBe(201);
    await expectMessage(
      { domain: 'three-free.test' },
      403,
      'Your plan allows 2 domains waiting for DNS verification at a time. Finish verifying one, or remove one, before adding another.',
    );
    dns.set('two-free.test', { A: [IPV4] });
    dns.set('_mirror-challenge.two-free.test', {
      TXT: [(second.json() as Parked).records.find((r) => r.type === 'TXT')!.value],
    });
    const verified = await t.app.inject({
      url: '/api/domains/check/two-free.test',
      headers: owner.headers,
    });
    expect(verified.json()).toMatchObject({ status: 'active' });
    expect((await park(owner, { domain: 'three-free.test' })).statusCode).toBe(201);
    const fourth = await park(owner, { domain: 'four-free.test' });
    expect(fourth.statusCode).toBe(403);
    expect(fourth.json().message).toMatch(/3 parked domains/);

    // An update that would leave an invalid page changes nothing.
    const id = first.json().id as string;
    const invalid = await t.app.inject({
      method: 'PUT',
      url: `/api/domains/park/${id}`,
      payload: { template: 'custom' },
      headers: owner.headers,
    });
    expect(invalid.statusCode).toBe(400);
    const ads = await t.app.inject({
      method: 'PUT',
      url: `/api/domains/park/${id}`,
      payload: { monetization: 'ads' },
      headers: owner.headers,
    });
    expect(ads.statusCode).toBe(400);
    const same = (
      await t.app.inject({ url: `/api/domains/parked/${id}`, headers: owner.headers })
    ).json();
    expect(same).toMatchObject({ template: 'default', monetization: 'none' });

    // The domain cannot also be connected to a site, by anyone: a verified one at all, an
    // unverified one without the other account's own TXT record (the answer says which).
    const other = await signUp(t, 'pro');
    expect((await park(other, { domain: 'two-free.test' })).json().message).toMatch(
      /^This domain is already connected to another account\. If the domain is yours, add a TXT record named _mirror-challenge\.two-free\.test .* once that account's verification no longer holds/,
    );
    const unverified = await park(other, { domain: 'one-free.test' });
    expect(unverified.statusCode).toBe(409);
    expect(unverified.json().message).toMatch(
      /^This domain is already connected to another account\. It has not been verified there: if the domain is yours, add a TXT record named _mirror-challenge\.one-free\.test with the value mirror-verification=[0-9a-f]{32} to its DNS, then add the domain again\./,
    );

    // Only the owner sees, edits and removes it.
    for (const [method, url] of [
      ['GET', `/api/domains/parked/${id}`],
      ['GET', `/api/domains/parked/${id}/messages`],
      ['PUT', `/api/domains/park/${id}`],
      ['DELETE', `/api/domains/parked/${id}`],
    ] as const) {
      const res = await t.app.inject({
        method,
        url,
        headers: other.headers,
        ...(method === 'PUT' ? { payload: { template: 'minimalist' } } : {}),
      });
      expect(res.statusCode).toBe(404);
    }
    const removed = await t.app.inject({
      method: 'DELETE',
      url: `/api/domains/parked/${id}`,
      headers: owner.headers,
    });
    expect(removed.json()).toEqual({ success: true, message: 'Domain removed.' });
    expect((await park(owner, { domain: 'four-free.test' })).statusCode).toBe(201);
  });
});
