import { randomUUID } from 'node:crypto';
import type { PlanId } from '@mirror/contract';
import { afterEach, describe, expect, it } from 'vitest';
import type { SiteStatus } from '../../platform/db/schema.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';

// Issue 31, item 1: a sign-up claims the demo the visitor acted on, then completed mirrors newest
// first; a failed demo never takes one of the plan's slots.

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

let clock = Date.parse('2025-03-01T10:00:00.000Z');

/** A visitor's demo record, each one made a minute after the last. */
async function insertDemo(app: TestApp, status: SiteStatus): Promise<string> {
  const id = randomUUID();
  clock += 60_000;
  const at = new Date(clock).toISOString();
  await app.app.database.db
    .insertInto('sites')
    .values({
      id,
      owner_id: null,
      is_demo: 1,
      source_url: `https://${status}.example.com`,
      subdomain: null,
      status,
      created_at: at,
      updated_at: at,
    })
    .execute();
  return id;
}

async function signUp(app: TestApp, plan: PlanId = 'free', body: Record<string, unknown> = {}) {
  const email = `ada-${randomUUID().slice(0, 8)}@example.com`;
  const res = await app.app.inject({
    method: 'POST',
    url: '/api/auth/register',
    payload: { name: 'Ada Lovelace', email, password: 'correct horse battery', ...body },
  });
  expect(res.statusCode).toBe(201);
  if (plan !== 'free') {
    await app.app.database.db
      .updateTable('users')
      .set({ plan })
      .where('email', '=', email)
      .execute();
  }
  return res.json<{ token: string; demoSitesClaimed?: unknown; user: { id: string } }>();
}

function claim(app: TestApp, token: string, payload: Record<string, unknown>) {
  return app.app.inject({
    method: 'POST',
    url: '/api/auth/claim-demos',
    headers: { authorization: `Bearer ${token}` },
    payload,
  });
}

async function ownerOf(app: TestApp, id: string) {
  const row = await app.app.database.db
    .selectFrom('sites')
    .select(['owner_id', 'is_demo'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  return row.owner_id;
}

describe('claiming demos after sign-up (issue 31, item 1)', () => {
  it('gives the free slot to the demo the visitor acted on, not to older failed ones', async () => {
    const app = (t = await createTestApp());
    // Two addresses that failed, then a blog that completed: the visitor registers from the blog.
    const refused = await insertDemo(app, 'failed');
    const notFound = await insertDemo(app, 'failed');
    const blog = await insertDemo(app, 'completed');
    const { token, user } = await signUp(app);

    const res = await claim(app, token, { demoSiteIds: [refused, notFound, blog], firstId: blog });
    expect(res.statusCode).toBe(200);
    expect(res.json().claimedIds).toEqual([blog]);
    expect(await ownerOf(app, blog)).toBe(user.id);
    expect(await ownerOf(app, refused)).toBeNull();
    expect(await ownerOf(app, notFound)).toBeNull();
  });

  it('without a chosen demo, takes completed mirrors newest first, then running ones', async () => {
    const app = (t = await createTestApp());
    const olderDone = await insertDemo(app, 'completed');
    const failed = await insertDemo(app, 'failed');
    const newerDone = await insertDemo(app, 'completed');
    const running = await insertDemo(app, 'processing');
    const ids = [olderDone, failed, newerDone, running];

    const free = await signUp(app);
    const one = await claim(app, free.token, { demoSiteIds: ids });
    expect(one.json().claimedIds).toEqual([newerDone]);
    expect(one.json().message).toMatch(/mirror limit/);

    const pro = await signUp(app, 'pro');
    const rest = await claim(app, pro.token, { demoSiteIds: ids });
    // The failed demo is never claimed, even with room to spare.
    expect(rest.json().claimedIds).toEqual([olderDone, running]);
    expect(await ownerOf(app, failed)).toBeNull();
  });

  it('never claims a failed demo, even the one acted on', async () => {
    const app = (t = await createTestApp());
    const done = await insertDemo(app, 'completed');
    const failed = await insertDemo(app, 'failed');
    const { token } = await signUp(app);
    const res = await claim(app, token, { demoSiteIds: [done, failed], firstId: failed });
    expect(res.json().claimedIds).toEqual([done]);
    expect(res.json().message).toBe(
      'Claimed 1 demo site. The others failed, no longer exist or were already claimed.',
    );
  });

  it('claims the chosen demo even when it is missing from the list', async () => {
    const app = (t = await createTestApp());
    const listed = await insertDemo(app, 'completed');
    const chosen = await insertDemo(app, 'completed');
    const { token } = await signUp(app, 'pro');
    const res = await claim(app, token, { demoSiteIds: [listed], firstId: chosen });
    expect(res.json().claimedIds).toEqual([chosen, listed]);
  });

  it('leaves failed demos out of a claim made by the sign-up itself', async () => {
    const app = (t = await createTestApp());
    const failed = await insertDemo(app, 'failed');
    const done = await insertDemo(app, 'completed');
    const answer = await signUp(app, 'free', { demoSiteIds: [failed, done] });
    expect(answer.demoSitesClaimed).toEqual({ success: true, claimedCount: 1 });
    expect(await ownerOf(app, done)).toBe(answer.user.id);
    expect(await ownerOf(app, failed)).toBeNull();
  });

  it('refuses a chosen id that is not an id', async () => {
    const app = (t = await createTestApp());
    const { token } = await signUp(app);
    const res = await claim(app, token, { demoSiteIds: [], firstId: '../etc' });
    expect(res.statusCode).toBe(400);
  });
});
