import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Manifest } from '@mirror/engine';
import { readBlob } from '@mirror/engine';
import { afterEach, describe, expect, it } from 'vitest';
import { startFixtureSite } from '../../test/fixture-site.js';
import { startOpenAiServer, type ScriptedAnswer } from '../../test/openai-server.js';
import { fromSite, mirrorSite, pollToEnd, SERVICE_ENV, signUp } from '../../test/api-helpers.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const PAYMENT_REQUIRED =
  'Payment required for AI rewrite. Upgrade to Mirror Pro or pay the one-off $2 to rewrite this site.';

async function setup(options: { model?: ScriptedAnswer[] } = {}) {
  const site = await startFixtureSite();
  cleanups.push(() => site.close());
  const env: Record<string, string> = { ...SERVICE_ENV };
  let ai: Awaited<ReturnType<typeof startOpenAiServer>> | undefined;
  if (options.model) {
    ai = await startOpenAiServer(options.model);
    cleanups.push(() => ai!.close());
    Object.assign(env, { AI_BASE_URL: ai.baseURL, AI_MODEL: 'test-model', AI_API_KEY: 'sk-t' });
  }
  const t = await createTestApp(env);
  cleanups.push(() => t.close());
  return { site, t, ai };
}

interface Version {
  id: string;
  number: number;
  status: string;
  isLive: boolean;
  kind: string;
  draft: boolean;
  changes: string[];
  unparsed: string[];
  instructions: string | null;
  error: string | null;
  previewUrl: string | null;
}

async function versionsOf(t: TestApp, id: string, headers: Record<string, string>) {
  return (
    await t.app.inject({ url: `/api/domains/clone/${id}/versions`, headers })
  ).json() as Version[];
}

function customize(
  t: TestApp,
  id: string,
  headers: Record<string, string>,
  customizations: object,
) {
  return t.app.inject({
    method: 'PUT',
    url: `/api/domains/clone/${id}/customize`,
    headers,
    payload: { customizations, regenerate: true },
  });
}

async function manifestOf(t: TestApp, versionId: string): Promise<Manifest> {
  const row = await t.app.database.db
    .selectFrom('site_versions')
    .select('manifest_hash')
    .where('id', '=', versionId)
    .executeTakeFirstOrThrow();
  return JSON.parse((await readBlob(t.app.blobs, row.manifest_hash!)).toString('utf8')) as Manifest;
}

