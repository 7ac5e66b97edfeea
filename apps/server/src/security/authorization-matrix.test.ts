import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { TEST_CARDS } from '@mirror/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { saveReport } from '../modules/fidelity/fidelity.repository.js';
import { saveScreenshot } from '../modules/screenshots/screenshots.repository.js';
import { queueVisualDiff, saveVisualDiff } from '../modules/visual-diff/visual-diff.repository.js';
import { startDnsServer, type TestDnsServer } from '../test/dns-server.js';
import { startFixtureSite, type FixtureSite } from '../test/fixture-site.js';
import { startOpenAiServer } from '../test/openai-server.js';
import { pollToEnd, SERVICE_ENV, signUp } from '../test/api-helpers.js';
import { createTestApp, waitFor, type TestApp } from '../test/test-app.js';

/**
 * The authorization model of the whole HTTP surface, as a table: every route the running app
 * serves × four callers (a visitor, another signed-in user, the owner of the resources, an admin).
 * A route missing from the table fails the test, so every new endpoint gets classified here.
 *
 * Rules the table encodes:
 * - public routes answer everyone alike;
 * - signed-in routes answer 401 to visitors and act on the caller's own account;
 * - another user's site, domain, card or invoice answers 404, as if it did not exist;
 * - `admin` is a role value with no extra power (SPEC §6): an admin is just another user.
 * After every call by someone other than the owner, the owner's resources read exactly as before.
 */

type Caller = 'anonymous' | 'other' | 'admin' | 'owner';
const CALLERS: readonly Caller[] = ['anonymous', 'other', 'admin', 'owner'];
type Access = 'public' | 'signed-in' | 'owner' | 'admin-only';

interface Account {
  email: string;
  password: string;
  headers: Record<string, string>;
}

/** Ids of the owner's resources, filled in by the setup (and by rows that create them). */
interface Ids {
  siteId: string;
  liveVersionId: string;
  draftVersionId: string;
  /** The draft the owner's customization left (customizations are drafts first). */
  editsDraftId: string;
  customDomainId: string;
  customDomain: string;
  parkedId: string;
  parkedDomain: string;
  cardId: string;
  invoiceId: string;
  intentSecret: string;
  screenshotFile: string;
  /** A screenshot of the live version's fidelity report. */
  fidelityShotFile: string;
  /** A screenshot of the visual diff of the live version's change report. */
  changeShotFile: string;
  watchId: string;
  /** The live copy's newsletter form, and a submission of it with a file. */
  formKey: string;
  submissionId: string;
  /** The site's change feed's token (its address is the key). */
  feedToken: string;
  bystander: { email: string; password: string };
}

interface Request {
  url: string;
  payload?: unknown;
  headers?: Record<string, string>;
}

interface Row {
  /** `METHOD /path` exactly as the app registers it. */
  route: string;
  access: Access;
  expect: Record<Caller, number>;
  request(ids: Ids, caller: Caller): Request;
  /** Runs after the owner's call: waits for work it started, signs callers in again, … */
  afterOwner?(): Promise<void>;
}

const SITES_DOMAIN = 'sites.mirror.test';
const EDGE = 'edge.mirror.test';
const IPV4 = '203.0.113.30';
const NEXT_YEAR = new Date().getUTCFullYear() + 1;

let dns: TestDnsServer;
let fixture: FixtureSite;
let t: TestApp;
let webDist: string;
let ai: Awaited<ReturnType<typeof startOpenAiServer>>;
const accounts = {} as Record<Exclude<Caller, 'anonymous'>, Account>;
const ids = {} as Ids;

// ---- the table ---------------------------------------------------------------------------------

const publicTo = (status: number): Record<Caller, number> => ({
  anonymous: status,
  other: status,
  admin: status,
  owner: status,
});
/** Visitors get 401; every signed-in caller acts on their own account. */
const signedIn = (status: number, owner = status): Record<Caller, number> => ({
  anonymous: 401,
  other: status,
  admin: status,
  owner,
});
/** The owner's resource: visitors 401, anyone else 404 (it does not exist for them). */
const ownerOnly = (owner: number, anonymous = 401): Record<Caller, number> => ({
  anonymous,
  other: 404,
  admin: 404,
  owner,
});

const get = (url: string) => () => ({ url });
let uniq = 0;
const unique = (prefix: string) => `${prefix}${Date.now().toString(36)}${++uniq}`;

const WATCH = {
  name: 'Prices',
  scope: 'part',
  pages: ['/'],
  selector: 'h1',
  textFallback: null,
  keywords: [],
  minWords: 0,
  email: 'off',
  webhookUrl: null,
};

