import { CUSTOMIZE_MESSAGES } from '@mirror/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  fromSite,
  mirrorSite,
  pollToEnd,
  SERVICE_ENV,
  signUp,
  type SignedUp,
} from '../../test/api-helpers.js';
import { startRevalidatingSite, type RevalidatingSite } from '../../test/revalidating-site.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';

/**
 * Issue 33: "Restore this page from the previous version" on a change report makes a draft. An
 * origin whose pricing page (and its picture) changes and whose /old page goes between two syncs.
 */

const PNG_9 = Buffer.from('89504e470d0a1a0a' + '09'.repeat(200), 'hex');
const PNG_12 = Buffer.from('89504e470d0a1a0a' + '12'.repeat(300), 'hex');
const html = (title: string, body: string) =>
  `<!doctype html><html><head><title>${title}</title></head><body>${body}</body></html>`;

interface Version {
  id: string;
  number: number;
  draft: boolean;
  isLive: boolean;
  previewUrl: string | null;
  edits: { index: number; description: string }[];
}

let t: TestApp;
let origin: RevalidatingSite;
let owner: SignedUp;
let site: { id: string; previewUrl: string };
/** The sync's version, whose report compares it with the first mirror. */
let synced: string;

const api = (method: 'GET' | 'POST', url: string, who: SignedUp = owner, payload?: object) =>
  t.app.inject({ method, url, headers: who.headers, ...(payload ? { payload } : {}) });
const restore = (path: string, who: SignedUp = owner, siteId = site.id) =>
  api('POST', `/api/domains/clone/${siteId}/versions/${synced}/changes/restore`, who, { path });
const versions = async (): Promise<Version[]> =>
  (await api('GET', `/api/domains/clone/${site.id}/versions`)).json();

beforeAll(async () => {
  origin = await startRevalidatingSite({
    '/': {
      type: 'text/html',
      body: html('Acme', '<h1>Acme</h1><a href="/pricing">Pricing</a> <a href="/old">Old news</a>'),
    },
    '/pricing': {
      type: 'text/html',
      body: html(
        'Pricing',
        '<h1>Pricing</h1><p>Pro costs $9 a month.</p><img src="/img/pro-9.png" alt="Pro">',
      ),
    },
    '/img/pro-9.png': { type: 'image/png', body: PNG_9 },
    '/old': { type: 'text/html', body: html('Old news', '<h1>Old news</h1><p>From 2019.</p>') },
  });
  t = await createTestApp(SERVICE_ENV);
  owner = await signUp(t, 'pro');
  site = await mirrorSite(t, origin.url, owner.headers);

  // The site changes: a new price with a new picture, and /old is gone.
  origin.files.set('/', {
    type: 'text/html',
    body: html('Acme', '<h1>Acme</h1><a href="/pricing">Pricing</a>'),
  });
  origin.files.set('/pricing', {
    type: 'text/html',
    body: html(
      'Pricing',
      '<h1>Pricing</h1><p>Pro costs $12 a month.</p><img src="/img/pro-12.png" alt="Pro">',
    ),
  });
  origin.files.set('/img/pro-12.png', { type: 'image/png', body: PNG_12 });
  origin.files.delete('/img/pro-9.png');
  origin.files.delete('/old');
  expect((await api('POST', `/api/domains/clone/${site.id}/remirror`)).statusCode).toBe(202);
  expect((await pollToEnd(t, site.id, owner.headers)).at(-1)!.status).toBe('completed');
  synced = (await versions()).find((v) => v.isLive)!.id;
  const report = (
    await api('GET', `/api/domains/clone/${site.id}/versions/${synced}/changes`)
  ).json();
  expect(report.report.pages.changed.map((p: { path: string }) => p.path)).toContain('/pricing');
  expect(report.report.pages.removed.map((p: { path: string }) => p.path)).toEqual(['/old']);
}, 60_000);

afterAll(async () => {
  await t.close();
  await origin.close();
});

