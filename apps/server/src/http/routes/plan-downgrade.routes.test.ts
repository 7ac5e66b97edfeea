import { randomBytes, randomUUID } from 'node:crypto';
import {
  CUSTOMIZE_MESSAGES,
  PAYMENT_MESSAGES,
  PLAN_DOWNGRADE_GRACE_DAYS,
  PLAN_LIMIT_MESSAGES,
  TEST_CARDS,
} from '@mirror/contract';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureSite, type FixtureSite } from '../../test/fixture-site.js';
import {
  fromSite,
  mirrorSite,
  pollToEnd,
  SERVICE_ENV,
  signUp,
  type SignedUp,
} from '../../test/api-helpers.js';
import { startOpenAiServer } from '../../test/openai-server.js';
import { startSmtpServer, type TestSmtpServer } from '../../test/smtp-server.js';
import { createTestApp, waitFor, type TestApp } from '../../test/test-app.js';

/**
 * Plan limits after a downgrade (issue 18, item 5): scheduled syncs stop, sites beyond the plan
 * become read-only, custom domains beyond it are detached after a grace period (with mails), an
 * upgrade in between keeps them; and one $2 payment opens one AI rewrite.
 */

const DAY = 86_400_000;
const GRACE_MS = PLAN_DOWNGRADE_GRACE_DAYS * DAY;
const NEXT_YEAR = new Date().getUTCFullYear() + 1;
const SITES_DOMAIN = 'sites.mirror.test';

let fixture: FixtureSite;
let smtp: TestSmtpServer;

beforeAll(async () => {
  fixture = await startFixtureSite();
  smtp = await startSmtpServer();
});

afterAll(async () => {
  await smtp.close();
  await fixture.close();
});

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function setup(env: Record<string, string> = {}) {
  const t = await createTestApp({ ...SERVICE_ENV, SITES_DOMAIN, SMTP_URL: smtp.url, ...env });
  cleanups.push(() => t.close());
  return t;
}

/** A server with an AI model (a local stand-in): rewrites are sold and run only then. */
async function setupWithModel() {
  const ai = await startOpenAiServer([
    { content: JSON.stringify({ ops: [{ op: 'setTitle', title: 'Bakery' }], unparsed: [] }) },
  ]);
  cleanups.push(() => ai.close());
  return setup({ AI_BASE_URL: ai.baseURL, AI_MODEL: 'test-model' });
}

/** Undoes quoted-printable soft line breaks. */
const unfold = (mail: string) => mail.replace(/=\r?\n/g, '').replace(/=3D/g, '=');

/** The mails sent to an address, in order. */
const mailsTo = (email: string) => smtp.to(email).map((m) => unfold(m.data));

function api(
  t: TestApp,
  user: SignedUp,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  payload?: object,
) {
  return t.app.inject({
    method,
    url: `/api${url}`,
    headers: user.headers,
    ...(payload ? { payload } : {}),
  });
}

async function emailOf(t: TestApp, user: SignedUp): Promise<string> {
  return (await api(t, user, 'GET', '/auth/me')).json().user.email as string;
}

async function addCard(t: TestApp, user: SignedUp): Promise<string> {
  const res = await api(t, user, 'POST', '/payments/test/payment-methods', {
    number: TEST_CARDS.succeeds,
    expMonth: 12,
    expYear: NEXT_YEAR,
    cvc: '123',
  });
  expect(res.statusCode).toBe(200);
  return res.json().id as string;
}

async function subscribe(t: TestApp, user: SignedUp, planId: 'pro' | 'agency') {
  const res = await api(t, user, 'POST', '/payments/subscribe', {
    planId,
    paymentMethodId: await addCard(t, user),
  });
  expect(res.statusCode, res.body).toBe(200);
  expect((await api(t, user, 'GET', '/auth/me')).json().user.plan).toBe(planId);
}

async function cancelNow(t: TestApp, user: SignedUp) {
  const res = await api(t, user, 'POST', '/payments/cancel', { immediately: true });
  expect(res.statusCode).toBe(200);
  expect((await api(t, user, 'GET', '/auth/me')).json().user.plan).toBe('free');
}