const ROWS: Row[] = [
  // System, docs and the web app.
  {
    route: 'GET /api/health',
    access: 'public',
    expect: publicTo(200),
    request: get('/api/health'),
  },
  { route: 'GET /api/ready', access: 'public', expect: publicTo(200), request: get('/api/ready') },
  // Open when METRICS_TOKEN is unset (the deployment keeps /metrics off the public edge).
  { route: 'GET /metrics', access: 'public', expect: publicTo(200), request: get('/metrics') },
  { route: 'GET /api/docs', access: 'public', expect: publicTo(200), request: get('/api/docs') },
  { route: 'GET /api/docs/', access: 'public', expect: publicTo(200), request: get('/api/docs/') },
  {
    route: 'GET /api/docs/static/index.html',
    access: 'public',
    expect: publicTo(302),
    request: get('/api/docs/static/index.html'),
  },
  {
    route: 'GET /api/docs/static/swagger-initializer.js',
    access: 'public',
    expect: publicTo(200),
    request: get('/api/docs/static/swagger-initializer.js'),
  },
  {
    route: 'GET /api/docs/*',
    access: 'public',
    expect: publicTo(200),
    request: get('/api/docs/static/swagger-ui.css'),
  },
  {
    route: 'GET /api/docs/json',
    access: 'public',
    expect: publicTo(200),
    request: get('/api/docs/json'),
  },
  {
    route: 'GET /api/docs/yaml',
    access: 'public',
    expect: publicTo(200),
    request: get('/api/docs/yaml'),
  },
  { route: 'GET /', access: 'public', expect: publicTo(200), request: get('/') },
  { route: 'GET /*', access: 'public', expect: publicTo(200), request: get('/dashboard') },
  {
    route: 'GET /api/internal/tls/ask',
    access: 'public',
    // Pending domains get no certificate, whoever asks.
    expect: publicTo(404),
    request: (i) => ({ url: `/api/internal/tls/ask?domain=${i.customDomain}` }),
  },

  // Auth.
  {
    route: 'POST /api/auth/register',
    access: 'public',
    expect: publicTo(201),
    request: () => ({
      url: '/api/auth/register',
      payload: { name: 'New', email: `${unique('n')}@example.com`, password: 'a long password' },
    }),
  },
  {
    route: 'POST /api/auth/login',
    access: 'public',
    expect: publicTo(200),
    request: (i) => ({ url: '/api/auth/login', payload: i.bystander }),
  },
  {
    route: 'POST /api/auth/reset-password',
    access: 'public',
    expect: publicTo(200),
    request: () => ({ url: '/api/auth/reset-password', payload: { email: accounts.owner.email } }),
  },
  {
    route: 'POST /api/auth/reset-password/confirm',
    access: 'public',
    // A made-up token resets nobody's password.
    expect: publicTo(400),
    request: () => ({
      url: '/api/auth/reset-password/confirm',
      payload: { token: 'x'.repeat(43), password: 'somebody elses' },
    }),
  },
  {
    route: 'GET /api/auth/me',
    access: 'signed-in',
    expect: signedIn(200),
    request: get('/api/auth/me'),
  },
  {
    route: 'PUT /api/auth/me',
    access: 'signed-in',
    expect: signedIn(200),
    request: (_i, caller) => ({ url: '/api/auth/me', payload: { name: `Renamed ${caller}` } }),
  },
  {
    route: 'PUT /api/auth/me/settings',
    access: 'signed-in',
    expect: signedIn(200),
    request: () => ({
      url: '/api/auth/me/settings',
      payload: { notifications: { email: false, push: true }, appearance: { theme: 'light' } },
    }),
  },
  {
    route: 'PUT /api/auth/me/password',
    access: 'signed-in',
    expect: signedIn(200),
    request: (_i, caller) => {
      const account = caller === 'anonymous' ? accounts.other : accounts[caller];
      return {
        url: '/api/auth/me/password',
        payload: { currentPassword: account.password, newPassword: `${account.password}!` },
      };
    },
    afterOwner: async () => {
      // Everyone who got a 200 has the new password from now on.
      for (const account of Object.values(accounts)) account.password = `${account.password}!`;
    },
  },
  {
    route: 'POST /api/auth/claim-demos',
    access: 'signed-in',
    // The owner's site is not a demo: nobody can claim it (200 with nothing claimed).
    expect: signedIn(200),
    request: (i) => ({ url: '/api/auth/claim-demos', payload: { demoSiteIds: [i.siteId] } }),
  },

  // Sites.
  {
    route: 'POST /api/domains/clone',
    access: 'public',
    // Visitors get a demo; signed-in users a site of their own.
    expect: publicTo(201),
    request: () => ({ url: '/api/domains/clone', payload: { sourceUrl: fixture.url } }),
    // The owner's new site is mirrored meanwhile: let it finish before anyone else's call is
    // compared with the owner's things.
    afterOwner: () => ownerSitesSettled(),
  },
  {
    route: 'POST /api/domains/clone/archive',
    access: 'signed-in',
    // A new site of the caller's own, like POST /clone: the free accounts made theirs just above
    // (their plan's one mirror), the owner's plan has room and is told the file is no archive.
    expect: { anonymous: 401, other: 403, admin: 403, owner: 400 },
    request: () => ({
      url: '/api/domains/clone/archive',
      headers: { 'content-type': 'multipart/form-data; boundary=matrix' },
      payload:
        '--matrix\r\nContent-Disposition: form-data; name="file"; filename="notes.txt"\r\n\r\nhello\r\n--matrix--\r\n',
    }),
  },
  {
    route: 'GET /api/domains/clone/:id/status',
    access: 'owner',
    // The status of a visitor's demo is public to whoever has its id; an owned site's is not.
    expect: ownerOnly(200, 404),
    request: (i) => ({ url: `/api/domains/clone/${i.siteId}/status` }),
  },
  {
    route: 'GET /api/domains/clones',
    access: 'signed-in',
    expect: signedIn(200),
    request: get('/api/domains/clones'),
  },
  {
    route: 'GET /api/domains',
    access: 'signed-in',
    expect: signedIn(200),
    request: get('/api/domains'),
  },
  {
    route: 'GET /api/domains/',
    access: 'signed-in',
    expect: signedIn(200),
    request: get('/api/domains/'),
  },
  {
    route: 'GET /api/domains/clone/:id',
    access: 'owner',
    expect: ownerOnly(200),
    request: (i) => ({ url: `/api/domains/clone/${i.siteId}` }),
  },
  {
    route: 'PUT /api/domains/clone/:id',
    access: 'owner',
    expect: ownerOnly(200),
    request: (i) => ({
      url: `/api/domains/clone/${i.siteId}`,
      payload: { syncSchedule: 'weekly' },
    }),
  },
  {
    route: 'GET /api/domains/clone/:id/versions',
    access: 'owner',
    expect: ownerOnly(200),
    request: (i) => ({ url: `/api/domains/clone/${i.siteId}/versions` }),
  },
  {
    route: 'POST /api/domains/clone/:id/versions/:versionId/publish',
    access: 'owner',
    expect: ownerOnly(200),
    request: (i) => ({
      url: `/api/domains/clone/${i.siteId}/versions/${i.liveVersionId}/publish`,
    }),
  },
  {
    route: 'GET /api/domains/clone/:id/versions/:versionId/changes',
    access: 'owner',
    expect: ownerOnly(200),
    request: (i) => ({
      url: `/api/domains/clone/${i.siteId}/versions/${i.liveVersionId}/changes`,
    }),
  },
  {
    route: 'GET /api/domains/clone/:id/versions/:versionId/changes/shots/:file',
    access: 'owner',
    expect: ownerOnly(200),
    request: (i) => ({
      url: `/api/domains/clone/${i.siteId}/versions/${i.liveVersionId}/changes/shots/${i.changeShotFile}`,
    }),
  },
  {
    route: 'GET /api/domains/clone/:id/watches',
    access: 'owner',
    expect: ownerOnly(200),
    request: (i) => ({ url: `/api/domains/clone/${i.siteId}/watches` }),
  },
  {
    route: 'POST /api/domains/clone/:id/watches',
    access: 'owner',
    expect: ownerOnly(201),
    request: (i) => ({
      url: `/api/domains/clone/${i.siteId}/watches`,
      payload: { ...WATCH, name: unique('watch-') },
    }),
  },
  {
    route: 'PUT /api/domains/clone/:id/watches/:watchId',
    access: 'owner',
    expect: ownerOnly(200),
    request: (i) => ({
      url: `/api/domains/clone/${i.siteId}/watches/${i.watchId}`,
      payload: { ...WATCH, name: 'Prices', minWords: 3 },
    }),
  },
  {
    route: 'GET /api/domains/clone/:id/page-source',
    access: 'owner',
    expect: ownerOnly(200),
    request: (i) => ({ url: `/api/domains/clone/${i.siteId}/page-source?path=/` }),
  },
  {
    route: 'GET /api/domains/clone/:id/webhook-deliveries',
    access: 'owner',
    expect: ownerOnly(200),
    request: (i) => ({ url: `/api/domains/clone/${i.siteId}/webhook-deliveries` }),
  },
  {
    // For feed readers: the token in the address is the key, whoever holds it.
    route: 'GET /api/domains/clone/:id/changes.atom',
    access: 'public',
    expect: publicTo(200),
    request: (i) => ({ url: `/api/domains/clone/${i.siteId}/changes.atom?token=${i.feedToken}` }),
  },
  {
    route: 'DELETE /api/domains/clone/:id/watches/:watchId',
    access: 'owner',
    expect: ownerOnly(204),
    request: (i) => ({ url: `/api/domains/clone/${i.siteId}/watches/${i.watchId}` }),
  },
  {
    route: 'GET /api/domains/clone/:id/forms',
    access: 'owner',
    expect: ownerOnly(200),
    request: (i) => ({ url: `/api/domains/clone/${i.siteId}/forms` }),
  },
  {
    route: 'PUT /api/domains/clone/:id/forms/:formKey',
    access: 'owner',
    expect: ownerOnly(200),
    request: (i) => ({
      url: `/api/domains/clone/${i.siteId}/forms/${i.formKey}`,
      payload: { enabled: true, redirectUrl: '/thanks', notify: 'daily' },
    }),
  },
  {
    route: 'GET /api/domains/clone/:id/forms/submissions',
    access: 'owner',
    expect: ownerOnly(200),
    request: (i) => ({ url: `/api/domains/clone/${i.siteId}/forms/submissions` }),
  },
  {
    route: 'GET /api/domains/clone/:id/forms/submissions.csv',
    access: 'owner',
    expect: ownerOnly(200),
    request: (i) => ({ url: `/api/domains/clone/${i.siteId}/forms/submissions.csv` }),
  },
  {
    route: 'PATCH /api/domains/clone/:id/forms/submissions/:submissionId',
    access: 'owner',
    expect: ownerOnly(200),
    request: (i) => ({
      url: `/api/domains/clone/${i.siteId}/forms/submissions/${i.submissionId}`,
      payload: { spam: false },
    }),
  },
  {
    route: 'GET /api/domains/clone/:id/forms/submissions/:submissionId/files/:index',
    access: 'owner',
    expect: ownerOnly(200),
    request: (i) => ({
      url: `/api/domains/clone/${i.siteId}/forms/submissions/${i.submissionId}/files/0`,
    }),
  },
  {
    route: 'DELETE /api/domains/clone/:id/forms/submissions/:submissionId',
    access: 'owner',
    expect: ownerOnly(204),
    request: (i) => ({ url: `/api/domains/clone/${i.siteId}/forms/submissions/${i.submissionId}` }),
  },
  // The live copy's form has no recipient of its own: there is nothing to ask again.
  {
    route: 'POST /api/domains/clone/:id/forms/:formKey/recipient/confirmation',
    access: 'owner',
    expect: ownerOnly(404),
    request: (i) => ({
      url: `/api/domains/clone/${i.siteId}/forms/${i.formKey}/recipient/confirmation`,
    }),
  },
  // A recipient's confirmation link: the token is the key, for everyone alike.
  {
    route: 'GET /api/forms/recipients/confirm',
    access: 'public',
    expect: publicTo(404),
    request: get(`/api/forms/recipients/confirm?token=${'A'.repeat(43)}`),
  },
  {
    route: 'POST /api/forms/recipients/confirm',
    access: 'public',
    expect: publicTo(404),
    request: () => ({
      url: '/api/forms/recipients/confirm',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: `token=${'A'.repeat(43)}&answer=confirm`,
    }),
  },
  {
    route: 'GET /api/domains/clone/:id/export.zip',
    access: 'owner',
    expect: ownerOnly(200),
    request: (i) => ({ url: `/api/domains/clone/${i.siteId}/export.zip` }),
  },
  {
    route: 'GET /api/domains/clone/:id/versions/:versionId/export.warc.gz',
    access: 'owner',
    expect: ownerOnly(200),
    request: (i) => ({
      url: `/api/domains/clone/${i.siteId}/versions/${i.liveVersionId}/export.warc.gz`,
    }),
  },
  {
    route: 'GET /api/domains/clone/:id/versions/:versionId/export.wacz',
    access: 'owner',
    expect: ownerOnly(200),
    request: (i) => ({
      url: `/api/domains/clone/${i.siteId}/versions/${i.liveVersionId}/export.wacz`,
    }),
  },
  {
    route: 'GET /api/domains/:id/analytics',
    access: 'owner',
    expect: ownerOnly(200),
    request: (i) => ({ url: `/api/domains/${i.siteId}/analytics?period=30d` }),
  },
  {
    route: 'GET /api/domains/clone/:id/fidelity',
    access: 'owner',
    expect: ownerOnly(200),
    request: (i) => ({ url: `/api/domains/clone/${i.siteId}/fidelity` }),
  },
  {
    route: 'GET /api/domains/fidelity-shots/:file',
    access: 'public',
    // <img> tags load them without a token; names are content hashes some report lists. Before
    // the re-check below, which replaces the report's screenshots.
    expect: publicTo(200),
    request: (i) => ({ url: `/api/domains/fidelity-shots/${i.fidelityShotFile}` }),
  },
  {
    route: 'POST /api/domains/clone/:id/fidelity',
    access: 'owner',
    expect: ownerOnly(202),
    // One page captured again and checked: a real check in Chromium, waited for.
    request: (i) => ({ url: `/api/domains/clone/${i.siteId}/fidelity`, payload: { paths: ['/'] } }),
    afterOwner: () =>
      waitFor(async () => {
        const res = await ownerGet(`/api/domains/clone/${ids.siteId}/fidelity`);
        const state = (res.body as { state: string }).state;
        return state === 'completed' || state === 'failed' ? true : undefined;
      }, 120_000).then(() => undefined),
  },
  {
    route: 'POST /api/domains/clone/:id/remirror',
    access: 'owner',
    expect: ownerOnly(202),
    request: (i) => ({ url: `/api/domains/clone/${i.siteId}/remirror` }),
    afterOwner: () => settled(),
  },
  {
    route: 'POST /api/domains/clone/:id/customize/understand',
    access: 'owner',
    expect: ownerOnly(200),
    request: (i) => ({
      url: `/api/domains/clone/${i.siteId}/customize/understand`,
      payload: { instructions: "Set the title to 'Owned'." },
    }),
  },
  {
    route: 'PUT /api/domains/clone/:id/customize',
    access: 'owner',
    // A visitor may customize nothing but sees no site either: 404 like the others.
    expect: ownerOnly(202, 404),
    request: (i) => ({
      url: `/api/domains/clone/${i.siteId}/customize`,
      payload: { customizations: { instructions: "Set the title to 'Owned'." }, regenerate: true },
    }),
    afterOwner: async () => {
      await settled();
      const versions = await ownerGet(`/api/domains/clone/${ids.siteId}/versions`);
      const draft = (versions.body as { id: string; draft: boolean }[]).find((v) => v.draft);
      expect(draft, 'the customization leaves a draft').toBeDefined();
      ids.editsDraftId = draft!.id;
    },
  },
  {
    route: 'POST /api/domains/clone/:id/versions/:versionId/undo',
    access: 'owner',
    // Undoing the draft's only edit discards it.
    expect: ownerOnly(202),
    request: (i) => ({
      url: `/api/domains/clone/${i.siteId}/versions/${i.editsDraftId}/undo`,
      payload: { index: 0 },
    }),
    afterOwner: () => settled(),
  },
  {
    route: 'POST /api/domains/clone/:id/versions/:versionId/changes/restore',
    access: 'owner',
    // The setup's report compares the live version with itself: its home page makes a draft.
    expect: ownerOnly(202),
    request: (i) => ({
      url: `/api/domains/clone/${i.siteId}/versions/${i.liveVersionId}/changes/restore`,
      payload: { path: '/' },
    }),
    afterOwner: async () => {
      await settled();
      const versions = await ownerGet(`/api/domains/clone/${ids.siteId}/versions`);
      const draft = (versions.body as { id: string; draft: boolean }[]).find((v) => v.draft);
      expect(draft, 'the restore leaves a draft').toBeDefined();
      const discarded = await t.app.inject({
        method: 'DELETE',
        url: `/api/domains/clone/${ids.siteId}/versions/${draft!.id}`,
        headers: accounts.owner.headers,
      });
      expect(discarded.statusCode).toBe(200);
    },
  },
  {
    route: 'POST /api/domains/clone-with-ai',
    access: 'signed-in',
    // A rewrite of the owner's site: others (free plan, nothing paid) do not even see it.
    expect: { anonymous: 401, other: 404, admin: 404, owner: 202 },
    request: (i) => ({
      url: '/api/domains/clone-with-ai',
      payload: {
        sourceUrl: fixture.url,
        originalIdea: 'A bakery',
        rewriteWithAI: true,
        cloneId: i.siteId,
      },
    }),
    afterOwner: async () => {
      await settled();
      const versions = await ownerGet(`/api/domains/clone/${ids.siteId}/versions`);
      const draft = (versions.body as { id: string; draft: boolean }[]).find((v) => v.draft);
      expect(draft, 'the rewrite leaves a draft').toBeDefined();
      ids.draftVersionId = draft!.id;
    },
  },
  {
    route: 'DELETE /api/domains/clone/:id/versions/:versionId',
    access: 'owner',
    expect: ownerOnly(200),
    request: (i) => ({ url: `/api/domains/clone/${i.siteId}/versions/${i.draftVersionId}` }),
  },
  {
    route: 'GET /api/domains/ai-rewrite-pricing',
    access: 'public',
    expect: publicTo(200),
    request: get('/api/domains/ai-rewrite-pricing'),
  },

  // Ideas and screenshots.
  {
    route: 'POST /api/domains/search-by-idea',
    access: 'signed-in',
    expect: signedIn(200),
    request: () => ({
      url: '/api/domains/search-by-idea',
      payload: { idea: 'a bakery', limit: 5 },
    }),
  },
  {
    route: 'POST /api/domains/screenshot',
    access: 'signed-in',
    // A cached capture: no Chromium needed to prove who may ask.
    expect: signedIn(200),
    request: () => ({ url: '/api/domains/screenshot', payload: { url: fixture.url } }),
  },
  {
    route: 'GET /api/domains/screenshot',
    access: 'signed-in',
    // Where a reference's screenshot stands (the grid polls it): a cache read, never a capture.
    expect: signedIn(200),
    request: () => ({
      url: `/api/domains/screenshot?url=${encodeURIComponent(fixture.url)}`,
    }),
  },
  {
    route: 'GET /api/screenshots/:file',
    access: 'public',
    // <img> tags load screenshots without a token; names are content hashes.
    expect: publicTo(200),
    request: (i) => ({ url: `/api/screenshots/${i.screenshotFile}` }),
  },

  // Custom domains.
  {
    route: 'POST /api/domains/deploy',
    access: 'signed-in',
    // Deploying onto the owner's site: it does not exist for anyone else.
    expect: { anonymous: 401, other: 404, admin: 404, owner: 200 },
    request: (i, caller) => ({
      url: '/api/domains/deploy',
      payload: {
        siteId: i.siteId,
        domain: caller === 'owner' ? i.customDomain : `shop.${caller}-try.test`,
      },
    }),
  },
  {
    route: 'GET /api/domains/check/:domain',
    access: 'owner',
    expect: ownerOnly(200),
    request: (i) => ({ url: `/api/domains/check/${i.customDomain}` }),
  },
  {
    route: 'GET /api/domains/domain/:id',
    access: 'owner',
    expect: ownerOnly(200),
    request: (i) => ({ url: `/api/domains/domain/${i.customDomainId}` }),
  },
  {
    route: 'PUT /api/domains/domain/:id',
    access: 'owner',
    expect: ownerOnly(200),
    request: (i) => ({
      url: `/api/domains/domain/${i.customDomainId}`,
      payload: { siteId: i.siteId },
    }),
  },

  // Parking.
  {
    route: 'POST /api/domains/park',
    access: 'signed-in',
    expect: signedIn(201),
    request: (_i, caller) => {
      const domain = `${unique(caller)}.test`;
      dns.set(domain, { SOA: true });
      return { url: '/api/domains/park', payload: { domain } };
    },
  },
  {
    route: 'PUT /api/domains/park/:id',
    access: 'owner',
    expect: ownerOnly(200),
    request: (i) => ({
      url: `/api/domains/park/${i.parkedId}`,
      payload: { template: 'minimalist' },
    }),
  },
  {
    route: 'GET /api/domains/parked',
    access: 'signed-in',
    expect: signedIn(200),
    request: get('/api/domains/parked'),
  },
  {
    route: 'GET /api/domains/parked/:id',
    access: 'owner',
    expect: ownerOnly(200),
    request: (i) => ({ url: `/api/domains/parked/${i.parkedId}` }),
  },
  {
    route: 'GET /api/domains/parked/:id/messages',
    access: 'owner',
    expect: ownerOnly(200),
    request: (i) => ({ url: `/api/domains/parked/${i.parkedId}/messages` }),
  },
  {
    route: 'GET /api/domains/parked/:id/preview',
    access: 'owner',
    expect: ownerOnly(200),
    request: (i) => ({ url: `/api/domains/parked/${i.parkedId}/preview?template=minimalist` }),
  },

  // Payments (local test mode).
  {
    route: 'POST /api/payments/webhook',
    access: 'public',
    // Stripe's webhook only exists with Stripe; its signature is the authorization.
    expect: publicTo(404),
    request: () => ({ url: '/api/payments/webhook', payload: { type: 'invoice.paid' } }),
  },
  {
    route: 'POST /api/payments/test/payment-methods',
    access: 'signed-in',
    expect: signedIn(200),
    request: () => ({
      url: '/api/payments/test/payment-methods',
      payload: { number: TEST_CARDS.succeeds, expMonth: 12, expYear: NEXT_YEAR, cvc: '123' },
    }),
  },
  {
    route: 'POST /api/payments/subscribe',
    access: 'signed-in',
    // With the owner's card: nobody else can pay with it; the owner is subscribed already.
    expect: { anonymous: 401, other: 404, admin: 404, owner: 409 },
    request: (i) => ({
      url: '/api/payments/subscribe',
      payload: { planId: 'pro', paymentMethodId: i.cardId },
    }),
  },
  {
    route: 'GET /api/payments/subscription',
    access: 'signed-in',
    expect: signedIn(200),
    request: get('/api/payments/subscription'),
  },
  {
    route: 'PUT /api/payments/subscription',
    access: 'signed-in',
    // Others have no subscription to change.
    expect: signedIn(409, 200),
    request: () => ({ url: '/api/payments/subscription', payload: { planId: 'pro' } }),
  },
  {
    route: 'POST /api/payments/cancel',
    access: 'signed-in',
    expect: signedIn(409, 200),
    request: () => ({ url: '/api/payments/cancel', payload: { immediately: false } }),
  },
  {
    route: 'POST /api/payments/reactivate',
    access: 'signed-in',
    expect: signedIn(409, 200),
    request: () => ({ url: '/api/payments/reactivate' }),
  },
  {
    route: 'POST /api/payments/setup-intent',
    access: 'signed-in',
    expect: signedIn(200),
    request: () => ({ url: '/api/payments/setup-intent' }),
  },
  {
    route: 'GET /api/payments/payment-methods',
    access: 'signed-in',
    expect: signedIn(200),
    request: get('/api/payments/payment-methods'),
  },
  {
    route: 'PUT /api/payments/default-payment-method',
    access: 'signed-in',
    expect: { anonymous: 401, other: 404, admin: 404, owner: 200 },
    request: (i) => ({
      url: '/api/payments/default-payment-method',
      payload: { paymentMethodId: i.cardId },
    }),
  },
  {
    route: 'POST /api/payments/payment-intent',
    access: 'signed-in',
    expect: signedIn(200),
    request: () => ({
      url: '/api/payments/payment-intent',
      payload: { amount: 500, description: 'Extra support' },
    }),
  },
  {
    route: 'POST /api/payments/test/confirm',
    access: 'signed-in',
    // The owner's pending payment: nobody else can confirm (and so pay) it.
    expect: { anonymous: 401, other: 404, admin: 404, owner: 200 },
    request: (i) => ({
      url: '/api/payments/test/confirm',
      payload: { clientSecret: i.intentSecret, approve: true },
    }),
  },
  {
    route: 'POST /api/payments/ai-rewrite',
    access: 'signed-in',
    // Others cannot pay a rewrite of the owner's site; the owner's plan includes rewrites.
    expect: { anonymous: 401, other: 404, admin: 404, owner: 400 },
    request: (i) => ({
      url: '/api/payments/ai-rewrite',
      payload: { cloneId: i.siteId, paymentMethodId: i.cardId },
    }),
  },
  {
    route: 'GET /api/payments/invoices',
    access: 'signed-in',
    expect: signedIn(200),
    request: get('/api/payments/invoices'),
  },
  {
    route: 'GET /api/payments/invoices/:id/download',
    access: 'owner',
    expect: ownerOnly(200),
    request: (i) => ({ url: `/api/payments/invoices/${i.invoiceId}/download` }),
  },
  {
    route: 'GET /api/payments/usage',
    access: 'signed-in',
    expect: signedIn(200),
    request: get('/api/payments/usage'),
  },
  {
    route: 'GET /api/payments/downgrade-preview',
    access: 'signed-in',
    // Read-only: counts from the caller's own sites and domains.
    expect: signedIn(200),
    request: get('/api/payments/downgrade-preview?plan=free&at=period_end'),
  },
  {
    route: 'POST /api/payments/portal-session',
    access: 'signed-in',
    expect: signedIn(200),
    request: () => ({ url: '/api/payments/portal-session' }),
  },

  // Deletions last: each removes what earlier rows use.
  {
    route: 'DELETE /api/payments/payment-methods/:id',
    access: 'owner',
    expect: ownerOnly(200),
    request: (i) => ({ url: `/api/payments/payment-methods/${i.cardId}` }),
  },
  {
    route: 'DELETE /api/domains/domain/:id',
    access: 'owner',
    expect: ownerOnly(200),
    request: (i) => ({ url: `/api/domains/domain/${i.customDomainId}` }),
  },
  {
    route: 'DELETE /api/domains/parked/:id',
    access: 'owner',
    expect: ownerOnly(200),
    request: (i) => ({ url: `/api/domains/parked/${i.parkedId}` }),
  },
  {
    route: 'DELETE /api/domains/clone/:id',
    access: 'owner',
    expect: ownerOnly(200),
    request: (i) => ({ url: `/api/domains/clone/${i.siteId}` }),
  },
  {
    route: 'POST /api/auth/logout',
    access: 'signed-in',
    expect: signedIn(200),
    request: () => ({ url: '/api/auth/logout' }),
    afterOwner: async () => {
      for (const account of Object.values(accounts)) await signIn(account);
    },
  },
  {
    route: 'DELETE /api/auth/me',
    access: 'signed-in',
    expect: signedIn(200),
    request: (_i, caller) => ({
      url: '/api/auth/me',
      payload: { password: (caller === 'anonymous' ? accounts.other : accounts[caller]).password },
    }),
  },
];

