import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDnsServer, type TestDnsServer } from '../../test/dns-server.js';
import { startFixtureSite, type FixtureSite } from '../../test/fixture-site.js';
import { mirrorSite, SERVICE_ENV, signUp, type SignedUp } from '../../test/api-helpers.js';
import { startSmtpServer, type TestSmtpServer } from '../../test/smtp-server.js';
import { createTestApp, waitFor, type TestApp } from '../../test/test-app.js';

/**
 * Issue 18, item 2: a claim that was never verified does not hold a domain. Whoever proves
 * ownership first (their own TXT record in DNS) gets it, unverified claims expire after 7 days,
 * and an account holds only a few at a time. Real DNS (a test server asked through node's
 * resolver), a real database and a real SMTP server.
 */

const EDGE = 'edge.mirror.test';
const IPV4 = '203.0.113.30';
const DAY = 24 * 3_600_000;

let dns: TestDnsServer;
let smtp: TestSmtpServer;
let fixture: FixtureSite;
let t: TestApp;

beforeAll(async () => {
  dns = await startDnsServer();
  fixture = await startFixtureSite();
  smtp = await startSmtpServer();
  t = await createTestApp({
    ...SERVICE_ENV,
    DNS_SERVERS: dns.address,
    DNS_TIMEOUT_MS: '1000',
    SITES_DOMAIN: 'sites.mirror.test',
    SITES_CNAME_TARGET: EDGE,
    SITES_IPV4: IPV4,
    SMTP_URL: smtp.url,
  });
  dns.set(EDGE, { A: [IPV4] });
});

afterAll(async () => {
  await t.close();
  await smtp.close();
  await fixture.close();
  await dns.close();
});

interface Account extends SignedUp {
  email: string;
}

async function account(plan?: 'pro' | 'agency'): Promise<Account> {
  const user = await signUp(t, plan);
  const row = await t.app.database.db
    .selectFrom('users')
    .select('email')
    .where('id', '=', user.userId)
    .executeTakeFirstOrThrow();
  return { ...user, email: row.email };
}

interface Claimed {
  id: string;
  domain: string;
  status: string;
  records: { type: string; host: string; value: string }[];
}

const park = (owner: SignedUp, domain: string) =>
  t.app.inject({
    method: 'POST',
    url: '/api/domains/park',
    payload: { domain },
    headers: owner.headers,
  });

const txtOf = (claimed: Claimed) => claimed.records.find((r) => r.type === 'TXT')!;

async function check(owner: SignedUp, domain: string) {
  const res = await t.app.inject({ url: `/api/domains/check/${domain}`, headers: owner.headers });
  expect(res.statusCode).toBe(200);
  return res.json() as { status: string; problem: string | null };
}

/** Every domain row and parked page, for "nothing was written". */
async function store() {
  const db = t.app.database.db;
  return {
    domains: await db
      .selectFrom('domains')
      // Not the check columns: the periodic checks may look at any domain meanwhile.
      .select(['id', 'owner_id', 'kind', 'domain', 'site_id', 'token', 'verified_at', 'created_at'])
      .orderBy('id')
      .execute(),
    pages: await db.selectFrom('parked_pages').select('domain_id').orderBy('domain_id').execute(),
  };
}

const rowOf = (domain: string) =>
  t.app.database.db
    .selectFrom('domains')
    .selectAll()
    .where('domain', '=', domain)
    .executeTakeFirst();

/** The mail's text as written: quoted-printable soft breaks joined. */
const unfold = (mail: string) => mail.replace(/=\r?\n/g, '').replace(/=3D/g, '=');

const mailsTo = (email: string) => smtp.to(email).map((m) => unfold(m.data));

/** The record the 409 tells the refused account to create. */
function instructionsOf(message: string): { host: string; value: string } {
  const match =
    /add a TXT record named (\S+) with the value (mirror-verification=[0-9a-f]{32}) to its DNS/.exec(
      message,
    );
  if (!match) throw new Error(`no TXT instructions in: ${message}`);
  return { host: match[1]!, value: match[2]! };
}