/** An active custom domain serving a site, as a verified deploy leaves it. */
async function addActiveDomain(t: TestApp, ownerId: string, siteId: string, domain: string) {
  const now = new Date().toISOString();
  await t.app.database.db
    .insertInto('domains')
    .values({
      id: randomUUID(),
      owner_id: ownerId,
      kind: 'custom',
      domain,
      site_id: siteId,
      zone: domain.split('.').slice(1).join('.'),
      token: randomBytes(16).toString('hex'),
      status: 'active',
      verified_at: now,
      next_check_at: null,
      created_at: now,
      updated_at: now,
    })
    .execute();
  await t.app.domainRegistry.refresh();
}

const byHost = (t: TestApp, host: string, path = '/') =>
  t.app.inject({ url: path, headers: { host } });

const domainRow = (t: TestApp, domain: string) =>
  t.app.database.db
    .selectFrom('domains')
    .selectAll()
    .where('domain', '=', domain)
    .executeTakeFirst();

function rewrite(t: TestApp, user: SignedUp, cloneId: string) {
  return api(t, user, 'POST', '/domains/clone-with-ai', {
    sourceUrl: fixture.url,
    originalIdea: 'A cosy neighbourhood bakery',
    rewriteWithAI: true,
    cloneId,
    customizations: {},
  });
}

const paidAt = async (t: TestApp, siteId: string) =>
  (
    await t.app.database.db
      .selectFrom('sites')
      .select('ai_rewrite_paid_at')
      .where('id', '=', siteId)
      .executeTakeFirstOrThrow()
  ).ai_rewrite_paid_at;

describe('a downgrade stops scheduled syncs', () => {
  it('turns daily syncs off on an immediate cancel, and maintenance never starts a sync the plan does not allow', async () => {
    const t = await setup();
    const user = await signUp(t);
    await subscribe(t, user, 'pro');
    const older = await mirrorSite(t, fixture.url, user.headers);
    const newer = await mirrorSite(t, fixture.url, user.headers);
    for (const { id } of [older, newer]) {
      const res = await api(t, user, 'PUT', `/domains/clone/${id}`, { syncSchedule: 'daily' });
      expect(res.json()).toMatchObject({ syncSchedule: 'daily' });
    }

    // The billing screen's preview of a cancellation at the period's end.
    const preview = await api(
      t,
      user,
      'GET',
      '/payments/downgrade-preview?plan=free&at=period_end',
    );
    expect(preview.statusCode).toBe(200);
    const { subscription } = (await api(t, user, 'GET', '/payments/subscription')).json();
    expect(preview.json()).toMatchObject({
      plan: 'free',
      effectiveAt: new Date(subscription.current_period_end * 1000).toISOString(),
      sites: { count: 2, limit: 1, readOnly: [{ id: older.id }] },
      customDomains: { count: 0, limit: 0, detaching: [] },
      customSubdomain: false,
      chosenSubdomains: 0,
      graceDays: 14,
    });
    expect(
      preview
        .json()
        .syncsStopping.map((s: { id: string }) => s.id)
        .sort(),
    ).toEqual([older.id, newer.id].sort());

    await cancelNow(t, user);
    for (const { id } of [older, newer]) {
      const site = (await api(t, user, 'GET', `/domains/clone/${id}`)).json();
      expect(site.syncSchedule).toBe('off');
    }
    const db = t.app.database.db;
    const next = await db
      .selectFrom('sites')
      .select('next_sync_at')
      .where('owner_id', '=', user.userId)
      .execute();
    expect(next.map((r) => r.next_sync_at)).toEqual([null, null]);

    // A row left scheduled (a downgrade from before this check) is never synced: it is turned off.
    await db
      .updateTable('sites')
      .set({ sync_schedule: 'daily', next_sync_at: new Date(Date.now() - DAY).toISOString() })
      .where('owner_id', '=', user.userId)
      .execute();
    const versions = async () =>
      (
        await db
          .selectFrom('site_versions')
          .innerJoin('sites', 'sites.id', 'site_versions.site_id')
          .select('site_versions.id')
          .where('sites.owner_id', '=', user.userId)
          .execute()
      ).length;
    const before = await versions();
    expect(await t.app.sitesService.runMaintenance(new Date(Date.now() + 2 * DAY))).toMatchObject({
      synced: 0,
    });
    expect(await versions()).toBe(before);
    const after = await db
      .selectFrom('sites')
      .select(['sync_schedule', 'next_sync_at'])
      .where('owner_id', '=', user.userId)
      .execute();
    expect(after).toEqual([
      { sync_schedule: 'off', next_sync_at: null },
      { sync_schedule: 'off', next_sync_at: null },
    ]);

    // And the free plan cannot turn it on again.
    const again = await api(t, user, 'PUT', `/domains/clone/${newer.id}`, {
      syncSchedule: 'daily',
    });
    expect(again.statusCode).toBe(403);
    expect(again.json()).toEqual({ message: PLAN_LIMIT_MESSAGES.syncNeedsPlan });
  });
});