// ---- helpers -----------------------------------------------------------------------------------

async function ownerGet(url: string) {
  const res = await t.app.inject({ url, headers: accounts.owner.headers });
  return {
    status: res.statusCode,
    body: String(res.headers['content-type']).includes('json') ? (res.json() as unknown) : res.body,
  };
}

/** Waits until no run of the owner's site is under way. */
/** Every site of the owner's has finished its run. */
async function ownerSitesSettled(): Promise<void> {
  await waitFor(async () => {
    const sites = (await ownerGet('/api/domains/clones')).body as { status: string }[];
    return sites.every((s) => s.status === 'completed' || s.status === 'failed') ? true : undefined;
  }, 30_000);
}

async function settled(): Promise<void> {
  await waitFor(async () => {
    const res = await ownerGet(`/api/domains/clone/${ids.siteId}/versions`);
    const versions = res.body as { status: string }[];
    return versions.every((v) => v.status === 'completed' || v.status === 'failed')
      ? true
      : undefined;
  }, 30_000);
  // What a finished run leaves to other jobs (pruning older versions, the storage sweep) changes
  // the owner's view too: it runs before the next caller's request, not during it.
  await waitFor(async () => {
    const counts = await t.app.jobs.counts();
    return counts.waiting + counts.active === 0 ? true : undefined;
  }, 30_000);
}