describe('restoring a page from the previous version', { timeout: 60_000 }, () => {
  it('refuses a page the previous version lacks, other users, demos and busy sites, changing nothing', async () => {
    const before = await versions();

    const missing = await restore('/nope');
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toEqual({ message: CUSTOMIZE_MESSAGES.restoreNotInBase });

    const other = await signUp(t, 'pro');
    expect((await restore('/pricing', other)).statusCode).toBe(404);
    const visitor = await t.app.inject({
      method: 'POST',
      url: `/api/domains/clone/${site.id}/versions/${synced}/changes/restore`,
      payload: { path: '/pricing' },
    });
    expect(visitor.statusCode).toBe(401);

    const demo = await mirrorSite(t, origin.url, {}, { isDemo: true });
    const onDemo = await restore('/pricing', owner, demo.id);
    expect(onDemo.statusCode).toBe(403);
    expect(onDemo.json()).toEqual({ message: CUSTOMIZE_MESSAGES.demoRefused });

    expect((await versions()).map((v) => [v.id, v.draft, v.isLive])).toEqual(
      before.map((v) => [v.id, v.draft, v.isLive]),
    );

    // While a re-mirror runs (held at the origin's home page), the site is busy.
    const held = origin.hold('/');
    expect((await api('POST', `/api/domains/clone/${site.id}/remirror`)).statusCode).toBe(202);
    await held.arrived;
    const busy = await restore('/pricing');
    expect(busy.statusCode).toBe(409);
    expect(busy.json()).toEqual({ message: CUSTOMIZE_MESSAGES.busy });
    held.release();
    await pollToEnd(t, site.id, owner.headers);
    // Only the re-mirror's version is new; no draft was made.
    const after = await versions();
    expect(after).toHaveLength(before.length + 1);
    expect(after.filter((v) => v.draft)).toEqual([]);
  });

  it('makes a draft with the old page and its picture; publishing it serves them live', async () => {
    const started = await restore('/pricing');
    expect(started.statusCode).toBe(202);
    const readings = await pollToEnd(t, site.id, owner.headers);
    expect(readings.at(-1)).toMatchObject({ status: 'completed' });

    const draft = (await versions()).find((v) => v.draft)!;
    expect(draft.edits).toEqual([
      { index: 0, description: 'Bring back the page /pricing as it was in an earlier version' },
    ]);
    // The draft's preview has the old page, with its picture; the live site is as it was.
    const preview = await fromSite(t, draft.previewUrl!, '/pricing');
    expect(preview.body).toContain('Pro costs $9 a month.');
    const picture = await fromSite(t, draft.previewUrl!, '/img/pro-9.png');
    expect(picture.statusCode).toBe(200);
    expect(picture.rawPayload.equals(PNG_9)).toBe(true);
    // Only that page comes back: /old stays removed.
    expect((await fromSite(t, draft.previewUrl!, '/old')).statusCode).toBe(404);
    expect((await fromSite(t, site.previewUrl, '/pricing')).body).toContain(
      'Pro costs $12 a month.',
    );
    expect((await fromSite(t, site.previewUrl, '/img/pro-9.png')).statusCode).toBe(404);

    const published = await api(
      'POST',
      `/api/domains/clone/${site.id}/versions/${draft.id}/publish`,
    );
    expect(published.statusCode).toBe(200);
    expect((await fromSite(t, site.previewUrl, '/pricing')).body).toContain(
      'Pro costs $9 a month.',
    );
    const live = await fromSite(t, site.previewUrl, '/img/pro-9.png');
    expect(live.rawPayload.equals(PNG_9)).toBe(true);

    // A later sync keeps the restored page, as it keeps every published edit.
    expect((await api('POST', `/api/domains/clone/${site.id}/remirror`)).statusCode).toBe(202);
    expect((await pollToEnd(t, site.id, owner.headers)).at(-1)!.status).toBe('completed');
    expect((await fromSite(t, site.previewUrl, '/pricing')).body).toContain(
      'Pro costs $9 a month.',
    );
    const kept = await fromSite(t, site.previewUrl, '/img/pro-9.png');
    expect(kept.rawPayload.equals(PNG_9)).toBe(true);
  });

  it('brings a removed page back in a draft', async () => {
    expect((await restore('/old')).statusCode).toBe(202);
    await pollToEnd(t, site.id, owner.headers);
    const draft = (await versions()).find((v) => v.draft)!;
    const page = await fromSite(t, draft.previewUrl!, '/old');
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('From 2019.');
    expect((await fromSite(t, site.previewUrl, '/old')).statusCode).toBe(404);
  });
});