describe('AI customization of mirrored sites', () => {
  it('applies aiInstructions given at clone time, so the served page shows the change', async () => {
    const { site, t } = await setup();
    const pro = await signUp(t, 'pro');
    const { id, previewUrl, readings } = await mirrorSite(t, site.url, pro.headers, {
      aiInstructions: "Replace 'Version' with 'Edition'. Set the title to 'Globex'.",
    });
    const last = readings[readings.length - 1]!;
    expect(last).toMatchObject({ status: 'completed', progress: 1 });
    const progress = readings.map((r) => r.progress);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));

    const page = await fromSite(t, previewUrl);
    expect(page.body).toContain('Edition 1 /');
    expect(page.body).toContain('<title>Globex</title>');
    expect((await fromSite(t, previewUrl, '/page-2.html')).body).toContain(
      'Edition 1 /page-2.html',
    );

    const versions = await versionsOf(t, id, pro.headers);
    expect(versions.map((v) => [v.number, v.kind, v.isLive, v.draft])).toEqual([
      [2, 'customize', true, false],
      [1, 'mirror', false, false],
    ]);
    expect(versions[0]!.instructions).toContain("Replace 'Version' with 'Edition'");
    expect(versions[0]!.changes.join('\n')).toMatch(/Replaced 'Version' with 'Edition'/);
    expect(versions[1]).toMatchObject({ changes: [], unparsed: [], instructions: null });
  });

  it('customizes the live version into a new one that shares unchanged files, and rolls back', async () => {
    const { site, t } = await setup();
    const free = await signUp(t);
    const { id, previewUrl } = await mirrorSite(t, site.url, free.headers);
    const res = await customize(t, id, free.headers, {
      instructions: "Replace 'Version' with 'Release'. Make it pop.",
      ops: [{ op: 'changeColor', from: 'rgb(40, 20, 20)', to: '#00aa77' }],
    });
    expect(res.statusCode).toBe(202);
    expect(res.json()).toMatchObject({ id, status: 'pending' });
    const readings = await pollToEnd(t, id, free.headers);
    expect(readings[readings.length - 1]).toMatchObject({
      status: 'completed',
      currentStatus: 'customization applied',
    });
    expect((await fromSite(t, previewUrl)).body).toContain('Release 1 /');
    expect((await fromSite(t, previewUrl, '/style.css')).body).toContain('#00aa77');

    const [custom, original] = await versionsOf(t, id, free.headers);
    expect(custom).toMatchObject({ kind: 'customize', isLive: true, unparsed: ['Make it pop.'] });
    expect(custom!.changes).toHaveLength(2);
    const before = await manifestOf(t, original!.id);
    const after = await manifestOf(t, custom!.id);
    const hashOf = (m: Manifest, p: string) => m.entries.find((e) => e.path === p)?.hash;
    expect(hashOf(after, '/logo.svg')).toBe(hashOf(before, '/logo.svg'));
    expect(hashOf(after, '/')).not.toBe(hashOf(before, '/'));
    expect(hashOf(after, '/style.css')).not.toBe(hashOf(before, '/style.css'));
    expect(after.entries.map((e) => e.path).sort()).toEqual(
      before.entries.map((e) => e.path).sort(),
    );

    const rollback = await t.app.inject({
      method: 'POST',
      url: `/api/domains/clone/${id}/versions/${original!.id}/publish`,
      headers: free.headers,
    });
    expect(rollback.statusCode).toBe(200);
    expect((await fromSite(t, previewUrl)).body).toContain('Version 1 /');

    expect((await customize(t, id, free.headers, {})).statusCode).toBe(400);
  });

  it('re-applies the edits of the live version when the site is mirrored again', async () => {
    const { site, t } = await setup();
    const owner = await signUp(t);
    const { id, previewUrl } = await mirrorSite(t, site.url, owner.headers);
    await customize(t, id, owner.headers, { instructions: "replace 'Version' with 'Edition'" });
    expect((await pollToEnd(t, id, owner.headers)).at(-1)!.status).toBe('completed');
    await customize(t, id, owner.headers, { instructions: 'set the title to "Edited"' });
    expect((await pollToEnd(t, id, owner.headers)).at(-1)!.status).toBe('completed');

    const remirror = await t.app.inject({
      method: 'POST',
      url: `/api/domains/clone/${id}/remirror`,
      headers: owner.headers,
    });
    expect(remirror.statusCode).toBe(202);
    const readings = await pollToEnd(t, id, owner.headers);
    expect(readings.at(-1)!.status).toBe('completed');
    const page = (await fromSite(t, previewUrl)).body;
    expect(page).toContain('Edition 1 /');
    expect(page).toContain('<title>Edited</title>');
    const versions = await versionsOf(t, id, owner.headers);
    expect(versions.map((v) => [v.kind, v.isLive])).toEqual([
      ['customize', true],
      ['mirror', false],
      ['customize', false],
      ['customize', false],
      ['mirror', false],
    ]);
    expect(versions[0]!.instructions).toBeNull();
    expect(versions[0]!.changes.join('\n')).toMatch(/Edition/);

    // After a rollback to the plain mirror, a re-mirror carries nothing.
    await t.app.inject({
      method: 'POST',
      url: `/api/domains/clone/${id}/versions/${versions[1]!.id}/publish`,
      headers: owner.headers,
    });
    await t.app.inject({
      method: 'POST',
      url: `/api/domains/clone/${id}/remirror`,
      headers: owner.headers,
    });
    expect((await pollToEnd(t, id, owner.headers)).at(-1)!.status).toBe('completed');
    expect((await fromSite(t, previewUrl)).body).toContain('Version 1 /');
    expect((await versionsOf(t, id, owner.headers))[0]).toMatchObject({
      kind: 'mirror',
      isLive: true,
    });
  });

  it('fails a run whose instructions mean nothing, leaving the live version as it was', async () => {
    const { site, t } = await setup();
    const owner = await signUp(t);
    const { id, previewUrl } = await mirrorSite(t, site.url, owner.headers);
    expect(
      (await customize(t, id, owner.headers, { instructions: 'make it pop' })).statusCode,
    ).toBe(202);
    const last = (await pollToEnd(t, id, owner.headers)).at(-1)!;
    expect(last.status).toBe('failed');
    expect(last.error).toBe('None of the instructions could be understood: make it pop');
    expect((await fromSite(t, previewUrl)).body).toContain('Version 1 /');
  });

  it('keeps a font a plan links to inside the copy, or drops the link with a note', async () => {
    const fonts = http.createServer((req, res) => {
      if (req.url?.startsWith('/css2'))
        return res
          .writeHead(200, { 'content-type': 'text/css' })
          .end("@font-face{font-family:'Inter';src:url(/inter.woff2) format('woff2')}");
      if (req.url === '/inter.woff2')
        return res.writeHead(200, { 'content-type': 'font/woff2' }).end('wOF2fake');
      res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => fonts.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => new Promise<void>((resolve) => fonts.close(() => resolve())));
    const fontHost = `127.0.0.1:${(fonts.address() as AddressInfo).port}`;

    const { site, t } = await setup();
    const owner = await signUp(t);
    const { id, previewUrl } = await mirrorSite(t, site.url, owner.headers);
    await customize(t, id, owner.headers, {
      ops: [
        {
          op: 'changeFont',
          family: 'Inter',
          stylesheetUrl: `http://${fontHost}/css2?family=Inter`,
        },
      ],
    });
    expect((await pollToEnd(t, id, owner.headers)).at(-1)!.status).toBe('completed');
    const page = (await fromSite(t, previewUrl)).body;
    expect(page).toContain(`href="/_x/${fontHost}/css2?family=Inter"`);
    expect(page).not.toContain(`http://${fontHost}`);
    const css = await fromSite(t, previewUrl, `/_x/${fontHost}/css2?family=Inter`);
    expect(css.body).toContain(`url(/_x/${fontHost}/inter.woff2)`);
    expect((await fromSite(t, previewUrl, `/_x/${fontHost}/inter.woff2`)).body).toBe('wOF2fake');

    await customize(t, id, owner.headers, {
      ops: [{ op: 'changeFont', family: 'Lato', stylesheetUrl: `http://${fontHost}/missing.css` }],
    });
    expect((await pollToEnd(t, id, owner.headers)).at(-1)!.status).toBe('completed');
    const second = (await fromSite(t, previewUrl)).body;
    expect(second).not.toContain('missing.css');
    expect(second).toContain('"Lato"');
    expect((await versionsOf(t, id, owner.headers))[0]!.changes.join('\n')).toMatch(
      /font 'Lato' could not be downloaded/,
    );
  });

  it('answers 404 for other users, refuses demos, and needs a sign-in for rewrites', async () => {
    const { site, t } = await setup();
    const owner = await signUp(t);
    const other = await signUp(t, 'pro');
    const { id } = await mirrorSite(t, site.url, owner.headers);
    const versions = await versionsOf(t, id, owner.headers);
    expect((await customize(t, id, other.headers, { instructions: "title: 'x'" })).statusCode).toBe(
      404,
    );
    const rewrite = await t.app.inject({
      method: 'POST',
      url: '/api/domains/clone-with-ai',
      headers: other.headers,
      payload: { sourceUrl: site.url, originalIdea: 'A bakery', rewriteWithAI: true, cloneId: id },
    });
    expect(rewrite.statusCode).toBe(404);
    const discard = await t.app.inject({
      method: 'DELETE',
      url: `/api/domains/clone/${id}/versions/${versions[0]!.id}`,
      headers: other.headers,
    });
    expect(discard.statusCode).toBe(404);

    const demo = (
      await t.app.inject({
        method: 'POST',
        url: '/api/domains/clone',
        payload: { sourceUrl: site.url, isDemo: true },
      })
    ).json();
    await pollToEnd(t, demo.id);
    for (const headers of [{}, owner.headers]) {
      const res = await customize(t, demo.id, headers, { instructions: "title: 'x'" });
      expect(res.statusCode).toBe(403);
      expect(res.json().message).toMatch(/Demo sites cannot be customized/);
    }
    const guest = await t.app.inject({
      method: 'POST',
      url: '/api/domains/clone-with-ai',
      payload: { sourceUrl: site.url, originalIdea: 'A bakery', rewriteWithAI: true },
    });
    expect(guest.statusCode).toBe(401);
  });
});