async function signIn(account: Account): Promise<void> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { email: account.email, password: account.password },
  });
  expect(res.statusCode, `sign-in of ${account.email}`).toBe(200);
  account.headers = { authorization: `Bearer ${res.json().token as string}` };
}

/** Drops what changes on its own (DNS checks in the background), keeps everything a user set. */
function stable(value: unknown): unknown {
  return JSON.parse(
    JSON.stringify(value, (key, v: unknown) =>
      ['checkedAt', 'nextCheckAt', 'problem', 'reason', 'records', 'checks'].includes(key)
        ? undefined
        : v,
    ),
  );
}

/** Everything the owner can read about their account and resources. */
async function ownerView() {
  const urls = [
    '/api/auth/me',
    '/api/domains',
    `/api/domains/clone/${ids.siteId}/versions`,
    `/api/domains/parked/${ids.parkedId}`,
    `/api/domains/parked/${ids.parkedId}/messages`,
    `/api/domains/domain/${ids.customDomainId}`,
    '/api/payments/subscription',
    '/api/payments/payment-methods',
    '/api/payments/invoices',
  ];
  const view: Record<string, unknown> = {};
  for (const url of urls) view[url] = stable(await ownerGet(url));
  return view;
}

/** Every METHOD + path the app serves, from Fastify's own route tree (HEAD mirrors GET). */
function servedRoutes(): string[] {
  const tree = t.app.printRoutes({ commonPrefix: false });
  const stack: string[] = [];
  const routes: string[] = [];
  for (const line of tree.split('\n')) {
    const match = /^((?:│ {3}| {4})*)[├└]── (.+?)(?: \(([A-Z, ]+)\))?$/.exec(line);
    if (!match) continue;
    const depth = match[1]!.length / 4;
    stack.length = depth;
    stack.push(match[2]!);
    const url = stack.join('');
    for (const method of (match[3] ?? '').split(', ').filter(Boolean)) {
      if (method !== 'HEAD') routes.push(`${method} ${url}`);
    }
  }
  return [...new Set(routes)].sort();
}