describe('subdomains after a downgrade', () => {
  it('mentions chosen subdomains only when the account has one', async () => {
    const t = await setup();
    const user = await signUp(t);
    await subscribe(t, user, 'pro');
    const site = await mirrorSite(t, fixture.url, user.headers);
    const preview = async () =>
      (await api(t, user, 'GET', '/payments/downgrade-preview?plan=free&at=period_end')).json();
    // A random subdomain (swift-harbor-4821) was not chosen: nothing to say about it.
    expect(await preview()).toMatchObject({ customSubdomain: false, chosenSubdomains: 0 });
    const renamed = await api(t, user, 'PUT', `/domains/clone/${site.id}`, {
      targetDomain: 'bakery',
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(await preview()).toMatchObject({ customSubdomain: false, chosenSubdomains: 1 });
  });
});

describe('sites beyond the plan', () => {
  it('refuses re-mirror, customization and rewrite of all but the newest sites, writing nothing; deleting sites frees them', async () => {
    const t = await setup();
    const user = await signUp(t);
    await subscribe(t, user, 'pro');
    const oldest = await mirrorSite(t, fixture.url, user.headers);
    const middle = await mirrorSite(t, fixture.url, user.headers);
    const newest = await mirrorSite(t, fixture.url, user.headers);
    await cancelNow(t, user);
    const db = t.app.database.db;
    // A rewrite paid for the oldest site: a refused rewrite does not use it.
    const paid = new Date().toISOString();
    await db
      .updateTable('sites')
      .set({ ai_rewrite_paid_at: paid })
      .where('id', '=', oldest.id)
      .execute();
    const snapshot = async () => ({
      sites: await db
        .selectFrom('sites')
        .selectAll()
        .where('owner_id', '=', user.userId)
        .orderBy('id')
        .execute(),
      versions: await db
        .selectFrom('site_versions')
        .innerJoin('sites', 'sites.id', 'site_versions.site_id')
        .selectAll('site_versions')
        .where('sites.owner_id', '=', user.userId)
        .orderBy('site_versions.id')
        .execute(),
    });
    const before = await snapshot();

    const message =
      'Your plan includes 1 mirrored site and you have 3. Only the most recently created one can be re-mirrored or customized: delete sites or upgrade to re-mirror or customize this one.';
    expect(PLAN_LIMIT_MESSAGES.siteReadOnly(1, 3)).toBe(message);
    for (const { id } of [oldest, middle]) {
      const attempts = [
        await api(t, user, 'POST', `/domains/clone/${id}/remirror`),
        await api(t, user, 'PUT', `/domains/clone/${id}/customize`, {
          customizations: { instructions: "Replace 'Version' with 'Release'." },
        }),
        await rewrite(t, user, id),
      ];
      expect(attempts.map((res) => [res.statusCode, res.json()])).toEqual([
        [403, { message }],
        [403, { message }],
        [403, { message }],
      ]);
    }
    expect(await snapshot()).toEqual(before);
    // Still served as they were.
    expect((await fromSite(t, oldest.previewUrl)).body).toContain('Version 1 /');

    // The newest site is the one the plan includes.
    const remirror = await api(t, user, 'POST', `/domains/clone/${newest.id}/remirror`);
    expect(remirror.statusCode).toBe(202);
    expect((await pollToEnd(t, newest.id, user.headers)).at(-1)!.status).toBe('completed');

    // Deleting sites down to the plan's number makes the one left editable again.
    for (const { id } of [newest, middle]) {
      expect((await api(t, user, 'DELETE', `/domains/clone/${id}`)).statusCode).toBe(200);
    }
    const freed = await api(t, user, 'POST', `/domains/clone/${oldest.id}/remirror`);
    expect(freed.statusCode).toBe(202);
    await pollToEnd(t, oldest.id, user.headers);
  }, 60_000);
});

describe('custom domains beyond the plan', () => {
  it('keep serving through the grace period, are detached after it, and the owner is mailed both times', async () => {
    const t = await setup();
    const user = await signUp(t);
    const email = await emailOf(t, user);
    await subscribe(t, user, 'pro');
    const site = await mirrorSite(t, fixture.url, user.headers);
    await addActiveDomain(t, user.userId, site.id, 'shop.grace-one.test');
    expect((await byHost(t, 'shop.grace-one.test', '/page-1.html')).body).toContain(
      'Version 1 /page-1.html',
    );

    const cancelledAt = Date.now();
    await cancelNow(t, user);
    const row = (await domainRow(t, 'shop.grace-one.test'))!;
    expect(row.detach_at).not.toBeNull();
    const deadline = Date.parse(row.detach_at!);
    expect(deadline - cancelledAt).toBeGreaterThan(GRACE_MS - 5_000);
    expect(deadline - cancelledAt).toBeLessThan(GRACE_MS + 60_000);

    const [announced] = await waitFor(() => {
      const mails = mailsTo(email);
      return mails.length > 0 ? mails : undefined;
    });
    expect(announced).toContain('Subject: Your Mirror plan is now Reflection: what changes');
    expect(announced).toContain('shop.grace-one.test');
    expect(announced).toContain(
      `These keep serving your sites until ${row.detach_at!.slice(0, 10)} (UTC), then they are detached`,
    );

    // The dashboard's notice: what is over the current plan, with the date.
    const notice = (await api(t, user, 'GET', '/payments/downgrade-preview')).json();
    expect(notice).toMatchObject({
      plan: 'free',
      customDomains: {
        count: 1,
        limit: 0,
        detaching: [{ domain: 'shop.grace-one.test', detachAt: row.detach_at }],
      },
    });

    // Before the deadline it still serves.
    await t.app.paymentsService.runMaintenance(new Date(deadline - 60_000));
    expect(await domainRow(t, 'shop.grace-one.test')).toBeDefined();
    expect((await byHost(t, 'shop.grace-one.test', '/page-1.html')).body).toContain(
      'Version 1 /page-1.html',
    );
    expect(mailsTo(email)).toHaveLength(1);

    // After it, the domain is detached; the site keeps its subdomain address.
    await t.app.paymentsService.runMaintenance(new Date(deadline + 1_000));
    expect(await domainRow(t, 'shop.grace-one.test')).toBeUndefined();
    expect((await byHost(t, 'shop.grace-one.test', '/page-1.html')).body).toContain('No site here');
    expect((await fromSite(t, site.previewUrl, '/page-1.html')).body).toContain(
      'Version 1 /page-1.html',
    );
    const detached = await waitFor(() => mailsTo(email)[1]);
    expect(detached).toContain('Subject: Custom domains detached from your Mirror sites');
    expect(detached).toContain('shop.grace-one.test');
  });

  it('are kept when the account upgrades again within the grace period', async () => {
    const t = await setup();
    const user = await signUp(t);
    await subscribe(t, user, 'pro');
    const site = await mirrorSite(t, fixture.url, user.headers);
    await addActiveDomain(t, user.userId, site.id, 'shop.grace-two.test');
    await cancelNow(t, user);
    expect((await domainRow(t, 'shop.grace-two.test'))!.detach_at).not.toBeNull();

    await subscribe(t, user, 'pro');
    expect((await domainRow(t, 'shop.grace-two.test'))!.detach_at).toBeNull();
    await t.app.paymentsService.runMaintenance(new Date(Date.now() + GRACE_MS + DAY));
    expect(await domainRow(t, 'shop.grace-two.test')).toBeDefined();
    expect((await byHost(t, 'shop.grace-two.test', '/page-1.html')).body).toContain(
      'Version 1 /page-1.html',
    );
  });

  it('get their deadline when a cancellation at the period end takes effect', async () => {
    const t = await setup();
    const user = await signUp(t);
    await subscribe(t, user, 'agency');
    const site = await mirrorSite(t, fixture.url, user.headers);
    for (const name of ['a', 'b', 'c']) {
      await addActiveDomain(t, user.userId, site.id, `${name}.grace-three.test`);
    }
    // Agency → Pro: Pro includes two custom domains, the most recently added.
    const changed = await api(t, user, 'PUT', '/payments/subscription', { planId: 'pro' });
    expect(changed.statusCode).toBe(200);
    const rows = async () =>
      (
        await t.app.database.db
          .selectFrom('domains')
          .select(['domain', 'detach_at'])
          .where('owner_id', '=', user.userId)
          .orderBy('created_at')
          .orderBy('id')
          .execute()
      ).map((r) => [r.domain, r.detach_at !== null]);
    expect((await rows()).filter(([, scheduled]) => scheduled)).toHaveLength(1);

    const cancelled = await api(t, user, 'POST', '/payments/cancel', { immediately: false });
    const periodEnd = cancelled.json().current_period_end as number;
    const preview = (
      await api(t, user, 'GET', '/payments/downgrade-preview?plan=free&at=period_end')
    ).json();
    expect(preview.customDomains.detaching).toHaveLength(3);
    expect(
      preview.customDomains.detaching.map((d: { detachAt: string }) => Date.parse(d.detachAt)),
    ).toContain(periodEnd * 1000 + GRACE_MS);

    await t.app.paymentsService.runMaintenance(new Date(periodEnd * 1000 + 1_000));
    expect((await api(t, user, 'GET', '/auth/me')).json().user.plan).toBe('free');
    expect((await rows()).every(([, scheduled]) => scheduled)).toBe(true);
  });
});

describe('the one-off AI rewrite payment', () => {
  /** A free user's mirrored site on a server with a model, and the $2 payment for its rewrite. */
  async function mirroredForRewrite() {
    const t = await setupWithModel();
    const user = await signUp(t);
    const site = await mirrorSite(t, fixture.url, user.headers);
    const card = await addCard(t, user);
    const pay = () =>
      api(t, user, 'POST', '/payments/ai-rewrite', { cloneId: site.id, paymentMethodId: card });
    return { t, user, site, pay };
  }

  it('opens one rewrite: a second one needs a second payment', async () => {
    const { t, user, site, pay } = await mirroredForRewrite();

    expect((await pay()).json()).toMatchObject({ status: 'succeeded' });
    expect((await rewrite(t, user, site.id)).statusCode).toBe(202);
    expect(await paidAt(t, site.id)).toBeNull();
    expect((await pollToEnd(t, site.id, user.headers)).at(-1)).toMatchObject({
      status: 'completed',
      currentStatus: 'rewrite draft ready for review',
    });

    const second = await rewrite(t, user, site.id);
    expect(second.statusCode).toBe(402);
    expect(second.json()).toEqual({ message: CUSTOMIZE_MESSAGES.paymentRequired });

    // A second payment opens a second rewrite; two requests at once cannot both use it.
    expect((await pay()).json()).toMatchObject({ status: 'succeeded' });
    const both = await Promise.all([rewrite(t, user, site.id), rewrite(t, user, site.id)]);
    expect(both.filter((res) => res.statusCode === 202)).toHaveLength(1);
    expect(await paidAt(t, site.id)).toBeNull();
    await pollToEnd(t, site.id, user.headers);
    expect((await rewrite(t, user, site.id)).statusCode).toBe(402);
  });

  it('gives the payment back when the rewrite run fails', async () => {
    const { t, user, site, pay } = await mirroredForRewrite();
    expect((await pay()).json()).toMatchObject({ status: 'succeeded' });
    const paid = await paidAt(t, site.id);

    // A run that cannot read the version it rewrites fails.
    const db = t.app.database.db;
    const live = (await api(t, user, 'GET', `/domains/clone/${site.id}`)).json().liveVersionId;
    const { manifest_hash: hash } = await db
      .selectFrom('site_versions')
      .select('manifest_hash')
      .where('id', '=', live)
      .executeTakeFirstOrThrow();
    await db
      .updateTable('site_versions')
      .set({ manifest_hash: null })
      .where('id', '=', live)
      .execute();
    expect((await rewrite(t, user, site.id)).statusCode).toBe(202);
    expect((await pollToEnd(t, site.id, user.headers)).at(-1)!.status).toBe('failed');
    expect(await paidAt(t, site.id)).toBe(paid);
    const twice = await pay();
    expect(twice.statusCode).toBe(409);
    expect(twice.json()).toEqual({ message: PAYMENT_MESSAGES.alreadyPaid });

    await db
      .updateTable('site_versions')
      .set({ manifest_hash: hash })
      .where('id', '=', live)
      .execute();
    expect((await rewrite(t, user, site.id)).statusCode).toBe(202);
    expect((await pollToEnd(t, site.id, user.headers)).at(-1)!.status).toBe('completed');
    expect(await paidAt(t, site.id)).toBeNull();
  });
});
