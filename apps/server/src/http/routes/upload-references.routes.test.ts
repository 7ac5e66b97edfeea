import { CUSTOMIZE_MESSAGES, type EditOp, type SiteVersion } from '@mirror/contract';
import { readBlob, type Manifest } from '@mirror/engine';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  fromSite,
  mirrorSite,
  pollToEnd,
  SERVICE_ENV,
  signUp,
  type SignedUp,
} from '../../test/api-helpers.js';
import { startFixtureSite, type FixtureSite } from '../../test/fixture-site.js';
import { startOpenAiServer, type ScriptedAnswer } from '../../test/openai-server.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';

/**
 * Issue 30, item 4: an upload reference (`replaceImage` with `upload: { hash, contentType }`) names
 * an image the caller's own account holds. Another account's file and a made-up hash get the same
 * answer, so nothing tells whether a file exists anywhere, and no account can publish another's.
 */

let fixture: FixtureSite;
beforeAll(async () => {
  fixture = await startFixtureSite();
});
afterAll(async () => {
  await fixture.close();
});

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const MADE_UP = 'a'.repeat(64);

/** The live version's manifest hash of a site (what the attacker sent as an "upload"). */
async function liveManifestHash(t: TestApp, siteId: string): Promise<string> {
  const row = await t.app.database.db
    .selectFrom('sites')
    .innerJoin('site_versions', 'site_versions.id', 'sites.live_version_id')
    .select('site_versions.manifest_hash')
    .where('sites.id', '=', siteId)
    .executeTakeFirstOrThrow();
  return row.manifest_hash!;
}

/** The blob an account's own copy serves at `path`. */
async function ownBlobAt(t: TestApp, siteId: string, path: string): Promise<string> {
  const manifest = JSON.parse(
    (await readBlob(t.app.blobs, await liveManifestHash(t, siteId))).toString('utf8'),
  ) as Manifest;
  return manifest.entries.find((e) => e.path === path)!.hash;
}

const replaceLogo = (hash: string): EditOp => ({
  op: 'replaceImage',
  currentSrc: '/logo.svg',
  upload: { hash, contentType: 'image/svg+xml' },
});

function customize(t: TestApp, user: SignedUp, siteId: string, customizations: object) {
  return t.app.inject({
    method: 'PUT',
    url: `/api/domains/clone/${siteId}/customize`,
    headers: user.headers,
    payload: { customizations },
  });
}

async function versionsOf(t: TestApp, user: SignedUp, siteId: string): Promise<SiteVersion[]> {
  return (
    await t.app.inject({ url: `/api/domains/clone/${siteId}/versions`, headers: user.headers })
  ).json() as SiteVersion[];
}

/** Publishes the site's draft, so the public site serves it. */
async function publishDraft(t: TestApp, user: SignedUp, siteId: string): Promise<SiteVersion> {
  const draft = (await versionsOf(t, user, siteId)).find((v) => v.draft)!;
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/domains/clone/${siteId}/versions/${draft.id}/publish`,
    headers: user.headers,
  });
  expect(res.statusCode, res.body).toBe(200);
  return draft;
}

describe('upload references', () => {
  it(
    "answer another account's file and a made-up hash alike (400, nothing written), and take the caller's own",
    { timeout: 120_000 },
    async () => {
      const t = await createTestApp(SERVICE_ENV);
      cleanups.push(() => t.close());
      const carol = await signUp(t);
      const carolSite = await mirrorSite(t, fixture.url, carol.headers);
      const carolsFile = await liveManifestHash(t, carolSite.id);
      const bob = await signUp(t);
      const bobSite = await mirrorSite(t, fixture.url, bob.headers);
      const before = await versionsOf(t, bob, bobSite.id);

      const foreign = await customize(t, bob, bobSite.id, { ops: [replaceLogo(carolsFile)] });
      const madeUp = await customize(t, bob, bobSite.id, { ops: [replaceLogo(MADE_UP)] });
      const inRewrite = await t.app.inject({
        method: 'POST',
        url: '/api/domains/clone-with-ai',
        headers: bob.headers,
        payload: {
          sourceUrl: fixture.url,
          originalIdea: 'A bakery',
          rewriteWithAI: true,
          cloneId: bobSite.id,
          customizations: { ops: [replaceLogo(carolsFile)] },
        },
      });
      for (const res of [foreign, madeUp, inRewrite]) {
        expect([res.statusCode, res.json()]).toEqual([
          400,
          { message: CUSTOMIZE_MESSAGES.uploadNotFound },
        ]);
      }
      expect(foreign.body).toBe(madeUp.body);
      expect(await versionsOf(t, bob, bobSite.id)).toEqual(before);
      const path = `/_mirror/uploads/${carolsFile}.svg`;
      expect((await fromSite(t, bobSite.previewUrl, path)).statusCode).toBe(404);

      // An image Bob's own account holds is his to place.
      const own = await ownBlobAt(t, bobSite.id, '/logo.svg');
      const placed = await customize(t, bob, bobSite.id, { ops: [replaceLogo(own)] });
      expect(placed.statusCode, placed.body).toBe(202);
      expect((await pollToEnd(t, bobSite.id, bob.headers)).at(-1)!.status).toBe('completed');
      await publishDraft(t, bob, bobSite.id);
      const image = await fromSite(t, bobSite.previewUrl, `/_mirror/uploads/${own}.svg`);
      expect(image.statusCode).toBe(200);
      expect(image.body).toContain('<svg');
      expect((await fromSite(t, bobSite.previewUrl)).body).toContain(`/_mirror/uploads/${own}.svg`);
    },
  );

  it(
    "leaves out another account's file when a model plans it, with a note",
    { timeout: 120_000 },
    async () => {
      const answers: ScriptedAnswer[] = [{ content: '{"ops":[],"unparsed":[]}' }];
      const ai = await startOpenAiServer(answers);
      cleanups.push(() => ai.close());
      const t = await createTestApp({ ...SERVICE_ENV, AI_BASE_URL: ai.baseURL, AI_MODEL: 'm' });
      cleanups.push(() => t.close());
      const carol = await signUp(t);
      const carolSite = await mirrorSite(t, fixture.url, carol.headers);
      const carolsFile = await liveManifestHash(t, carolSite.id);
      // The model (told so by a page it read, say) answers with Carol's file as the new logo.
      answers[0] = {
        content: JSON.stringify({ ops: [replaceLogo(carolsFile)], unparsed: [] }),
      };

      const bob = await signUp(t, 'pro');
      const bobSite = await mirrorSite(t, fixture.url, bob.headers);
      const res = await customize(t, bob, bobSite.id, {
        instructions: 'Use the picture I uploaded as the logo.',
      });
      expect(res.statusCode, res.body).toBe(202);
      expect((await pollToEnd(t, bobSite.id, bob.headers)).at(-1)!.status).toBe('completed');
      expect(ai.requests).toHaveLength(1);
      const draft = await publishDraft(t, bob, bobSite.id);
      expect(draft.changes).toContain(CUSTOMIZE_MESSAGES.uploadLeftOut);
      const path = `/_mirror/uploads/${carolsFile}.svg`;
      expect((await fromSite(t, bobSite.previewUrl, path)).statusCode).toBe(404);
      expect((await fromSite(t, bobSite.previewUrl)).body).toContain('src="/logo.svg"');
    },
  );
});
