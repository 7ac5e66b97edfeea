import { randomUUID } from 'node:crypto';
import { PLAN_LIMIT_MESSAGES, TEST_CARDS } from '@mirror/contract';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createSiteVersions } from '../../modules/sites/site-versions.js';
import {
  fromSite,
  mirrorSite,
  pollToEnd,
  SERVICE_ENV,
  signUp,
  type SignedUp,
} from '../../test/api-helpers.js';
import { startFixtureSite, type FixtureSite } from '../../test/fixture-site.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';

/**
 * Issue 30, item 2: every path that publishes a version goes through one gate the plan rules
 * decide. A site beyond its owner's plan is read-only: a re-mirror, a customization, an AI rewrite,
 * a fidelity re-check (whose repair would publish), a rollback and a scheduled sync are all refused
 * the same way, and a run already under way when the plan drops does not publish either.
 */

const DAY = 86_400_000;
const NEXT_YEAR = new Date().getUTCFullYear() + 1;

let fixture: FixtureSite;
beforeAll(async () => {
  fixture = await startFixtureSite();
});
afterAll(async () => {
  await fixture.close();
});

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  fixture.delayMs = 0;
  fixture.version = 1;
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function setup() {
  const t = await createTestApp({ ...SERVICE_ENV, SITES_DOMAIN: 'sites.mirror.test' });
  cleanups.push(() => t.close());
  return t;
}