describe('AI rewrite (idea mode)', () => {
  it('asks free users to pay, then rewrites with the built-in engine and says what it could not do', async () => {
    const { site, t } = await setup();
    const free = await signUp(t);
    expect((await t.app.inject({ url: '/api/domains/ai-rewrite-pricing' })).json()).toEqual({
      amount: 200,
      currency: 'usd',
    });
    const { id, previewUrl } = await mirrorSite(t, site.url, free.headers);
    const payload = {
      sourceUrl: site.url,
      originalIdea: 'A cosy neighbourhood bakery. Fresh bread every morning.',
      aiInstructions: 'Make it warm and friendly',
      rewriteWithAI: true,
      cloneId: id,
      customizations: {},
    };
    const refused = await t.app.inject({
      method: 'POST',
      url: '/api/domains/clone-with-ai',
      headers: free.headers,
      payload,
    });
    expect(refused.statusCode).toBe(402);
    expect(refused.json()).toEqual({ message: PAYMENT_REQUIRED });
    const fresh = await t.app.inject({
      method: 'POST',
      url: '/api/domains/clone-with-ai',
      headers: free.headers,
      payload: { ...payload, cloneId: undefined },
    });
    expect(fresh.statusCode).toBe(402);

    // The payments issue records the one-off payment on the site.
    await t.app.database.db
      .updateTable('sites')
      .set({ ai_rewrite_paid_at: new Date().toISOString() })
      .where('id', '=', id)
      .execute();
    const paid = await t.app.inject({
      method: 'POST',
      url: '/api/domains/clone-with-ai',
      headers: free.headers,
      payload,
    });
    expect(paid.statusCode).toBe(202);
    expect(paid.json()).toEqual({ id, previewUrl });
    expect((await pollToEnd(t, id, free.headers)).at(-1)).toMatchObject({
      status: 'completed',
      currentStatus: 'rewrite draft ready for review',
    });
    const [draft] = await versionsOf(t, id, free.headers);
    expect(draft).toMatchObject({ kind: 'rewrite', draft: true, isLive: false });
    expect(draft!.unparsed).toContain('Make it warm and friendly');
    expect(draft!.unparsed.join(' ')).toMatch(/needs an AI model \(AI_BASE_URL\)/);
    expect(draft!.instructions).toContain('Rewrite for: A cosy neighbourhood bakery');
    expect((await fromSite(t, previewUrl)).body).toContain('<title>Fixture v1</title>');
    await t.app.inject({
      method: 'POST',
      url: `/api/domains/clone/${id}/versions/${draft!.id}/publish`,
      headers: free.headers,
    });
    const page = (await fromSite(t, previewUrl)).body;
    expect(page).toContain('<title>A cosy neighbourhood bakery</title>');
    expect(page).toContain('<h1>A cosy neighbourhood bakery</h1>');
    expect(page).toContain('content="A cosy neighbourhood bakery. Fresh bread every morning."');
  });

  it('rewrites with the model into a draft served only once published; drafts can be discarded', async () => {
    const plan = JSON.stringify({
      ops: [
        { op: 'replaceText', find: 'Version', replace: 'Fresh bread' },
        { op: 'setTitle', title: 'Bakery' },
      ],
      summary: 'Bakery copy',
      unparsed: [],
    });
    const { site, t, ai } = await setup({ model: [{ content: plan }] });
    const pro = await signUp(t, 'pro');
    const { id, previewUrl } = await mirrorSite(t, site.url, pro.headers);
    const rewrite = () =>
      t.app.inject({
        method: 'POST',
        url: '/api/domains/clone-with-ai',
        headers: pro.headers,
        payload: {
          sourceUrl: site.url,
          originalIdea: 'A bakery',
          rewriteWithAI: true,
          cloneId: id,
        },
      });
    expect((await rewrite()).statusCode).toBe(202);
    await pollToEnd(t, id, pro.headers);
    const prompt = ai!.requests[0]!.body.messages.map((m) => m.content).join('\n');
    expect(prompt).toContain('A bakery');
    expect(prompt).toContain('"selector":"h1"');
    expect(prompt).not.toContain('<html');

    const [draft, live] = await versionsOf(t, id, pro.headers);
    expect(draft).toMatchObject({
      kind: 'rewrite',
      draft: true,
      isLive: false,
      status: 'completed',
    });
    expect(draft!.changes.join('\n')).toMatch(/Fresh bread/);
    expect((await fromSite(t, previewUrl)).body).toContain('Version 1 /');
    // The draft can be looked at on its own preview host before anyone publishes it.
    expect(live!.previewUrl).toBeNull();
    expect(draft!.previewUrl).toMatch(/^http:\/\/v-[0-9a-f]{32}\.localhost:\d+\/$/);
    const draftPage = await fromSite(t, draft!.previewUrl!);
    expect(draftPage.statusCode).toBe(200);
    expect(draftPage.body).toContain('Fresh bread 1 /');

    const discardLive = await t.app.inject({
      method: 'DELETE',
      url: `/api/domains/clone/${id}/versions/${live!.id}`,
      headers: pro.headers,
    });
    expect(discardLive.statusCode).toBe(409);
    expect(discardLive.json().message).toBe('The live version cannot be discarded.');

    const publish = await t.app.inject({
      method: 'POST',
      url: `/api/domains/clone/${id}/versions/${draft!.id}/publish`,
      headers: pro.headers,
    });
    expect(publish.statusCode).toBe(200);
    const page = (await fromSite(t, previewUrl)).body;
    expect(page).toContain('Fresh bread 1 /');
    expect(page).toContain('<title>Bakery</title>');

    // A second draft is discarded; the one published before is not a draft any more.
    expect((await rewrite()).statusCode).toBe(202);
    await pollToEnd(t, id, pro.headers);
    const [second, published, mirror] = await versionsOf(t, id, pro.headers);
    expect([second!.draft, published!.draft, published!.isLive]).toEqual([true, false, true]);
    const discard = await t.app.inject({
      method: 'DELETE',
      url: `/api/domains/clone/${id}/versions/${second!.id}`,
      headers: pro.headers,
    });
    expect(discard.statusCode).toBe(200);
    expect((await fromSite(t, second!.previewUrl!)).statusCode).toBe(404);
    expect((await versionsOf(t, id, pro.headers)).map((v) => v.id)).toEqual([
      published!.id,
      mirror!.id,
    ]);
    const notDraft = await t.app.inject({
      method: 'DELETE',
      url: `/api/domains/clone/${id}/versions/${mirror!.id}`,
      headers: pro.headers,
    });
    expect(notDraft.statusCode).toBe(409);
    expect(notDraft.json().message).toBe('Only a draft can be discarded.');
  });

  it('mirrors the reference first and rewrites it as the next step of the same run', async () => {
    const plan = JSON.stringify({
      ops: [{ op: 'setTitle', title: 'Bakery' }],
      unparsed: [],
    });
    const { site, t } = await setup({ model: [{ content: plan }] });
    const agency = await signUp(t, 'agency');
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/domains/clone-with-ai',
      headers: agency.headers,
      payload: { sourceUrl: site.url, originalIdea: 'A bakery', rewriteWithAI: true },
    });
    expect(res.statusCode).toBe(202);
    const { id, previewUrl } = res.json();
    const readings = await pollToEnd(t, id, agency.headers);
    expect(readings.at(-1)).toMatchObject({
      status: 'completed',
      currentStatus: 'rewrite draft ready for review',
      progress: 1,
    });
    expect(readings.filter((r) => r.status === 'completed')).toHaveLength(1);
    const progress = readings.map((r) => r.progress);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    const versions = await versionsOf(t, id, agency.headers);
    expect(versions.map((v) => [v.kind, v.isLive, v.draft])).toEqual([
      ['rewrite', false, true],
      ['mirror', true, false],
    ]);
    expect((await fromSite(t, previewUrl)).body).toContain('<title>Fixture v1</title>');
  });

  it('fails the run with a clear message when the model answers nonsense, and serves what it served', async () => {
    const { site, t, ai } = await setup({ model: [{ content: 'Sure! Here is your plan.' }] });
    const pro = await signUp(t, 'pro');
    const { id, previewUrl } = await mirrorSite(t, site.url, pro.headers);
    expect(
      (await customize(t, id, pro.headers, { instructions: 'make it feel like spring' }))
        .statusCode,
    ).toBe(202);
    const last = (await pollToEnd(t, id, pro.headers)).at(-1)!;
    expect(last).toMatchObject({ status: 'failed', currentStatus: 'customization failed' });
    expect(last.error).toMatch(/not a valid edit plan/);
    expect(ai!.requests).toHaveLength(2);
    const [failed, live] = await versionsOf(t, id, pro.headers);
    expect(failed).toMatchObject({ status: 'failed', isLive: false, kind: 'customize' });
    expect(live!.isLive).toBe(true);
    expect((await fromSite(t, previewUrl)).body).toContain('Version 1 /');
  });
});