async function send(row: Row, caller: Caller) {
  const method = row.route.split(' ')[0] as 'GET';
  const { url, payload, headers = {} } = row.request(ids, caller);
  return t.app.inject({
    method,
    url,
    headers: { ...headers, ...(caller === 'anonymous' ? {} : accounts[caller].headers) },
    ...(payload !== undefined ? { payload: payload as object } : {}),
  });
}

// ---- setup: one of each resource, owned by the owner --------------------------------------------

beforeAll(async () => {
  dns = await startDnsServer();
  fixture = await startFixtureSite(3, { form: true });
  ai = await startOpenAiServer([
    { content: JSON.stringify({ ops: [{ op: 'setTitle', title: 'Bakery' }], unparsed: [] }) },
  ]);
  webDist = fs.mkdtempSync(path.join(os.tmpdir(), 'mirror-web-'));
  fs.writeFileSync(path.join(webDist, 'index.html'), '<!doctype html><title>Mirror</title>');
  t = await createTestApp({
    ...SERVICE_ENV,
    // A model is connected (a local stand-in), so rewrites are for sale and run.
    AI_BASE_URL: ai.baseURL,
    AI_MODEL: 'test-model',
    WEB_DIST_DIR: webDist,
    DNS_SERVERS: dns.address,
    DNS_TIMEOUT_MS: '1000',
    SITES_DOMAIN,
    SITES_CNAME_TARGET: EDGE,
    SITES_IPV4: IPV4,
  });
  dns.set(EDGE, { A: [IPV4] });

  const makeAccount = async (plan?: 'agency'): Promise<Account> => {
    const user = await signUp(t, plan);
    const me = await t.app.inject({ url: '/api/auth/me', headers: user.headers });
    return { email: me.json().user.email, password: 'a long password', headers: user.headers };
  };
  accounts.owner = await makeAccount('agency');
  accounts.other = await makeAccount();
  accounts.admin = await makeAccount();
  await t.app.database.db
    .updateTable('users')
    .set({ role: 'admin' })
    .where('email', '=', accounts.admin.email)
    .execute();
  const bystander = await makeAccount();
  ids.bystander = { email: bystander.email, password: bystander.password };
  const owner = (method: 'POST' | 'PUT' | 'GET', url: string, payload?: object) =>
    t.app.inject({ method, url, headers: accounts.owner.headers, ...(payload ? { payload } : {}) });

  // A completed site.
  const site = await owner('POST', '/api/domains/clone', { sourceUrl: fixture.url });
  expect(site.statusCode).toBe(201);
  ids.siteId = site.json().id;
  expect((await pollToEnd(t, ids.siteId, accounts.owner.headers)).at(-1)!.status).toBe('completed');
  const record = await ownerGet(`/api/domains/clone/${ids.siteId}`);
  ids.liveVersionId = (record.body as { liveVersionId: string }).liveVersionId;
  // The change report a re-mirror would have made of the live version.
  await t.app.database.db
    .insertInto('change_reports')
    .values({
      version_id: ids.liveVersionId,
      site_id: ids.siteId,
      base_version_id: ids.liveVersionId,
      report: JSON.stringify({
        summary: 'No changes',
        unchanged: true,
        pages: { added: [], removed: [], changed: [] },
        assets: { added: [], removed: [], changed: [] },
        noiseOnly: 0,
      }),
      created_at: new Date().toISOString(),
    })
    .execute();

  // A watch on it, and its change feed.
  const watch = await owner('POST', `/api/domains/clone/${ids.siteId}/watches`, WATCH);
  expect(watch.statusCode).toBe(201);
  ids.watchId = watch.json().id;
  const watches = await ownerGet(`/api/domains/clone/${ids.siteId}/watches`);
  ids.feedToken = new URL((watches.body as { feedUrl: string }).feedUrl).searchParams.get('token')!;

  // Its newsletter form, and a submission of it with a file (as the sites host keeps them).
  const forms = await ownerGet(`/api/domains/clone/${ids.siteId}/forms`);
  ids.formKey = (forms.body as { forms: { key: string }[] }).forms[0]!.key;
  ids.submissionId = randomUUID();
  const file = await t.app.blobs.put(
    (async function* () {
      yield Buffer.from("%PDF-1.4 a visitor's file");
    })(),
  );
  await t.app.database.db
    .insertInto('form_submissions')
    .values({
      id: ids.submissionId,
      site_id: ids.siteId,
      owner_id: (
        await t.app.database.db
          .selectFrom('users')
          .select('id')
          .where('email', '=', accounts.owner.email)
          .executeTakeFirstOrThrow()
      ).id,
      form_key: ids.formKey,
      form_label: 'Subscribe',
      page: '/',
      fields: JSON.stringify([['email', 'reader@example.net']]),
      search_text: 'email reader@example.net',
      spam: 0,
      spam_reason: null,
      bytes: 60,
      created_at: new Date().toISOString(),
      mailed_at: new Date().toISOString(),
    })
    .execute();
  await t.app.database.db
    .insertInto('form_files')
    .values({
      submission_id: ids.submissionId,
      position: 0,
      field: 'cv',
      name: 'cv.pdf',
      content_type: 'application/pdf',
      hash: file.hash,
      size: file.size,
    })
    .execute();

  // A custom domain on it and a parked domain.
  ids.customDomain = 'shop.owner-shop.test';
  dns.set('owner-shop.test', { SOA: true });
  const deployed = await owner('POST', '/api/domains/deploy', {
    siteId: ids.siteId,
    domain: ids.customDomain,
  });
  expect(deployed.statusCode).toBe(201);
  ids.customDomainId = deployed.json().id;
  ids.parkedDomain = 'owner-parked.test';
  dns.set(ids.parkedDomain, { SOA: true });
  const parked = await owner('POST', '/api/domains/park', { domain: ids.parkedDomain });
  expect(parked.statusCode).toBe(201);
  ids.parkedId = parked.json().id;

  // A card, a subscription with its invoice, and a payment waiting for confirmation.
  const card = await owner('POST', '/api/payments/test/payment-methods', {
    number: TEST_CARDS.succeeds,
    expMonth: 12,
    expYear: NEXT_YEAR,
    cvc: '123',
  });
  expect(card.statusCode).toBe(200);
  ids.cardId = card.json().id;
  const subscribed = await owner('POST', '/api/payments/subscribe', {
    planId: 'agency',
    paymentMethodId: ids.cardId,
  });
  expect(subscribed.statusCode).toBe(200);
  const invoices = await owner('GET', '/api/payments/invoices');
  ids.invoiceId = invoices.json()[0].id;
  const intent = await owner('POST', '/api/payments/payment-intent', {
    amount: 900,
    description: 'Owner payment',
  });
  expect(intent.json().status).toBe('requires_payment_method');
  ids.intentSecret = intent.json().clientSecret;

  // A stored screenshot of the fixture (as a capture would leave it).
  const stored = await t.app.blobs.put(
    (async function* () {
      yield Buffer.from('not really a jpeg');
    })(),
  );
  const now = Date.now();
  await saveScreenshot(t.app.database.db, {
    url: new URL(fixture.url).href,
    hash: stored.hash,
    createdAt: new Date(now).toISOString(),
    expiresAt: new Date(now + 3_600_000).toISOString(),
  });
  ids.screenshotFile = `${stored.hash}.jpg`;

  // A fidelity report of the live version (as a check would leave it), with one screenshot.
  const shot = await t.app.blobs.put(
    (async function* () {
      yield Buffer.from('not really a png');
    })(),
  );
  const page = {
    path: '/',
    url: new URL('/', fixture.url).href,
    viewport: 'desktop' as const,
    diffPercent: 0,
    noisePercent: 0,
    textSimilarity: 1,
    failedRequests: [],
    externalRequests: [],
    scriptErrors: [],
    height: { original: 800, copy: 800 },
    reasons: [],
    belowThreshold: false,
    shots: { original: shot.hash, copy: shot.hash, diff: shot.hash },
  };
  await saveReport(t.app.database.db, {
    versionId: ids.liveVersionId,
    siteId: ids.siteId,
    report: {
      score: 100,
      checkedAt: new Date(now).toISOString(),
      durationMs: 1,
      originalUrl: page.url,
      pages: [page],
      summary: { checked: 1, belowThreshold: 0, repaired: 0, unmeasured: 0 },
    },
    repairedVersionId: null,
  });
  ids.fidelityShotFile = `${shot.hash}.png`;

  // The visual diff of the live version's change report (as its job would leave it).
  await queueVisualDiff(t.app.database.db, { versionId: ids.liveVersionId, siteId: ids.siteId });
  await saveVisualDiff(t.app.database.db, {
    versionId: ids.liveVersionId,
    checkedAt: new Date(now).toISOString(),
    pages: [
      {
        path: '/',
        viewport: 'desktop',
        diffPercent: 1,
        noisePercent: 0,
        shots: { before: shot.hash, after: shot.hash, diff: shot.hash },
      },
    ],
    shotSizes: { [shot.hash]: shot.size },
  });
  ids.changeShotFile = `${shot.hash}.png`;
}, 60_000);