function api(
  t: TestApp,
  user: SignedUp,
  method: 'GET' | 'POST' | 'PUT',
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

async function subscribe(t: TestApp, user: SignedUp, planId: 'pro' | 'agency') {
  const card = await api(t, user, 'POST', '/payments/test/payment-methods', {
    number: TEST_CARDS.succeeds,
    expMonth: 12,
    expYear: NEXT_YEAR,
    cvc: '123',
  });
  const res = await api(t, user, 'POST', '/payments/subscribe', {
    planId,
    paymentMethodId: card.json().id,
  });
  expect(res.statusCode, res.body).toBe(200);
}

/** Sites the account made after `after` (as mirrored sites, without their files: only counted). */
async function addNewerSites(t: TestApp, ownerId: string, count: number, after: Date) {
  for (let i = 1; i <= count; i++) {
    const at = new Date(after.getTime() + i * 1_000).toISOString();
    await t.app.database.db
      .insertInto('sites')
      .values({
        id: randomUUID(),
        owner_id: ownerId,
        source_url: fixture.url,
        subdomain: `newer-${randomUUID().slice(0, 8)}`,
        status: 'completed',
        created_at: at,
        updated_at: at,
      })
      .execute();
  }
}

/** Everything the account's sites are: rows and versions. */
async function snapshot(t: TestApp, ownerId: string) {
  const db = t.app.database.db;
  return {
    sites: await db
      .selectFrom('sites')
      .selectAll()
      .where('owner_id', '=', ownerId)
      .orderBy('id')
      .execute(),
    versions: await db
      .selectFrom('site_versions')
      .innerJoin('sites', 'sites.id', 'site_versions.site_id')
      .selectAll('site_versions')
      .where('sites.owner_id', '=', ownerId)
      .orderBy('site_versions.id')
      .execute(),
  };
}

describe('the publish gate', () => {
  it(
    'refuses re-mirror, customize, rewrite, fidelity re-check, rollback, repair and scheduled sync of a read-only site with one 403',
    { timeout: 180_000 },
    async () => {
      const t = await setup();
      const user = await signUp(t);
      await subscribe(t, user, 'agency');
      const older = await mirrorSite(t, fixture.url, user.headers);
      fixture.version = 2;
      expect((await api(t, user, 'POST', `/domains/clone/${older.id}/remirror`)).statusCode).toBe(
        202,
      );
      expect((await pollToEnd(t, older.id, user.headers)).at(-1)!.status).toBe('completed');
      const set = await api(t, user, 'PUT', `/domains/clone/${older.id}`, {
        syncSchedule: 'daily',
      });
      expect(set.json()).toMatchObject({ syncSchedule: 'daily' });
      const [first, second] = (
        await api(t, user, 'GET', `/domains/clone/${older.id}/versions`)
      ).json() as { id: string; number: number }[];
      expect([first!.number, second!.number].sort()).toEqual([1, 2]);
      const v1 = first!.number === 1 ? first! : second!;

      // Agency → Pro with six sites: Pro includes five, so the oldest is read-only (on a plan that
      // has scheduled sync, so only the gate stops its sync).
      await addNewerSites(t, user.userId, 5, new Date());
      const changed = await api(t, user, 'PUT', '/payments/subscription', { planId: 'pro' });
      expect(changed.statusCode).toBe(200);
      expect((await api(t, user, 'GET', '/auth/me')).json().user.plan).toBe('pro');

      const message = PLAN_LIMIT_MESSAGES.siteReadOnly(5, 6);
      const db = t.app.database.db;
      // A row left scheduled and due (the downgrade turned it off; nothing else may start it).
      await db
        .updateTable('sites')
        .set({ sync_schedule: 'daily', next_sync_at: new Date(Date.now() - DAY).toISOString() })
        .where('id', '=', older.id)
        .execute();
      const before = await snapshot(t, user.userId);

      const attempts = {
        remirror: await api(t, user, 'POST', `/domains/clone/${older.id}/remirror`),
        customize: await api(t, user, 'PUT', `/domains/clone/${older.id}/customize`, {
          customizations: { instructions: "Replace 'Version' with 'Release'." },
        }),
        rewrite: await api(t, user, 'POST', '/domains/clone-with-ai', {
          sourceUrl: fixture.url,
          originalIdea: 'A cosy neighbourhood bakery',
          rewriteWithAI: true,
          cloneId: older.id,
          customizations: {},
        }),
        fidelity: await api(t, user, 'POST', `/domains/clone/${older.id}/fidelity`, {}),
        fidelityPages: await api(t, user, 'POST', `/domains/clone/${older.id}/fidelity`, {
          paths: ['/'],
        }),
        rollback: await api(
          t,
          user,
          'POST',
          `/domains/clone/${older.id}/versions/${v1.id}/publish`,
        ),
      };
      expect(
        Object.fromEntries(
          Object.entries(attempts).map(([path, res]) => [path, [res.statusCode, res.json()]]),
        ),
      ).toEqual({
        remirror: [403, { message }],
        customize: [403, { message }],
        rewrite: [403, { message }],
        fidelity: [403, { message }],
        fidelityPages: [403, { message }],
        rollback: [403, { message }],
      });

      // A fidelity check already under way publishes its repair through the same gate.
      const versions = createSiteVersions({ db, blobs: t.app.blobs });
      const site = (await api(t, user, 'GET', `/domains/clone/${older.id}`)).json();
      const live = (await versions.find(site.liveVersionId))!;
      const repaired = await versions.publishRepair(
        older.id,
        live.id,
        { manifestHash: live.manifest_hash!, stats: { pages: 4, assets: 2, bytes: 1 }, failed: 0 },
        ['Captured again after the fidelity check: /'],
        async () => null,
      );
      expect(repaired).toBeNull();

      // The scheduled sync is turned off instead of run.
      const maintenance = await t.app.sitesService.runMaintenance(new Date(Date.now() + DAY));
      expect(maintenance.synced).toBe(0);

      const after = await snapshot(t, user.userId);
      expect(after.versions).toEqual(before.versions);
      expect(after.sites.find((s) => s.id === older.id)).toEqual({
        ...before.sites.find((s) => s.id === older.id),
        sync_schedule: 'off',
        next_sync_at: null,
        updated_at: expect.any(String),
      });
      // Still served as it was.
      expect((await fromSite(t, older.previewUrl)).body).toContain('Version 2 /');

      // Back on Agency, the same site publishes again.
      const upgraded = await api(t, user, 'PUT', '/payments/subscription', { planId: 'agency' });
      expect(upgraded.statusCode).toBe(200);
      const rollback = await api(
        t,
        user,
        'POST',
        `/domains/clone/${older.id}/versions/${v1.id}/publish`,
      );
      expect(rollback.statusCode).toBe(200);
      expect((await fromSite(t, older.previewUrl)).body).toContain('Version 1 /');
    },
  );

  it(
    'does not publish a re-mirror that was under way when the plan dropped',
    { timeout: 180_000 },
    async () => {
      const t = await setup();
      const user = await signUp(t);
      await subscribe(t, user, 'pro');
      const older = await mirrorSite(t, fixture.url, user.headers);
      await mirrorSite(t, fixture.url, user.headers);
      const liveBefore = (await api(t, user, 'GET', `/domains/clone/${older.id}`)).json()
        .liveVersionId as string;

      // A slow origin keeps the run going while the plan drops to Reflection (one site).
      fixture.version = 2;
      fixture.delayMs = 1_500;
      const started = await api(t, user, 'POST', `/domains/clone/${older.id}/remirror`);
      expect(started.statusCode).toBe(202);
      const cancel = await api(t, user, 'POST', '/payments/cancel', { immediately: true });
      expect(cancel.statusCode).toBe(200);
      expect((await api(t, user, 'GET', '/auth/me')).json().user.plan).toBe('free');

      const end = (await pollToEnd(t, older.id, user.headers)).at(-1)!;
      const message = PLAN_LIMIT_MESSAGES.siteReadOnly(1, 2);
      expect(end).toMatchObject({ status: 'failed', error: message });
      const site = (await api(t, user, 'GET', `/domains/clone/${older.id}`)).json();
      expect(site).toMatchObject({ liveVersionId: liveBefore, errorKind: 'plan-limit' });
      fixture.delayMs = 0;
      expect((await fromSite(t, older.previewUrl)).body).toContain('Version 1 /');
    },
  );
});