describe('domain claims', () => {
  it('gives an unverified domain to the account that publishes its TXT record, and mails the one it leaves', async () => {
    dns.set('victim-shop.test', { SOA: true });
    const squatter = await account();
    const apex = await park(squatter, 'victim-shop.test');
    expect(apex.statusCode).toBe(201);
    const www = await park(squatter, 'www.victim-shop.test');
    expect(www.statusCode).toBe(201);
    const squatted = apex.json() as Claimed;

    // The owner is refused and told which record proves the domain is theirs.
    const owner = await account('pro');
    const refused = await park(owner, 'victim-shop.test');
    expect(refused.statusCode).toBe(409);
    const { message } = refused.json() as { message: string };
    expect(message).toMatch(/^This domain is already connected to another account\. /);
    const proof = instructionsOf(message);
    expect(proof.host).toBe('_mirror-challenge.victim-shop.test');
    // Their own token, not the squatter's.
    expect(proof.value).not.toBe(txtOf(squatted).value);

    // The owner publishes it and adds the domain again: it is theirs, the squatter's claim is gone.
    dns.set(proof.host, { TXT: [proof.value] });
    const taken = await park(owner, 'victim-shop.test');
    expect(taken.statusCode).toBe(201);
    const claimed = taken.json() as Claimed;
    expect(claimed).toMatchObject({ domain: 'victim-shop.test', status: 'pending' });
    expect(txtOf(claimed).value).toBe(proof.value);
    expect(await rowOf('victim-shop.test')).toMatchObject({
      id: claimed.id,
      owner_id: owner.userId,
    });
    const pages = await t.app.database.db
      .selectFrom('parked_pages')
      .select('domain_id')
      .where('domain_id', '=', squatted.id)
      .execute();
    expect(pages).toEqual([]);
    const left = await t.app.inject({ url: '/api/domains/parked', headers: squatter.headers });
    expect((left.json() as Claimed[]).map((d) => d.domain)).toEqual(['www.victim-shop.test']);

    // The squatter is told by mail.
    const [mail] = await waitFor(() => {
      const mails = mailsTo(squatter.email);
      return mails.length > 0 ? mails : undefined;
    });
    expect(mail).toContain('Subject: victim-shop.test was removed from your Mirror account');
    expect(mail).toContain('Another Mirror account has now proved that it controls the domain');
    expect(mailsTo(owner.email)).toEqual([]);

    // The www the squatter holds goes the same way.
    const wwwRefused = await park(owner, 'www.victim-shop.test');
    expect(wwwRefused.statusCode).toBe(409);
    const wwwProof = instructionsOf((wwwRefused.json() as { message: string }).message);
    expect(wwwProof.host).toBe('_mirror-challenge.www.victim-shop.test');
    dns.set(wwwProof.host, { TXT: [wwwProof.value] });
    expect((await park(owner, 'www.victim-shop.test')).statusCode).toBe(201);
    expect(await rowOf('www.victim-shop.test')).toMatchObject({ owner_id: owner.userId });
    await waitFor(() => (mailsTo(squatter.email).length === 2 ? true : undefined));

    // The owner's domain verifies as usual (the TXT record is already there) and is served.
    dns.set('victim-shop.test', { A: [IPV4] });
    expect(await check(owner, 'victim-shop.test')).toMatchObject({
      status: 'active',
      problem: null,
    });
    const page = await t.app.inject({ url: '/', headers: { host: 'victim-shop.test' } });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('victim-shop.test');
  });

  it('without its own TXT record the other account gets the 409 with instructions, and a verified domain stays refused', async () => {
    dns.set('held-shop.test', { SOA: true });
    const holder = await account();
    const held = (await park(holder, 'held-shop.test')).json() as Claimed;
    const other = await account('pro');

    // Nothing in DNS, then the holder's record: neither proves anything for the other account.
    const before = await store();
    for (const txt of [null, txtOf(held).value]) {
      if (txt) dns.set('_mirror-challenge.held-shop.test', { TXT: [txt] });
      const res = await park(other, 'held-shop.test');
      expect(res.statusCode).toBe(409);
      const { message } = res.json() as { message: string };
      expect(message).toContain(
        'It has not been verified there: if the domain is yours, add a TXT record named _mirror-challenge.held-shop.test with the value mirror-verification=',
      );
      expect(message).toContain('then add the domain again');
      // The same record every time: it can be created before trying again.
      expect(instructionsOf(message).value).not.toBe(txtOf(held).value);
    }
    expect(await store()).toEqual(before);
    expect(mailsTo(holder.email)).toEqual([]);

    // Once the holder verified it, the other account's proof does not move it while the holder's
    // own record is still there (issue 30, item 5: nor while the domain points at Mirror).
    const again = instructionsOf(
      ((await park(other, 'held-shop.test')).json() as { message: string }).message,
    );
    dns.set('held-shop.test', { A: [IPV4] });
    expect((await check(holder, 'held-shop.test')).status).toBe('active');
    dns.set('_mirror-challenge.held-shop.test', { TXT: [txtOf(held).value, again.value] });
    const verified = await park(other, 'held-shop.test');
    expect(verified.statusCode).toBe(409);
    expect(verified.json()).toEqual({
      message:
        'This domain is already connected to another account, and its DNS still verifies it there. To move it to your account, remove the other mirror-verification value from the TXT record _mirror-challenge.held-shop.test and point the domain away from Mirror, then add the domain again (you can point it back afterwards).',
    });
    expect(await rowOf('held-shop.test')).toMatchObject({ id: held.id, owner_id: holder.userId });
  });

  it('moves a verified domain whose verification lapsed to the account that proves it, and mails the holder', async () => {
    // Alice verified victim.test by TXT and it was served.
    dns.set('victim.test', { SOA: true });
    const alice = await account('pro');
    const held = (await park(alice, 'victim.test')).json() as Claimed;
    dns.set('victim.test', { A: [IPV4] });
    dns.set(txtOf(held).host, { TXT: [txtOf(held).value] });
    expect((await check(alice, 'victim.test')).status).toBe('active');
    expect((await t.app.inject({ url: '/', headers: { host: 'victim.test' } })).statusCode).toBe(
      200,
    );

    // Then the A record moved and her TXT record was removed. Bob is told how to prove it.
    dns.set('victim.test', { A: ['198.51.100.7'] });
    dns.remove(txtOf(held).host);
    const bob = await account('pro');
    const before = await store();
    const refused = await park(bob, 'victim.test');
    expect(refused.statusCode).toBe(409);
    const { message } = refused.json() as { message: string };
    expect(message).toMatch(/^This domain is already connected to another account\. If the/);
    expect(message).toContain("once that account's verification no longer holds");
    const proof = instructionsOf(message);
    expect(proof.host).toBe('_mirror-challenge.victim.test');
    const wwwRefused = await park(bob, 'www.victim.test');
    expect(wwwRefused.statusCode).toBe(409);
    const wwwProof = instructionsOf((wwwRefused.json() as { message: string }).message);
    expect(wwwProof.host).toBe('_mirror-challenge.www.victim.test');
    expect(await store()).toEqual(before);

    // Bob's record alone is not enough while Alice still passes: her TXT record is back, or the
    // domain points at Mirror again.
    const stillVerified =
      'This domain is already connected to another account, and its DNS still verifies it there. To move it to your account, remove the other mirror-verification value from the TXT record _mirror-challenge.victim.test and point the domain away from Mirror, then add the domain again (you can point it back afterwards).';
    dns.set(proof.host, { TXT: [proof.value, txtOf(held).value] });
    expect((await park(bob, 'victim.test')).json()).toEqual({ message: stillVerified });
    dns.set(proof.host, { TXT: [proof.value] });
    dns.set('victim.test', { A: [IPV4] });
    expect((await park(bob, 'victim.test')).json()).toEqual({ message: stillVerified });
    expect(await store()).toEqual(before);
    expect(mailsTo(alice.email)).toEqual([]);

    // Neither holds any more: Bob's proof takes the www companion and the apex.
    dns.set('victim.test', { A: ['198.51.100.7'] });
    dns.set(wwwProof.host, { TXT: [wwwProof.value] });
    expect((await park(bob, 'www.victim.test')).statusCode).toBe(201);
    const taken = await park(bob, 'victim.test');
    expect(taken.statusCode).toBe(201);
    expect(taken.json()).toMatchObject({ domain: 'victim.test', status: 'pending' });
    expect(await rowOf('victim.test')).toMatchObject({ owner_id: bob.userId });
    expect(await rowOf('www.victim.test')).toMatchObject({ owner_id: bob.userId });
    const pages = await t.app.database.db
      .selectFrom('parked_pages')
      .select('domain_id')
      .where('domain_id', '=', held.id)
      .execute();
    expect(pages).toEqual([]);
    const left = await t.app.inject({ url: '/api/domains/parked', headers: alice.headers });
    expect(left.json()).toEqual([]);
    // Alice's page is no longer served there.
    const gone = await t.app.inject({ url: '/', headers: { host: 'victim.test' } });
    expect(gone.statusCode).toBe(404);

    const [mail] = await waitFor(() => {
      const mails = mailsTo(alice.email);
      return mails.length > 0 ? mails : undefined;
    });
    expect(mail).toContain('Subject: victim.test was moved to another Mirror account');
    expect(mail).toContain(
      'its DNS no longer points to Mirror and no longer has your verification',
    );
    expect(mailsTo(bob.email)).toEqual([]);

    // Bob points it at Mirror and it is verified and served as his.
    dns.set('victim.test', { A: [IPV4] });
    expect(await check(bob, 'victim.test')).toMatchObject({ status: 'active', problem: null });
    expect((await t.app.inject({ url: '/', headers: { host: 'victim.test' } })).statusCode).toBe(
      200,
    );
  });

  it('removes claims not verified within 7 days, with their page or site link, and mails the owner; verified ones stay', async () => {
    const owner = await account('pro');
    const site = await mirrorSite(t, fixture.url, owner.headers);
    expect(site.readings.at(-1)!.status).toBe('completed');
    const deployed = await t.app.inject({
      method: 'POST',
      url: '/api/domains/deploy',
      payload: { siteId: site.id, domain: 'shop.stale-custom.test' },
      headers: owner.headers,
    });
    expect(deployed.statusCode).toBe(201);
    const staleCustom = deployed.json() as Claimed;
    const stalePark = (await park(owner, 'stale-park.test')).json() as Claimed;
    const youngPark = (await park(owner, 'young-park.test')).json() as Claimed;
    const kept = (await park(owner, 'kept-park.test')).json() as Claimed;
    dns.set('kept-park.test', { A: [IPV4] });
    dns.set(txtOf(kept).host, { TXT: [txtOf(kept).value] });
    expect((await check(owner, 'kept-park.test')).status).toBe('active');

    // Eight days old: all but the young one.
    const old = new Date(Date.now() - 8 * DAY).toISOString();
    await t.app.database.db
      .updateTable('domains')
      .set({ created_at: old })
      .where('id', 'in', [staleCustom.id, stalePark.id, kept.id])
      .execute();

    await t.app.domainsService.runDueChecks();

    expect(await rowOf('shop.stale-custom.test')).toBeUndefined();
    expect(await rowOf('stale-park.test')).toBeUndefined();
    expect(await rowOf('young-park.test')).toMatchObject({ id: youngPark.id, verified_at: null });
    expect(await rowOf('kept-park.test')).toMatchObject({ id: kept.id, status: 'active' });
    const pages = await t.app.database.db
      .selectFrom('parked_pages')
      .select('domain_id')
      .where('domain_id', 'in', [stalePark.id, youngPark.id, kept.id])
      .orderBy('domain_id')
      .execute();
    expect(pages.map((p) => p.domain_id)).toEqual([youngPark.id, kept.id].sort());
    const overview = (await t.app.inject({ url: '/api/domains', headers: owner.headers })).json();
    expect(overview.customDomains).toEqual([]);
    // The site itself stays; the verified parked domain is still served.
    expect(overview.sites).toEqual([expect.objectContaining({ id: site.id })]);
    const page = await t.app.inject({ url: '/', headers: { host: 'kept-park.test' } });
    expect(page.statusCode).toBe(200);

    const mails = await waitFor(() => {
      const all = mailsTo(owner.email);
      return all.length >= 2 ? all : undefined;
    });
    expect(mails).toHaveLength(2);
    const subjects = mails.map((m) => /^Subject: (.*)$/m.exec(m)![1]).sort();
    expect(subjects).toEqual([
      'shop.stale-custom.test was not verified and was removed',
      'stale-park.test was not verified and was removed',
    ]);
    const parkMail = mails.find((m) => m.includes('Subject: stale-park.test'))!;
    expect(parkMail).toContain('its DNS records were never verified, so we removed it');
    expect(parkMail).toContain('Its parking page was removed with it.');
    const customMail = mails.find((m) => m.includes('Subject: shop.stale-custom.test'))!;
    expect(customMail).toContain('It no longer points at your site; the site itself is unchanged.');
  });

  it('lets a free account hold two unverified domains at a time and refuses the third, writing nothing', async () => {
    const free = await account();
    expect((await park(free, 'first-pending.test')).statusCode).toBe(201);
    expect((await park(free, 'second-pending.test')).statusCode).toBe(201);
    const before = await store();
    const third = await park(free, 'third-pending.test');
    expect(third.statusCode).toBe(403);
    expect(third.json()).toEqual({
      message:
        'Your plan allows 2 domains waiting for DNS verification at a time. Finish verifying one, or remove one, before adding another.',
    });
    expect(await store()).toEqual(before);
    const listed = await t.app.inject({ url: '/api/domains/parked', headers: free.headers });
    expect((listed.json() as Claimed[]).map((d) => d.domain).sort()).toEqual([
      'first-pending.test',
      'second-pending.test',
    ]);
  });
});