afterAll(async () => {
  await t?.close();
  await ai?.close();
  await fixture?.close();
  await dns?.close();
  if (webDist) fs.rmSync(webDist, { recursive: true, force: true });
});

// ---- the test ----------------------------------------------------------------------------------

describe('authorization matrix', () => {
  it('classifies every route the app serves, and only those', () => {
    const listed = ROWS.map((r) => r.route).sort();
    expect(new Set(listed).size, 'each route is listed once').toBe(listed.length);
    const served = servedRoutes();
    expect(served.length).toBeGreaterThan(50);
    expect(
      served.filter((r) => !listed.includes(r)),
      'routes missing from the authorization matrix: classify them in ROWS',
    ).toEqual([]);
    expect(
      listed.filter((r) => !served.includes(r)),
      'rows for routes the app no longer serves',
    ).toEqual([]);
    // No route is reserved for admins today (SPEC §6: "no admin screen").
    expect(ROWS.filter((r) => r.access === 'admin-only')).toEqual([]);
  });

  it('answers each caller as the table says and never lets anyone touch the owner’s things', async () => {
    const failures: string[] = [];
    for (const row of ROWS) {
      for (const caller of CALLERS) {
        const before = caller === 'owner' ? null : await ownerView();
        const res = await send(row, caller);
        if (res.statusCode !== row.expect[caller]) {
          failures.push(
            `${row.route} as ${caller}: ${res.statusCode} (expected ${row.expect[caller]}) ${res.body.slice(0, 200)}`,
          );
        }
        if (res.statusCode >= 500) failures.push(`${row.route} as ${caller}: server error`);
        if (before) {
          const after = await ownerView();
          try {
            expect(after).toEqual(before);
          } catch {
            failures.push(`${row.route} as ${caller} changed the owner's resources`);
          }
        }
        if (caller === 'owner') {
          await row.afterOwner?.().catch((err: unknown) => {
            failures.push(`${row.route} after the owner's call: ${String(err)}`);
          });
        }
      }
    }
    expect(failures).toEqual([]);
  }, 180_000);
});
